// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the run-time selection (dispatch.h): a forced choice is honoured
// (by Select and, through IPSUM_CHECKSUM_IMPL, by the process-wide choice
// that Checksum calls through), an unknown or unsupported name is refused and
// an unsupported implementation is never called, the automatic choice is a
// supported implementation, and the report lists every implementation,
// portable first. The end-to-end environment-variable tests run in a forked
// child each (GoogleTest runs *DeathTest suites before all others, so the
// parent has not made its process-wide choice yet when it forks); the same
// logic is also tested in-process through internal::SelectFromEnvironment.

#include "checksum/dispatch.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "checksum/checksum.h"
#include "checksum/internal/active.h"
#include "checksum/internal/impl.h"
#include "checksum/internal/reference.h"
#include "gtest/gtest.h"

namespace ipsum::checksum {
namespace {

using internal::CompiledImplementations;
using internal::Implementation;

std::vector<uint8_t> TestBytes(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 131 + 7);
  return v;
}

TEST(SelectTest, ForcedChoiceIsHonouredForEverySupportedImplementation) {
  for (const Implementation& impl : CompiledImplementations()) {
    if (!impl.supported()) continue;
    SCOPED_TRACE(impl.name);
    absl::StatusOr<Selection> s = Select(impl.name);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->name, impl.name);
    EXPECT_TRUE(s->forced);
    EXPECT_EQ(s->sum, impl.sum);
    EXPECT_EQ(s->copy_sum, impl.copy_sum);
    EXPECT_EQ(s->sum_pieces, impl.sum_pieces);
    EXPECT_TRUE(s->error.empty());
    int chosen = 0;
    for (const ImplementationInfo& info : s->implementations) {
      chosen += info.chosen;
      if (info.chosen) {
        EXPECT_EQ(info.name, impl.name);
      }
    }
    EXPECT_EQ(chosen, 1);
  }
}

TEST(SelectTest, UnknownNameIsRefused) {
  absl::StatusOr<Selection> s = Select("no_such_impl");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.status().message().find("no_such_impl"), std::string::npos);
  EXPECT_NE(s.status().message().find("portable"), std::string::npos);
}

TEST(SelectTest, CompiledButUnsupportedNameIsRefused) {
  int tested = 0;
  for (const Implementation& impl : CompiledImplementations()) {
    if (impl.supported()) continue;
    absl::StatusOr<Selection> s = Select(impl.name);
    ASSERT_FALSE(s.ok()) << impl.name;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
    ++tested;
  }
  if (tested == 0) GTEST_SKIP() << "this CPU supports every compiled one";
}

// A table entry that must never run: the dispatcher may only call supported
// implementations, even to time them.
bool NeverSupported() { return false; }
uint16_t MustNotRun(const uint8_t*, size_t, uint16_t) { std::abort(); }
uint16_t MustNotRunCopy(uint8_t*, const uint8_t*, size_t, uint16_t) {
  std::abort();
}
uint16_t MustNotRunPieces(const std::span<const uint8_t>*, size_t, size_t,
                          uint16_t) {
  std::abort();
}

std::vector<Implementation> TableWithUnsupportedEntry() {
  std::vector<Implementation> table(CompiledImplementations().begin(),
                                    CompiledImplementations().end());
  table.push_back({"fake_unsupported", NeverSupported, MustNotRun,
                   MustNotRunCopy, MustNotRunPieces});
  return table;
}

TEST(SelectTest, UnsupportedNameIsRefusedWithoutRunningIt) {
  const std::vector<Implementation> table = TableWithUnsupportedEntry();
  absl::StatusOr<Selection> s = internal::SelectFrom(table, "fake_unsupported");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.status().message().find("not supported"), std::string::npos);
}

TEST(SelectTest, AutomaticChoiceNeverTimesOrPicksAnUnsupportedOne) {
  const std::vector<Implementation> table = TableWithUnsupportedEntry();
  absl::StatusOr<Selection> s = internal::SelectFrom(table, "");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_NE(s->name, "fake_unsupported");
  const ImplementationInfo& fake = s->implementations.back();
  EXPECT_EQ(fake.name, "fake_unsupported");
  EXPECT_FALSE(fake.supported);
  EXPECT_FALSE(fake.chosen);
  EXPECT_EQ(fake.sum_gbps, 0);
}

TEST(SelectTest, AutomaticChoiceIsSupportedAndEveryCandidateMeasured) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Selection> s = Select("");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_FALSE(s->forced);
  ASSERT_EQ(s->implementations.size(), CompiledImplementations().size());
  EXPECT_EQ(s->implementations.front().name, "portable");
  EXPECT_TRUE(s->implementations.front().supported);
  int chosen = 0;
  for (size_t i = 0; i < s->implementations.size(); ++i) {
    const ImplementationInfo& info = s->implementations[i];
    const Implementation& impl = CompiledImplementations()[i];
    EXPECT_EQ(info.name, impl.name);
    EXPECT_EQ(info.supported, impl.supported());
    if (info.supported) {
      EXPECT_GT(info.sum_gbps, 0) << info.name;
      EXPECT_GT(info.copy_gbps, 0) << info.name;
    }
    if (info.chosen) {
      ++chosen;
      EXPECT_TRUE(info.supported);
      EXPECT_EQ(info.name, s->name);
      EXPECT_EQ(s->sum, impl.sum);
    }
  }
  EXPECT_EQ(chosen, 1);
  // Well under 1 ms on real hardware; the bound is loose for sanitizers,
  // emulators and loaded machines.
  EXPECT_LT(elapsed, std::chrono::milliseconds(200));
  std::printf("automatic selection took %lld us\n",
              static_cast<long long>(
                  std::chrono::duration_cast<std::chrono::microseconds>(elapsed)
                      .count()));
}

TEST(ReportTest, ProcessChoiceIsSupportedAndChecksumCallsIt) {
  const Selection& s = Report();
  EXPECT_EQ(s.implementations.front().name, "portable");
  bool found = false;
  for (const ImplementationInfo& info : s.implementations) {
    if (info.chosen) {
      found = true;
      EXPECT_TRUE(info.supported);
      EXPECT_EQ(info.name, s.name);
    }
  }
  EXPECT_TRUE(found);
  const std::vector<uint8_t> data = TestBytes(1500);
  EXPECT_EQ(Checksum(data.data(), data.size(), 0x1234),
            internal::ReferenceSum(data.data(), data.size(), 0x1234));
  EXPECT_EQ(internal::active_sum.load(), s.sum);
  std::vector<uint8_t> copy(data.size());
  EXPECT_EQ(CopyAndChecksum(copy.data(), data.data(), data.size(), 7),
            internal::ReferenceSum(data.data(), data.size(), 7));
  EXPECT_EQ(copy, data);
  EXPECT_EQ(internal::active_copy_sum.load(), s.copy_sum);
  const std::span<const uint8_t> pieces[] = {
      std::span<const uint8_t>(data).first(501),
      std::span<const uint8_t>(data).subspan(501)};
  EXPECT_EQ(ChecksumPieces(pieces, 9),
            internal::ReferenceSum(data.data(), data.size(), 9));
  EXPECT_EQ(internal::active_sum_pieces.load(), s.sum_pieces);
}

TEST(ReportTest, FormatListsEveryImplementationAndMarksTheChosenOne) {
  const std::string text = FormatReport();
  for (const Implementation& impl : CompiledImplementations()) {
    EXPECT_NE(text.find(impl.name), std::string::npos) << impl.name;
  }
  EXPECT_NE(text.find(Report().name + std::string(" ")), std::string::npos);
  EXPECT_NE(text.find("<- chosen"), std::string::npos);
  std::printf("%s", text.c_str());
}

TEST(SelectFromEnvironmentTest, HonoursASupportedName) {
  for (const Implementation& impl : CompiledImplementations()) {
    if (!impl.supported()) continue;
    const Selection s = internal::SelectFromEnvironment(impl.name);
    EXPECT_EQ(s.name, impl.name);
    EXPECT_TRUE(s.forced);
    EXPECT_TRUE(s.error.empty());
  }
}

TEST(SelectFromEnvironmentTest, UnsetOrEmptyChoosesAutomatically) {
  for (const char* value : {static_cast<const char*>(nullptr), ""}) {
    const Selection s = internal::SelectFromEnvironment(value);
    EXPECT_FALSE(s.forced);
    EXPECT_TRUE(s.error.empty());
  }
}

TEST(SelectFromEnvironmentTest, RefusesAnUnknownNameAndFallsBack) {
  testing::internal::CaptureStderr();
  const Selection s = internal::SelectFromEnvironment("x86_avx9000");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(s.forced);
  EXPECT_NE(s.error.find("x86_avx9000"), std::string::npos);
  EXPECT_NE(err.find("IPSUM_CHECKSUM_IMPL refused"), std::string::npos);
  bool chosen_supported = false;
  for (const ImplementationInfo& info : s.implementations) {
    if (info.chosen) chosen_supported = info.supported;
  }
  EXPECT_TRUE(chosen_supported);
}

// ExitZeroIfForcedBy sets IPSUM_CHECKSUM_IMPL=name in a fresh process and
// exits 0 when the process-wide choice and Checksum both use it.
[[noreturn]] void ExitZeroIfForcedBy(const char* name) {
  setenv(kImplementationEnvVar, name, 1);
  const std::vector<uint8_t> data = TestBytes(999);
  const uint16_t sum = Checksum(data.data(), data.size());  // First use.
  const Selection& s = Report();
  const bool ok =
      s.name == name && s.forced && s.error.empty() &&
      internal::active_sum.load() == s.sum &&
      sum == internal::ReferenceSum(data.data(), data.size(), 0) &&
      FormatReport().find("<- chosen (forced)") != std::string::npos;
  std::exit(ok ? 0 : 1);
}

TEST(EnvironmentDeathTest, ForcedChoiceIsHonoured) {
  for (const Implementation& impl : CompiledImplementations()) {
    if (!impl.supported()) continue;
    SCOPED_TRACE(impl.name);
    EXPECT_EXIT(ExitZeroIfForcedBy(impl.name), testing::ExitedWithCode(0), "");
  }
}

// ExitZeroIfRefused sets IPSUM_CHECKSUM_IMPL=name in a fresh process and
// exits 0 when the name was refused and a supported one chosen instead.
[[noreturn]] void ExitZeroIfRefused(const char* name) {
  setenv(kImplementationEnvVar, name, 1);
  const Selection& s = Report();
  bool ok = !s.forced && !s.error.empty() && s.name != name &&
            FormatReport().find("refused") != std::string::npos;
  for (const ImplementationInfo& info : s.implementations) {
    if (info.chosen) ok = ok && info.supported;
  }
  std::exit(ok ? 0 : 1);
}

// ExitZeroIfConcurrentFirstUseAgrees makes the process-wide choice from
// many threads at once (in a fresh process) and exits 0 when every thread's
// sums are right and all see the same choice.
[[noreturn]] void ExitZeroIfConcurrentFirstUseAgrees() {
  const std::vector<uint8_t> data = TestBytes(4000);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (size_t len = t; len < data.size(); len += 97) {
        std::vector<uint8_t> copy(len);
        if (Checksum(data.data(), len, 1) !=
                internal::ReferenceSum(data.data(), len, 1) ||
            CopyAndChecksum(copy.data(), data.data(), len, 2) !=
                internal::ReferenceSum(data.data(), len, 2)) {
          ++wrong;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const bool same = internal::active_sum.load() == Report().sum;
  std::exit(wrong == 0 && same ? 0 : 1);
}

TEST(EnvironmentDeathTest, ConcurrentFirstUseIsSafe) {
  EXPECT_EXIT(ExitZeroIfConcurrentFirstUseAgrees(), testing::ExitedWithCode(0),
              "");
}

TEST(EnvironmentDeathTest, UnknownChoiceIsRefusedWithAMessage) {
  EXPECT_EXIT(ExitZeroIfRefused("x86_avx9000"), testing::ExitedWithCode(0),
              "IPSUM_CHECKSUM_IMPL refused: unknown checksum implementation "
              "\"x86_avx9000\"");
}

TEST(EnvironmentDeathTest, UnsupportedChoiceIsRefusedWithAMessage) {
  int tested = 0;
  for (const Implementation& impl : CompiledImplementations()) {
    if (impl.supported()) continue;
    EXPECT_EXIT(ExitZeroIfRefused(impl.name), testing::ExitedWithCode(0),
                "not supported by this CPU");
    ++tested;
  }
  if (tested == 0) GTEST_SKIP() << "this CPU supports every compiled one";
}

}  // namespace
}  // namespace ipsum::checksum
