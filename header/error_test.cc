// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Tests of the Error names and of Result.

#include "header/error.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace ipsum::header {
namespace {

TEST(ErrorTest, EveryErrorHasADistinctReadableName) {
  std::set<std::string_view> names;
  for (int e = 0; e <= static_cast<int>(Error::kBadField); ++e) {
    std::string_view name = ToString(static_cast<Error>(e));
    EXPECT_NE(name, "unknown error") << e;
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  EXPECT_EQ(ToString(Error::kOk), "ok");
  EXPECT_EQ(ToString(Error::kTruncated), "truncated");
  EXPECT_EQ(ToString(static_cast<Error>(200)), "unknown error");
}

TEST(ErrorTest, ResultHoldsAValueOrAnError) {
  Result<int> v = 7;
  EXPECT_TRUE(v.ok());
  EXPECT_TRUE(static_cast<bool>(v));
  EXPECT_EQ(v.error(), Error::kOk);
  EXPECT_EQ(*v, 7);
  Result<int> e = Error::kBadLength;
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.error(), Error::kBadLength);
  Result<std::string> s = std::string("x");
  EXPECT_EQ(s->size(), 1u);
}

}  // namespace
}  // namespace ipsum::header
