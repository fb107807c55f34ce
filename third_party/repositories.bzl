"""Repository rules that lay out ipsum's dependencies from Debian's packages.

Nothing here downloads anything: every repository is made from files that
tools/setup.sh installed from Debian's archive (binary packages under
/usr/share/bazel and /usr/src, source packages under $IPSUM_DEPS).
"""

_DEPS_DEFAULT = "/usr/local/src/ipsum-deps"

def _missing(path):
    fail(("ipsum: %s is missing; run tools/setup.sh (it installs ipsum's " +
          "dependencies from Debian's archive)") % path)

def _symlink_children(rctx, src, skip = []):
    for child in src.readdir():
        if child.basename in skip:
            continue
        rctx.symlink(child, child.basename)

def _rules_cc_impl(rctx):
    """rules_cc 0.0.4 from Debian, adapted to Bazel 4.2.3.

    Debian's copy loads `use_cpp_toolchain` from
    @bazel_tools//tools/cpp:toolchain_utils.bzl, which Bazel 4.2.3 does not
    have yet. The two files that load it get the equivalent literal list.
    """
    src = rctx.path(rctx.attr.path)
    if not src.exists:
        _missing(src)
    res = rctx.execute(["find", ".", "-type", "f"], working_directory = str(src))
    if res.return_code != 0:
        fail("ipsum: cannot list %s: %s" % (src, res.stderr))
    for rel in res.stdout.splitlines():
        rel = rel[2:]
        content = None
        if rel.endswith(".bzl"):
            content = rctx.read(rctx.path("%s/%s" % (src, rel)))
            if "use_cpp_toolchain" in content:
                content = content.replace(
                    ', "use_cpp_toolchain")',
                    ")",
                ).replace(
                    "use_cpp_toolchain()",
                    '["@bazel_tools//tools/cpp:toolchain_type"]',
                )
            else:
                content = None
        if content != None:
            rctx.file(rel, content, executable = False)
        else:
            rctx.symlink(rctx.path("%s/%s" % (src, rel)), rel)

debian_rules_cc = repository_rule(
    implementation = _rules_cc_impl,
    attrs = {"path": attr.string(default = "/usr/share/bazel/rules/cc")},
    local = True,
)

def _source_impl(rctx):
    """A source tree unpacked by tools/setup.sh, optionally with our BUILD."""
    root = rctx.os.environ.get("IPSUM_DEPS", _DEPS_DEFAULT)
    src = rctx.path(rctx.attr.path if rctx.attr.path else root + "/" + rctx.attr.package)
    if not src.exists:
        _missing(src)
    skip = ["WORKSPACE", "WORKSPACE.bazel"]
    if rctx.attr.build_file:
        skip += ["BUILD", "BUILD.bazel"]
    _symlink_children(rctx, src, skip)
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    if rctx.attr.build_file:
        rctx.symlink(rctx.attr.build_file, "BUILD.bazel")

debian_source = repository_rule(
    implementation = _source_impl,
    attrs = {
        # package is the source package's directory under $IPSUM_DEPS.
        "package": attr.string(),
        # path, when set, is an absolute path used instead.
        "path": attr.string(),
        # build_file, when set, replaces the tree's own top-level BUILD file.
        "build_file": attr.label(allow_single_file = True),
    },
    environ = ["IPSUM_DEPS"],
    local = True,
)
