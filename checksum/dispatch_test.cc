// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the run-time selection (dispatch.h): a forced choice is honoured
// (by Select and, through IPSUM_CHECKSUM_IMPL, by the process-wide choice
// that Checksum, CopyAndChecksum and ChecksumPieces call through), for all
// three functions or for each on its own, with mixed choices summing right;
// a malformed value, an unknown or an unsupported name is refused and an
// unsupported implementation is never called (internal::HideForTesting
// makes real implementations unsupported, so these paths run on any CPU);
// the automatic choice is a supported implementation for each function;
// the process makes one selection, which every thread sees; and the report
// lists every implementation, portable first. The end-to-end
// environment-variable tests run in a forked child each (GoogleTest runs
// *DeathTest suites before all others, so the parent has not made its
// process-wide choice yet when it forks); the same logic is also tested
// in-process through internal::SelectFromEnvironment. The selection's cost
// is measured by dispatch_benchmark, not here.

#include "checksum/dispatch.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "checksum/checksum.h"
#include "checksum/internal/active.h"
#include "checksum/internal/impl.h"
#include "checksum/internal/reference.h"
#include "checksum/internal/select.h"
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

// SupportedNames lists the supported compiled implementations, in table
// order.
std::vector<std::string> SupportedNames() {
  std::vector<std::string> names;
  for (const Implementation& impl : CompiledImplementations()) {
    if (impl.supported()) names.push_back(impl.name);
  }
  return names;
}

// FastPathNames lists every compiled implementation but portable.
std::vector<std::string> FastPathNames() {
  std::vector<std::string> names;
  for (const Implementation& impl : CompiledImplementations().subspan(1)) {
    names.push_back(impl.name);
  }
  return names;
}

const Implementation& Find(std::string_view name) {
  for (const Implementation& impl : CompiledImplementations()) {
    if (name == impl.name) return impl;
  }
  std::abort();
}

// Rotation returns a forcing value that gives each function a different
// supported implementation where there are several: the k-th, (k+1)-th and
// (k+2)-th, modulo their number, for sum, copy and pieces.
std::string Rotation(const std::vector<std::string>& names, size_t k) {
  const size_t n = names.size();
  return "sum:" + names[k % n] + ",copy:" + names[(k + 1) % n] +
         ",pieces:" + names[(k + 2) % n];
}

// Chosen counts the implementations marked as chosen for each function and
// checks the marks agree with the selection's names.
void ExpectOneChosenEach(const Selection& s) {
  int sum = 0, copy = 0, pieces = 0;
  for (const ImplementationInfo& info : s.implementations) {
    if (info.chosen_for_sum) {
      ++sum;
      EXPECT_EQ(info.name, s.sum_name);
      EXPECT_TRUE(info.supported);
    }
    if (info.chosen_for_copy) {
      ++copy;
      EXPECT_EQ(info.name, s.copy_name);
      EXPECT_TRUE(info.supported);
    }
    if (info.chosen_for_pieces) {
      ++pieces;
      EXPECT_EQ(info.name, s.pieces_name);
      EXPECT_TRUE(info.supported);
    }
  }
  EXPECT_EQ(sum, 1);
  EXPECT_EQ(copy, 1);
  EXPECT_EQ(pieces, 1);
  EXPECT_EQ(s.sum, Find(s.sum_name).sum);
  EXPECT_EQ(s.copy_sum, Find(s.copy_name).copy_sum);
  EXPECT_EQ(s.sum_pieces, Find(s.pieces_name).sum_pieces);
}

// SumsAreRight tells whether the public functions, which call through the
// process-wide choice, match the reference at sizes that reach it.
bool SumsAreRight() {
  const std::vector<uint8_t> data = TestBytes(3001);
  bool ok = true;
  for (size_t len : {64, 65, 200, 1500, 3001}) {
    const uint16_t want = internal::ReferenceSum(data.data(), len, 0x1234);
    std::vector<uint8_t> copy(len);
    const std::span<const uint8_t> all(data.data(), len);
    const std::span<const uint8_t> pieces[] = {
        all.first(len / 3), all.subspan(len / 3, 1),
        all.subspan(len / 3 + 1)};
    ok = ok && Checksum(data.data(), len, 0x1234) == want &&
         CopyAndChecksum(copy.data(), data.data(), len, 0x1234) == want &&
         std::equal(copy.begin(), copy.end(), data.begin()) &&
         ChecksumPieces(pieces, 0x1234) == want;
  }
  return ok;
}

// ScopedHide hides `names` from Select (internal::HideForTesting) for its
// lifetime.
class ScopedHide {
 public:
  explicit ScopedHide(std::vector<std::string> names) {
    internal::HideForTesting(std::move(names));
  }
  ~ScopedHide() { internal::HideForTesting({}); }
};

TEST(SelectTest, ForcedChoiceIsHonouredForEverySupportedImplementation) {
  for (const Implementation& impl : CompiledImplementations()) {
    if (!impl.supported()) continue;
    SCOPED_TRACE(impl.name);
    absl::StatusOr<Selection> s = Select(impl.name);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->sum_name, impl.name);
    EXPECT_EQ(s->copy_name, impl.name);
    EXPECT_EQ(s->pieces_name, impl.name);
    EXPECT_TRUE(s->sum_forced && s->copy_forced && s->pieces_forced);
    EXPECT_EQ(s->sum, impl.sum);
    EXPECT_EQ(s->copy_sum, impl.copy_sum);
    EXPECT_EQ(s->sum_pieces, impl.sum_pieces);
    EXPECT_TRUE(s->error.empty());
    ExpectOneChosenEach(*s);
    // Nothing was timed.
    for (const ImplementationInfo& info : s->implementations) {
      EXPECT_EQ(info.sum_gbps, 0) << info.name;
    }
  }
}

TEST(SelectTest, EachFunctionCanBeForcedOnItsOwn) {
  const std::vector<std::string> names = SupportedNames();
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string value = Rotation(names, k);
    SCOPED_TRACE(value);
    absl::StatusOr<Selection> s = Select(value);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->sum_name, names[k % names.size()]);
    EXPECT_EQ(s->copy_name, names[(k + 1) % names.size()]);
    EXPECT_EQ(s->pieces_name, names[(k + 2) % names.size()]);
    EXPECT_TRUE(s->sum_forced && s->copy_forced && s->pieces_forced);
    ExpectOneChosenEach(*s);
  }
}

TEST(SelectTest, ABareNameForcesTheFunctionsNotNamedOtherwise) {
  absl::StatusOr<Selection> s = Select("pieces:portable,portable");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->sum_name, "portable");
  EXPECT_EQ(s->copy_name, "portable");
  EXPECT_EQ(s->pieces_name, "portable");
  const std::string last = SupportedNames().back();
  s = Select("portable,copy:" + last);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->sum_name, "portable");
  EXPECT_EQ(s->copy_name, last);
  EXPECT_EQ(s->pieces_name, "portable");
  EXPECT_TRUE(s->sum_forced && s->copy_forced && s->pieces_forced);
  ExpectOneChosenEach(*s);
}

TEST(SelectTest, FunctionsNotForcedAreMeasured) {
  absl::StatusOr<Selection> s = Select("copy:portable");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->copy_name, "portable");
  EXPECT_TRUE(s->copy_forced);
  EXPECT_FALSE(s->sum_forced);
  EXPECT_FALSE(s->pieces_forced);
  ExpectOneChosenEach(*s);
  for (const ImplementationInfo& info : s->implementations) {
    if (!info.supported) continue;
    EXPECT_GT(info.sum_gbps, 0) << info.name;
    EXPECT_GT(info.pieces_gbps, 0) << info.name;
  }
}

TEST(SelectTest, MalformedValueIsRefused) {
  for (const char* value :
       {",", "portable,", "sum:", "sum:portable,sum:portable",
        "portable,portable", "checksum:portable", ":portable",
        "copy:portable,,sum:portable"}) {
    absl::StatusOr<Selection> s = Select(value);
    ASSERT_FALSE(s.ok()) << value;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << value;
    EXPECT_NE(s.status().message().find(value), std::string::npos)
        << s.status();
  }
}

TEST(SelectTest, UnknownNameForOneFunctionIsRefused) {
  absl::StatusOr<Selection> s = Select("portable,copy:no_such_impl");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.status().message().find("no_such_impl"), std::string::npos);
}

TEST(SelectTest, UnknownNameIsRefused) {
  absl::StatusOr<Selection> s = Select("no_such_impl");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.status().message().find("no_such_impl"), std::string::npos);
  EXPECT_NE(s.status().message().find("portable"), std::string::npos);
}

TEST(SelectTest, CompiledButUnsupportedNameIsRefused) {
  const std::vector<std::string> hidden = FastPathNames();
  if (hidden.empty()) GTEST_SKIP() << "portable is the only one compiled";
  const ScopedHide hide(hidden);
  for (const std::string& name : hidden) {
    SCOPED_TRACE(name);
    for (const std::string& value : {name, "pieces:" + name}) {
      absl::StatusOr<Selection> s = Select(value);
      ASSERT_FALSE(s.ok());
      EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
      EXPECT_NE(s.status().message().find("supported: portable"),
                std::string::npos)
          << s.status();
    }
  }
  // Automatically, only portable remains, for every function.
  absl::StatusOr<Selection> s = Select("");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->sum_name, "portable");
  EXPECT_EQ(s->copy_name, "portable");
  EXPECT_EQ(s->pieces_name, "portable");
  for (const ImplementationInfo& info : s->implementations) {
    EXPECT_EQ(info.supported, info.name == "portable");
    if (!info.supported) {
      EXPECT_EQ(info.sum_gbps, 0);
    }
  }
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
  for (const char* value : {"fake_unsupported", "copy:fake_unsupported"}) {
    Selection s;
    std::string error;
    EXPECT_EQ(internal::Choose(table, value, s, &error),
              internal::Refusal::kUnsupported);
    EXPECT_NE(error.find("not supported"), std::string::npos);
  }
}

TEST(SelectTest, AutomaticChoiceNeverTimesOrPicksAnUnsupportedOne) {
  const std::vector<Implementation> table = TableWithUnsupportedEntry();
  Selection s;
  std::string error;
  ASSERT_EQ(internal::Choose(table, "", s, &error), internal::Refusal::kNone)
      << error;
  EXPECT_NE(s.sum_name, "fake_unsupported");
  EXPECT_NE(s.copy_name, "fake_unsupported");
  EXPECT_NE(s.pieces_name, "fake_unsupported");
  const ImplementationInfo& fake = s.implementations.back();
  EXPECT_EQ(fake.name, "fake_unsupported");
  EXPECT_FALSE(fake.supported);
  EXPECT_FALSE(fake.chosen_for_sum || fake.chosen_for_copy ||
               fake.chosen_for_pieces);
  EXPECT_EQ(fake.sum_gbps, 0);
  EXPECT_EQ(fake.copy_gbps, 0);
  EXPECT_EQ(fake.pieces_gbps, 0);
}

TEST(SelectTest, AutomaticChoiceIsSupportedAndEveryCandidateMeasured) {
  absl::StatusOr<Selection> s = Select("");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_FALSE(s->sum_forced || s->copy_forced || s->pieces_forced);
  ASSERT_EQ(s->implementations.size(), CompiledImplementations().size());
  EXPECT_EQ(s->implementations.front().name, "portable");
  EXPECT_TRUE(s->implementations.front().supported);
  for (size_t i = 0; i < s->implementations.size(); ++i) {
    const ImplementationInfo& info = s->implementations[i];
    const Implementation& impl = CompiledImplementations()[i];
    EXPECT_EQ(info.name, impl.name);
    EXPECT_EQ(info.supported, impl.supported());
    if (info.supported) {
      EXPECT_GT(info.sum_gbps, 0) << info.name;
      EXPECT_GT(info.copy_gbps, 0) << info.name;
      EXPECT_GT(info.pieces_gbps, 0) << info.name;
    }
  }
  ExpectOneChosenEach(*s);
}

TEST(ReportTest, ProcessChoiceIsMadeOnceAndChecksumCallsIt) {
  const Selection& s = Report();
  EXPECT_EQ(&Report(), &s);
  EXPECT_EQ(s.implementations.front().name, "portable");
  ExpectOneChosenEach(s);
  EXPECT_TRUE(SumsAreRight());
  EXPECT_EQ(internal::active_sum.load(), s.sum);
  EXPECT_EQ(internal::active_copy_sum.load(), s.copy_sum);
  EXPECT_EQ(internal::active_sum_pieces.load(), s.sum_pieces);
  EXPECT_EQ(&Report(), &s);
}

TEST(ReportTest, FormatListsEveryImplementationAndMarksTheChosenOne) {
  const std::string text = FormatReport();
  for (const Implementation& impl : CompiledImplementations()) {
    EXPECT_NE(text.find(impl.name), std::string::npos) << impl.name;
  }
  const Selection& s = Report();
  EXPECT_NE(text.find("chosen: sum " + s.sum_name + ", copy " + s.copy_name +
                      ", pieces " + s.pieces_name + "\n"),
            std::string::npos);
  EXPECT_NE(text.find("<- chosen for "), std::string::npos);
  std::printf("%s", text.c_str());
}

TEST(SelectFromEnvironmentTest, HonoursASupportedName) {
  for (const Implementation& impl : CompiledImplementations()) {
    if (!impl.supported()) continue;
    const Selection s = internal::SelectFromEnvironment(impl.name);
    EXPECT_EQ(s.sum_name, impl.name);
    EXPECT_EQ(s.copy_name, impl.name);
    EXPECT_EQ(s.pieces_name, impl.name);
    EXPECT_TRUE(s.sum_forced && s.copy_forced && s.pieces_forced);
    EXPECT_TRUE(s.error.empty());
  }
}

TEST(SelectFromEnvironmentTest, UnsetOrEmptyChoosesAutomatically) {
  for (const char* value : {static_cast<const char*>(nullptr), ""}) {
    const Selection s = internal::SelectFromEnvironment(value);
    EXPECT_FALSE(s.sum_forced || s.copy_forced || s.pieces_forced);
    EXPECT_TRUE(s.error.empty());
  }
}

TEST(SelectFromEnvironmentTest, RefusesAnUnknownNameAndFallsBack) {
  testing::internal::CaptureStderr();
  const Selection s =
      internal::SelectFromEnvironment("portable,copy:x86_avx9000");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(s.sum_forced || s.copy_forced || s.pieces_forced);
  EXPECT_NE(s.error.find("x86_avx9000"), std::string::npos);
  EXPECT_NE(err.find("IPSUM_CHECKSUM_IMPL refused"), std::string::npos);
  ExpectOneChosenEach(s);
}

// ExitZeroIfForcedBy sets IPSUM_CHECKSUM_IMPL=value in a fresh process and
// exits 0 when the process-wide choice names sum, copy and pieces as given,
// and Checksum, CopyAndChecksum and ChecksumPieces are right through it.
[[noreturn]] void ExitZeroIfForcedBy(const std::string& value,
                                     const std::string& sum,
                                     const std::string& copy,
                                     const std::string& pieces) {
  setenv(kImplementationEnvVar, value.c_str(), 1);
  const bool right = SumsAreRight();  // The first use.
  const Selection& s = Report();
  const bool ok =
      right && s.sum_name == sum && s.copy_name == copy &&
      s.pieces_name == pieces && s.sum_forced && s.copy_forced &&
      s.pieces_forced && s.error.empty() &&
      internal::active_sum.load() == s.sum &&
      internal::active_copy_sum.load() == s.copy_sum &&
      internal::active_sum_pieces.load() == s.sum_pieces &&
      FormatReport().find("chosen: sum " + sum + " (forced), copy " + copy +
                          " (forced), pieces " + pieces + " (forced)") !=
          std::string::npos;
  std::exit(ok ? 0 : 1);
}

TEST(EnvironmentDeathTest, ForcedChoiceIsHonoured) {
  for (const std::string& name : SupportedNames()) {
    SCOPED_TRACE(name);
    EXPECT_EXIT(ExitZeroIfForcedBy(name, name, name, name),
                testing::ExitedWithCode(0), "");
  }
}

// Mixed choices, each implementation in each role: the functions stay right
// whichever implementation serves each.
TEST(EnvironmentDeathTest, MixedForcedChoicesAreHonouredAndRight) {
  const std::vector<std::string> names = SupportedNames();
  const size_t n = names.size();
  for (size_t k = 0; k < n; ++k) {
    const std::string value = Rotation(names, k);
    SCOPED_TRACE(value);
    EXPECT_EXIT(ExitZeroIfForcedBy(value, names[k % n], names[(k + 1) % n],
                                   names[(k + 2) % n]),
                testing::ExitedWithCode(0), "");
  }
}

// ExitZeroIfRefused sets IPSUM_CHECKSUM_IMPL=value in a fresh process, with
// `hidden` hidden from the dispatcher, and exits 0 when the value was
// refused and supported ones chosen instead.
[[noreturn]] void ExitZeroIfRefused(const std::string& value,
                                    std::vector<std::string> hidden = {}) {
  internal::HideForTesting(std::move(hidden));
  setenv(kImplementationEnvVar, value.c_str(), 1);
  const Selection& s = Report();
  bool ok = !s.sum_forced && !s.copy_forced && !s.pieces_forced &&
            !s.error.empty() &&
            FormatReport().find("refused") != std::string::npos &&
            SumsAreRight();
  for (const ImplementationInfo& info : s.implementations) {
    if (info.chosen_for_sum || info.chosen_for_copy ||
        info.chosen_for_pieces) {
      ok = ok && info.supported;
    }
  }
  std::exit(ok ? 0 : 1);
}

// Snapshot is what one thread saw of the process-wide selection.
struct Snapshot {
  const Selection* report = nullptr;
  internal::SumFn sum = nullptr;
  internal::CopySumFn copy_sum = nullptr;
  internal::SumPiecesFn sum_pieces = nullptr;
  std::vector<double> gbps;
  bool right = false;
};

// ExitZeroIfConcurrentFirstUseAgrees makes the process-wide choice from
// many threads at once (in a fresh process, all released together) and
// exits 0 when every thread's sums are right and all saw one selection: the
// same Report() object, the same installed functions, the same measured
// speeds (a second measurement would not repeat them to the last bit).
[[noreturn]] void ExitZeroIfConcurrentFirstUseAgrees() {
  constexpr int kThreads = 8;
  std::vector<Snapshot> seen(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) {
      }
      Snapshot& mine = seen[t];
      mine.right = SumsAreRight();  // Every function's first use races.
      mine.report = &Report();
      mine.sum = internal::active_sum.load();
      mine.copy_sum = internal::active_copy_sum.load();
      mine.sum_pieces = internal::active_sum_pieces.load();
      for (const ImplementationInfo& info : mine.report->implementations) {
        mine.gbps.push_back(info.sum_gbps);
        mine.gbps.push_back(info.copy_gbps);
        mine.gbps.push_back(info.pieces_gbps);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const Selection& s = Report();
  bool ok = true;
  for (const Snapshot& mine : seen) {
    ok = ok && mine.right && mine.report == &s && mine.sum == s.sum &&
         mine.copy_sum == s.copy_sum && mine.sum_pieces == s.sum_pieces &&
         mine.gbps == seen[0].gbps;
  }
  std::exit(ok ? 0 : 1);
}

TEST(EnvironmentDeathTest, ConcurrentFirstUseMakesOneSelection) {
  EXPECT_EXIT(ExitZeroIfConcurrentFirstUseAgrees(), testing::ExitedWithCode(0),
              "");
}

TEST(EnvironmentDeathTest, UnknownChoiceIsRefusedWithAMessage) {
  EXPECT_EXIT(ExitZeroIfRefused("x86_avx9000"), testing::ExitedWithCode(0),
              "IPSUM_CHECKSUM_IMPL refused: unknown checksum implementation "
              "\"x86_avx9000\"");
}

TEST(EnvironmentDeathTest, MalformedChoiceIsRefusedWithAMessage) {
  EXPECT_EXIT(ExitZeroIfRefused("sum:portable,sum:portable"),
              testing::ExitedWithCode(0),
              "IPSUM_CHECKSUM_IMPL refused: malformed checksum implementation");
}

TEST(EnvironmentDeathTest, UnsupportedChoiceIsRefusedWithAMessage) {
  const std::vector<std::string> hidden = FastPathNames();
  if (hidden.empty()) GTEST_SKIP() << "portable is the only one compiled";
  for (const std::string& name : hidden) {
    for (const std::string& value : {name, "copy:" + name}) {
      EXPECT_EXIT(ExitZeroIfRefused(value, hidden), testing::ExitedWithCode(0),
                  "not supported by this CPU");
    }
  }
}

}  // namespace
}  // namespace ipsum::checksum
