# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
"""cc_static_archive: a self-contained static library for C programs."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

def _cc_static_archive_impl(ctx):
    cc_toolchain = find_cpp_toolchain(ctx)
    archives = []
    for dep in ctx.attr.deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for lib in linker_input.libraries:
                archive = lib.pic_static_library or lib.static_library
                if archive:
                    archives.append(archive)
    out = ctx.actions.declare_file(ctx.label.name)
    obj = ctx.actions.declare_file(ctx.label.name + ".o")
    keep = " ".join(["-u %s" % s for s in ctx.attr.exports])
    keep_global = " ".join(["--keep-global-symbol=%s" % s for s in ctx.attr.exports])

    # One relocatable object holding every member the exported symbols need,
    # in which only they stay global: it links into any program, whatever
    # else (another copy of Abseil...) that program holds. Its COMDAT groups
    # (inline functions, templates) become plain sections: a group kept in
    # it would make the linker drop the program's copies of the same group,
    # whose symbols it then could not find. objcopy cannot make a
    # GNU_UNIQUE symbol (an inline variable, a template's static) local, so
    # those get names of their own, prefixed with the archive's.
    # On MIPS, whose position-independent calls (R_MIPS_CALL16) must name a
    # global symbol, the object keeps its symbols and groups as they are.
    if cc_toolchain.cpu.startswith("mips"):
        isolate = []
    else:
        isolate = [
            "{nm} --defined-only {obj} | " +
            "awk '$2 == \"u\" {{ print $3, \"{prefix}\" $3 }}' > {obj}.unique",
            "{objcopy} {keep_global} --redefine-syms={obj}.unique {obj}",
            "rm {obj}.unique",
        ]
    ctx.actions.run_shell(
        outputs = [out, obj],
        inputs = depset(archives, transitive = [cc_toolchain.all_files]),
        command = " && ".join([
            "{ld} -r {groups} {keep} -o {obj} --start-group {archives} --end-group",
        ] + isolate + [
            "rm -f {out}",
            "{ar} rcs {out} {obj}",
        ]).format(
            groups = "--force-group-allocation" if isolate else "",
            ld = cc_toolchain.ld_executable,
            objcopy = cc_toolchain.objcopy_executable,
            nm = cc_toolchain.nm_executable,
            prefix = ctx.label.name + ".",
            ar = cc_toolchain.ar_executable,
            keep = keep,
            keep_global = keep_global,
            obj = obj.path,
            out = out.path,
            archives = " ".join([a.path for a in archives]),
        ),
        mnemonic = "CcStaticArchive",
        progress_message = "Archiving %s" % out.short_path,
    )
    return [DefaultInfo(files = depset([out]))]

cc_static_archive = rule(
    implementation = _cc_static_archive_impl,
    doc = """Builds `name` (lib<x>.a): the code of `deps` that `exports` needs,
as one object in which only `exports` are global symbols. Link it with the
C++ runtime (-lstdc++ -lm).""",
    attrs = {
        "deps": attr.label_list(providers = [CcInfo]),
        "exports": attr.string_list(mandatory = True),
        "_cc_toolchain": attr.label(
            default = Label("@bazel_tools//tools/cpp:current_cc_toolchain"),
        ),
    },
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    incompatible_use_toolchain_transition = True,
)
