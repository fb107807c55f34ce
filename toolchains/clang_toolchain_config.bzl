"""A cc toolchain for the host's clang 14 (x86-64, glibc, libstdc++).

Used by the `fuzz` config (see .bazelrc): libFuzzer and the sanitizers come
with clang, not with the gcc that Bazel's auto-configured host toolchain finds.
Sanitizer and fuzzer flags are not set here; the config adds them with
--copt/--linkopt, and tools/fuzz/fuzz.bzl adds `-fsanitize=fuzzer` to the link
of fuzzer binaries only. Headers come from clang's resource directory and
gcc 12's libstdc++, which clang finds by itself.
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
    llvm = "/usr/lib/llvm-%s/bin/" % ctx.attr.version
    tools = {
        # Bazel drives both compiles and links through the "gcc" tool.
        "gcc": "/usr/bin/clang-%s" % ctx.attr.version,
        "ld": "/usr/bin/ld",
        "ar": llvm + "llvm-ar",
        "cpp": llvm + "clang-cpp",
        "nm": llvm + "llvm-nm",
        "objdump": llvm + "llvm-objdump",
        "objcopy": llvm + "llvm-objcopy",
        "strip": llvm + "llvm-strip",
        "gcov": "/bin/false",
        "dwp": "/bin/false",
    }
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
                    ])],
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
                        "-fuse-ld=bfd",
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
        cxx_builtin_include_directories = [
            "/usr/lib/llvm-%s/lib/clang" % ctx.attr.version,
            "/usr/lib/clang",
            "/usr/lib/gcc/x86_64-linux-gnu",
            "/usr/include",
            "/usr/local/include",
        ],
        toolchain_identifier = "ipsum-clang-%s" % ctx.attr.version,
        host_system_name = "x86_64-linux-gnu",
        target_system_name = "x86_64-linux-gnu",
        target_cpu = "k8",
        target_libc = "glibc",
        compiler = "clang",
        abi_version = "clang",
        abi_libc_version = "glibc",
        tool_paths = [tool_path(name = k, path = v) for k, v in tools.items()],
    )

clang_toolchain_config = rule(
    implementation = _impl,
    attrs = {
        # version is the major version of the Debian clang package used,
        # found as /usr/bin/clang-<version> and /usr/lib/llvm-<version>.
        "version": attr.string(mandatory = True),
    },
    provides = [CcToolchainConfigInfo],
)
