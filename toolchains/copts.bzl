"""Compiler options shared by every ipsum target. Keep them here, not in BUILD files."""

# IPSUM_COPTS applies to all of ipsum's own C++ code.
IPSUM_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wno-sign-compare",
    "-Werror=return-type",
    "-Werror=implicit-fallthrough",
]

# IPSUM_TEST_COPTS applies to tests and benchmarks.
IPSUM_TEST_COPTS = IPSUM_COPTS

def gcc_x86_64_copts(flags):
    """Returns `flags` when GCC builds for x86-64, else nothing (a select()).

    For code-placement flags (-falign-*), whose values are tuned to x86-64
    front ends and whose spelling clang does not accept in full.
    """
    return select({
        "//toolchains:x86_64_clang": [],
        "//toolchains:x86_64": flags,
        "//conditions:default": [],
    })
