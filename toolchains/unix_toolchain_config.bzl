"""One cc toolchain config for every compiler of ours that is not Bazel's own.

Bazel's auto-configured toolchain serves the host build. This rule serves the
others, which differ only in their tools, builtin include directories and a
few flags (see toolchains/BUILD.bazel):
  - Debian's GCC cross compilers (/usr/bin/<triple>-gcc) for the mips64 and
    aarch64 configs: binaries link dynamically against the target's libraries
    in /usr/<triple>, so they run under `qemu-<arch> -L /usr/<triple>`;
  - the host's clang 14 for the fuzz config: libFuzzer and the sanitizer
    runtimes ship with clang, not with the gcc that Bazel's host toolchain
    finds. Sanitizer and fuzzer flags come from the config (--copt/--linkopt)
    and from testing/fuzz/fuzz.bzl, not from here.
"""

load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)
load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
    ACTION_NAMES.linkstamp_compile,
]

_CXX_ACTIONS = [
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
    ACTION_NAMES.linkstamp_compile,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

def _impl(ctx):
    tools = dict(ctx.attr.tools)
    tools.setdefault("gcov", "/bin/false")
    tools.setdefault("dwp", "/bin/false")
    features = [
        feature(name = "supports_pic", enabled = True),
        feature(name = "supports_dynamic_linker", enabled = True),
        feature(name = "dbg"),
        feature(name = "fastbuild"),
        feature(name = "opt"),
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = [
                        "-U_FORTIFY_SOURCE",
                        "-fstack-protector",
                        "-Wall",
                        "-fno-omit-frame-pointer",
                        # Keep the paths of headers reached through Bazel's
                        # symlinks as they are, so header checking sees them.
                        "-no-canonical-prefixes",
                        # Reproducible builds.
                        "-Wno-builtin-macro-redefined",
                        "-D__DATE__=\"redacted\"",
                        "-D__TIMESTAMP__=\"redacted\"",
                        "-D__TIME__=\"redacted\"",
                    ] + ctx.attr.extra_compile_flags)],
                ),
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = ["-g"])],
                    with_features = [with_feature_set(features = ["dbg"])],
                ),
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = [
                        "-g0",
                        "-O2",
                        "-D_FORTIFY_SOURCE=1",
                        "-DNDEBUG",
                        "-ffunction-sections",
                        "-fdata-sections",
                    ])],
                    with_features = [with_feature_set(features = ["opt"])],
                ),
                flag_set(
                    actions = _CXX_ACTIONS,
                    flag_groups = [flag_group(flags = ["-std=c++20"])],
                ),
            ],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [
                flag_set(
                    actions = _LINK_ACTIONS,
                    flag_groups = [flag_group(flags = [
                        "-lstdc++",
                        "-lm",
                        "-pthread",
                    ] + ctx.attr.extra_link_flags + [
                        "-Wl,-z,relro,-z,now",
                        "-no-canonical-prefixes",
                    ])],
                ),
                flag_set(
                    actions = _LINK_ACTIONS,
                    flag_groups = [flag_group(flags = ["-Wl,--gc-sections"])],
                    with_features = [with_feature_set(features = ["opt"])],
                ),
            ],
        ),
        feature(
            name = "user_compile_flags",
            enabled = True,
            flag_sets = [flag_set(
                actions = _COMPILE_ACTIONS,
                flag_groups = [flag_group(
                    expand_if_available = "user_compile_flags",
                    iterate_over = "user_compile_flags",
                    flags = ["%{user_compile_flags}"],
                )],
            )],
        ),
    ]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        features = features,
        cxx_builtin_include_directories = ctx.attr.builtin_include_directories,
        toolchain_identifier = ctx.attr.toolchain_identifier,
        host_system_name = "x86_64-linux-gnu",
        target_system_name = ctx.attr.target_system_name,
        target_cpu = ctx.attr.cpu,
        target_libc = "glibc",
        compiler = ctx.attr.compiler,
        abi_version = ctx.attr.compiler,
        abi_libc_version = "glibc",
        tool_paths = [tool_path(name = k, path = v) for k, v in tools.items()],
    )

unix_toolchain_config = rule(
    implementation = _impl,
    attrs = {
        # cpu is Bazel's --cpu value for this target.
        "cpu": attr.string(mandatory = True),
        # compiler is "gcc" or "clang" (Bazel's --compiler value).
        "compiler": attr.string(mandatory = True),
        # target_system_name is the GNU triple of the target.
        "target_system_name": attr.string(mandatory = True),
        "toolchain_identifier": attr.string(mandatory = True),
        # tools maps Bazel's tool names (gcc, ld, ar, cpp, nm, objdump,
        # objcopy, strip) to absolute paths; gcc drives compiles and links.
        "tools": attr.string_dict(mandatory = True),
        # builtin_include_directories are the compiler's own header roots.
        "builtin_include_directories": attr.string_list(mandatory = True),
        "extra_compile_flags": attr.string_list(),
        "extra_link_flags": attr.string_list(),
    },
    provides = [CcToolchainConfigInfo],
)
