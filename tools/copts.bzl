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
