"""A cc toolchain for Debian's GCC cross compilers (<triple>-gcc).

One rule serves every cross target: it is given the GNU triple and finds the
compiler at /usr/bin/<triple>-gcc and its headers under /usr/<triple> and
/usr/lib/gcc-cross/<triple>. Binaries link dynamically against the target's
libraries in /usr/<triple>, so they run under `qemu-<arch> -L /usr/<triple>`.
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
    triple = ctx.attr.triple
    tools = {
        "gcc": "/usr/bin/%s-gcc" % triple,
        "ld": "/usr/bin/%s-ld" % triple,
        "ar": "/usr/bin/%s-ar" % triple,
        "cpp": "/usr/bin/%s-cpp" % triple,
        "nm": "/usr/bin/%s-nm" % triple,
        "objdump": "/usr/bin/%s-objdump" % triple,
        "objcopy": "/usr/bin/%s-objcopy" % triple,
        "strip": "/usr/bin/%s-strip" % triple,
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
                        "-fno-canonical-system-headers",
                        # Reproducible builds.
                        "-Wno-builtin-macro-redefined",
                        "-D__DATE__=\"redacted\"",
                        "-D__TIMESTAMP__=\"redacted\"",
                        "-D__TIME__=\"redacted\"",
                    ] + ctx.attr.extra_copts)],
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
            "/usr/%s/include" % triple,
            "/usr/lib/gcc-cross/%s" % triple,
            "/usr/include",
        ],
        toolchain_identifier = "ipsum-" + triple,
        host_system_name = "x86_64-linux-gnu",
        target_system_name = triple,
        target_cpu = ctx.attr.cpu,
        target_libc = "glibc",
        compiler = "gcc",
        abi_version = "gcc",
        abi_libc_version = "glibc",
        tool_paths = [tool_path(name = k, path = v) for k, v in tools.items()],
    )

cross_toolchain_config = rule(
    implementation = _impl,
    attrs = {
        # cpu is Bazel's --cpu value for this target.
        "cpu": attr.string(mandatory = True),
        # triple is the GNU target triple of Debian's cross compiler.
        "triple": attr.string(mandatory = True),
        # extra_copts are target-specific compile flags.
        "extra_copts": attr.string_list(),
    },
    provides = [CcToolchainConfigInfo],
)
