"""ipsum_cc_fuzz_test: a libFuzzer target plus a corpus regression test.

    load("//testing/fuzz:fuzz.bzl", "ipsum_cc_fuzz_test")

    ipsum_cc_fuzz_test(
        name = "checksum_fuzzer",
        srcs = ["checksum_fuzzer.cc"],
        deps = [":checksum"],
    )

`srcs` define `extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t)`
(and optionally `LLVMFuzzerInitialize`). The macro makes:

  - `<name>_lib`: the sources, compiled once, `alwayslink`;
  - `<name>`: the fuzzer binary, tagged `fuzzer` and `manual`. Under
    `--config=fuzz` it links libFuzzer (`-fsanitize=fuzzer`) and runs as any
    libFuzzer binary: `bazel-bin/<pkg>/<name> -max_total_time=60 CORPUS_DIR`.
    Under any other config it links testing/fuzz/replay_main.cc instead and
    replays the files and directories named on its command line;
  - `<name>_regression`: a small `cc_test` that replays every file of the
    seed corpus `//testdata/fuzz:<name>` (testdata/fuzz/<name>/) through the
    same code with the replay main, so each `bazel test //...` checks the
    corpus, under every config (asan, mips64, ...) included.

testing/fuzz/run_all.sh builds and runs every target tagged `fuzzer`.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")
load("//toolchains:copts.bzl", "IPSUM_TEST_COPTS")

_FUZZING = "//testing/fuzz:fuzzing"
_REPLAY_MAIN = "//testing/fuzz:replay_main"

def ipsum_cc_fuzz_test(
        name,
        srcs,
        deps = [],
        corpus = None,
        copts = [],
        tags = [],
        **kwargs):
    """Defines <name> (fuzzer), <name>_lib and <name>_regression (cc_test).

    Args:
      name: the fuzzer's name, conventionally `<something>_fuzzer`.
      srcs: sources defining LLVMFuzzerTestOneInput.
      deps: libraries the sources use.
      corpus: label of a filegroup with the seed inputs; defaults to
        "//testdata/fuzz:<name>" (the files in testdata/fuzz/<name>/).
      copts: compile options added to IPSUM_TEST_COPTS.
      tags: tags for all three targets (e.g. ["host_only"] for a fuzzer
        that needs a host-only library such as libpcap).
      **kwargs: passed to the library (e.g. `defines`, `data`).
    """
    if corpus == None:
        corpus = "//testdata/fuzz:" + name
    lib = name + "_lib"

    cc_library(
        name = lib,
        testonly = True,
        srcs = srcs,
        copts = IPSUM_TEST_COPTS + copts,
        tags = tags,
        deps = deps,
        alwayslink = True,
        # Static, as the replay main that calls into it (a shared library
        # left with an undefined LLVMFuzzerTestOneInput does not link on
        # every toolchain).
        linkstatic = True,
        **kwargs
    )

    cc_binary(
        name = name,
        testonly = True,
        linkopts = select({
            _FUZZING: ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        tags = tags + ["fuzzer", "manual"],
        deps = [":" + lib] + select({
            _FUZZING: [],
            "//conditions:default": [_REPLAY_MAIN],
        }),
    )

    cc_test(
        name = name + "_regression",
        size = "small",
        args = ["$(rootpaths %s)" % corpus],
        data = [corpus],
        tags = tags,
        deps = [
            ":" + lib,
            _REPLAY_MAIN,
        ],
    )
