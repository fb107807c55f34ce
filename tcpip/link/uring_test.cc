// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Uring against pipes: operations run in the order queued, each result in
// its own slot, and an operation that fails (a bad file descriptor) costs
// only its own slot however many there are.

#include "tcpip/link/internal/uring.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ipsum::tcpip::link::internal {
namespace {

class Pipe {
 public:
  Pipe() { EXPECT_EQ(pipe2(fds_, O_CLOEXEC), 0); }
  ~Pipe() {
    close(fds_[0]);
    close(fds_[1]);
  }
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }

 private:
  int fds_[2] = {-1, -1};
};

// RING_OR_SKIP declares `name`, a ring of `entries`, or skips the test where
// the kernel (or the emulator the cross configs run under) offers no io_uring.
#define RING_OR_SKIP(name, entries)                               \
  std::unique_ptr<Uring> name = Uring::Create(entries);           \
  if (name == nullptr) {                                          \
    GTEST_SKIP() << "no io_uring here: " << std::strerror(errno); \
  }

iovec Iov(const std::string& s) {
  return {const_cast<char*>(s.data()), s.size()};
}

TEST(UringTest, CreateRefusesCountsThatAreNotPowersOfTwoUpTo4096) {
  for (unsigned entries : {0u, 3u, 12u, 8192u}) {
    errno = 0;
    EXPECT_EQ(Uring::Create(entries), nullptr) << entries;
    EXPECT_EQ(errno, EINVAL) << entries;
  }
}

TEST(UringTest, WritesAndReadsRunInOrderWithOneResultEach) {
  RING_OR_SKIP(ring, 8);
  ASSERT_GE(ring->capacity(), 8u);
  Pipe p;
  const std::vector<std::string> msgs = {"one", "two!", "three"};
  std::vector<iovec> out;
  for (const std::string& m : msgs) out.push_back(Iov(m));
  for (const iovec& v : out) ring->Writev(p.write_end(), &v, 1);
  EXPECT_EQ(ring->queued(), 3u);
  std::array<int, 8> res;
  res.fill(-12345);
  ASSERT_TRUE(ring->Submit(res));
  EXPECT_EQ(ring->queued(), 0u);
  for (size_t i = 0; i < msgs.size(); ++i) {
    EXPECT_EQ(res[i], static_cast<int>(msgs[i].size())) << i;
  }
  EXPECT_EQ(res[3], -12345) << "a slot past the queued operations changed";

  // A pipe read takes what is there: 5 bytes, then the other 7 in two
  // iovecs, then nothing, which RWF_NOWAIT answers with -EAGAIN.
  std::array<char, 12> got{};
  const iovec first = {got.data(), 5};
  const iovec rest[2] = {{got.data() + 5, 3}, {got.data() + 8, 4}};
  const iovec more = {got.data(), got.size()};
  ring->Readv(p.read_end(), &first, 1);
  ring->Readv(p.read_end(), rest, 2);
  ring->Readv(p.read_end(), &more, 1);
  ASSERT_TRUE(ring->Submit(res));
  EXPECT_EQ(res[0], 5);
  EXPECT_EQ(res[1], 7);
  EXPECT_EQ(res[2], -EAGAIN);
  EXPECT_EQ(std::string(got.data(), got.size()), "onetwo!three");
}

TEST(UringTest, FailedOperationsCostOnlyTheirOwnSlots) {
  RING_OR_SKIP(ring, 16);
  Pipe p;
  const int bad = p.write_end() + 1000;  // no such descriptor
  const std::string m = "x";
  const iovec v = Iov(m);
  // Failures before, between and after the writes that succeed.
  const std::vector<bool> good = {true,  false, true, false, false, false,
                                  false, false, true, false, true};
  for (bool g : good) ring->Writev(g ? p.write_end() : bad, &v, 1);
  std::array<int, 16> res;
  res.fill(-12345);
  ASSERT_TRUE(ring->Submit(res));
  int written = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    if (good[i]) {
      EXPECT_EQ(res[i], 1) << i;
      ++written;
    } else {
      EXPECT_EQ(res[i], -EBADF) << i;
    }
  }
  // The ring is usable again and holds nothing of the last batch.
  std::array<char, 16> got{};
  const iovec in = {got.data(), got.size()};
  ring->Readv(p.read_end(), &in, 1);
  ASSERT_TRUE(ring->Submit(res));
  EXPECT_EQ(res[0], written);
}

TEST(UringTest, ARingIsReusedAcrossManyBatches) {
  RING_OR_SKIP(ring, 4);
  Pipe p;
  const std::string m = "abcd";
  const iovec v = Iov(m);
  std::array<char, 4> got{};
  const iovec in = {got.data(), got.size()};
  std::array<int, 4> res;
  // More batches than the ring has entries, so its indices wrap.
  for (int i = 0; i < 100; ++i) {
    ring->Writev(p.write_end(), &v, 1);
    ring->Readv(p.read_end(), &in, 1);
    ASSERT_TRUE(ring->Submit(res)) << i;
    ASSERT_EQ(res[0], 4) << i;
    ASSERT_EQ(res[1], 4) << i;
    ASSERT_EQ(std::string(got.data(), got.size()), m) << i;
    got.fill(0);
  }
}

TEST(UringTest, SubmittingNothingSucceeds) {
  RING_OR_SKIP(ring, 4);
  EXPECT_TRUE(ring->Submit({}));
}

}  // namespace
}  // namespace ipsum::tcpip::link::internal
