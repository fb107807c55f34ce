// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0

#include "tcpip/link/internal/uring.h"

#include <errno.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace ipsum::tcpip::link::internal {
namespace {

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

// The file RedirectForTesting named, or -1.
std::atomic<int> redirect_for_testing{-1};

unsigned* At(void* base, uint32_t offset) {
  return reinterpret_cast<unsigned*>(static_cast<char*>(base) + offset);
}

// The ring's indices are shared with the kernel: acquire what it wrote,
// release what it reads.
unsigned LoadAcquire(unsigned* p) {
  return std::atomic_ref<unsigned>(*p).load(std::memory_order_acquire);
}
void StoreRelease(unsigned* p, unsigned v) {
  std::atomic_ref<unsigned>(*p).store(v, std::memory_order_release);
}

}  // namespace

std::unique_ptr<Uring> Uring::Create(unsigned entries) {
#if defined(__NR_io_uring_setup) && defined(__NR_io_uring_enter)
  if (entries == 0 || entries > 4096 || (entries & (entries - 1)) != 0) {
    errno = EINVAL;
    return nullptr;
  }
  io_uring_params p;
  std::memset(&p, 0, sizeof p);
  const long fd = syscall(__NR_io_uring_setup, entries, &p);
  if (fd < 0) return nullptr;
  std::unique_ptr<Uring> u(new Uring());
  u->fd_ = static_cast<int>(fd);
  u->entries_ = p.sq_entries;
  u->sq_map_size_ = p.sq_off.array + p.sq_entries * sizeof(unsigned);
  u->cq_map_size_ = p.cq_off.cqes + p.cq_entries * sizeof(io_uring_cqe);
  const bool single = (p.features & IORING_FEAT_SINGLE_MMAP) != 0;
  if (single && u->cq_map_size_ > u->sq_map_size_) {
    u->sq_map_size_ = u->cq_map_size_;
  }
  u->sq_map_ = mmap(nullptr, u->sq_map_size_, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_POPULATE, u->fd_, IORING_OFF_SQ_RING);
  if (u->sq_map_ == MAP_FAILED) {
    u->sq_map_ = nullptr;
    return nullptr;
  }
  if (single) {
    u->cq_map_ = u->sq_map_;
  } else {
    u->cq_map_ = mmap(nullptr, u->cq_map_size_, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_POPULATE, u->fd_, IORING_OFF_CQ_RING);
    if (u->cq_map_ == MAP_FAILED) {
      u->cq_map_ = nullptr;
      return nullptr;
    }
  }
  u->sqes_size_ = p.sq_entries * sizeof(io_uring_sqe);
  void* sqes = mmap(nullptr, u->sqes_size_, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_POPULATE, u->fd_, IORING_OFF_SQES);
  if (sqes == MAP_FAILED) return nullptr;
  u->sqes_ = static_cast<io_uring_sqe*>(sqes);
  u->sq_tail_ = At(u->sq_map_, p.sq_off.tail);
  u->sq_mask_ = *At(u->sq_map_, p.sq_off.ring_mask);
  u->sq_array_ = At(u->sq_map_, p.sq_off.array);
  u->cq_head_ = At(u->cq_map_, p.cq_off.head);
  u->cq_tail_ = At(u->cq_map_, p.cq_off.tail);
  u->cq_mask_ = *At(u->cq_map_, p.cq_off.ring_mask);
  u->cqes_ = reinterpret_cast<io_uring_cqe*>(static_cast<char*>(u->cq_map_) +
                                             p.cq_off.cqes);
  return u;
#else
  (void)entries;
  errno = ENOSYS;
  return nullptr;
#endif
}

Uring::~Uring() {
  if (sqes_ != nullptr) munmap(sqes_, sqes_size_);
  if (cq_map_ != nullptr && cq_map_ != sq_map_) munmap(cq_map_, cq_map_size_);
  if (sq_map_ != nullptr) munmap(sq_map_, sq_map_size_);
  if (fd_ >= 0) close(fd_);
}

io_uring_sqe* Uring::Next() {
  const unsigned tail = *sq_tail_ + queued_;
  const unsigned slot = tail & sq_mask_;
  io_uring_sqe* sqe = &sqes_[slot];
  std::memset(sqe, 0, sizeof *sqe);
  sq_array_[slot] = slot;
  sqe->user_data = queued_;
  ++queued_;
  return sqe;
}

void Uring::Queue(uint8_t opcode, int fd, const iovec* iov, unsigned count) {
  io_uring_sqe* sqe = Next();
  sqe->opcode = opcode;
  const int redirect = redirect_for_testing.load(std::memory_order_relaxed);
  sqe->fd = redirect >= 0 ? redirect : fd;
  sqe->addr = reinterpret_cast<uint64_t>(iov);
  sqe->len = count;
  sqe->rw_flags = RWF_NOWAIT;
}

void Uring::Readv(int fd, const iovec* iov, unsigned count) {
  Queue(IORING_OP_READV, fd, iov, count);
}

void Uring::Writev(int fd, const iovec* iov, unsigned count) {
  Queue(IORING_OP_WRITEV, fd, iov, count);
}

bool Uring::Submit(std::span<int> results) {
  const unsigned n = queued_;
  queued_ = 0;
  if (n == 0) return true;
  StoreRelease(sq_tail_, *sq_tail_ + n);
  // Every operation completes during submission (RWF_NOWAIT); waiting for
  // n completions only covers the kernel posting them. The kernel may
  // take fewer than asked (it stops after an operation it rejects before
  // running it, whose completion carries the error); the next call goes on
  // from there, each call taking at least one: bounded by n calls and a
  // few interruptions.
  unsigned submitted = 0;
  int err = 0;
  for (unsigned calls = 0, interrupted = 0; submitted < n && calls < n;) {
    const long r = syscall(__NR_io_uring_enter, fd_, n - submitted,
                           n - submitted, IORING_ENTER_GETEVENTS, nullptr, 0);
    if (r < 0) {
      err = errno;
      if (err == EINTR && ++interrupted < 4) continue;
      break;
    }
    ++calls;
    err = 0;
    if (r == 0) break;
    submitted += static_cast<unsigned>(r);
  }
  for (unsigned i = 0; i < n && i < results.size(); ++i) {
    results[i] = -(err != 0 ? err : ECANCELED);
  }
  unsigned head = *cq_head_;
  const unsigned tail = LoadAcquire(cq_tail_);
  for (; head != tail; ++head) {
    const io_uring_cqe& c = cqes_[head & cq_mask_];
    if (c.user_data < results.size()) results[c.user_data] = c.res;
  }
  StoreRelease(cq_head_, head);
  return err == 0 && submitted == n;
}

void Uring::RedirectForTesting(int fd) {
  redirect_for_testing.store(fd, std::memory_order_relaxed);
}

}  // namespace ipsum::tcpip::link::internal
