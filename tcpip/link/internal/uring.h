// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Uring: the least of io_uring an Endpoint needs to read or write many
// frames with one system call, through the raw system calls (no library).
// Every operation is queued with RWF_NOWAIT, so the kernel completes it
// while it submits (a device with nothing to read answers -EAGAIN) and
// Submit returns with every result in hand: no request outlives a call,
// and the buffers and iovecs need live only until Submit returns.
//
// Not synchronized: one thread uses a Uring at a time.

#ifndef IPSUM_TCPIP_LINK_INTERNAL_URING_H_
#define IPSUM_TCPIP_LINK_INTERNAL_URING_H_

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

struct io_uring_sqe;  // <linux/io_uring.h>
struct io_uring_cqe;

namespace ipsum::tcpip::link::internal {

class Uring {
 public:
  // Create sets up a ring of `entries` operations (a power of two, at most
  // 4096), or returns nullptr where the kernel (or an emulator) offers no
  // io_uring; errno then says why.
  static std::unique_ptr<Uring> Create(unsigned entries);

  ~Uring();
  Uring(const Uring&) = delete;
  Uring& operator=(const Uring&) = delete;

  // capacity is how many operations one Submit takes.
  unsigned capacity() const { return entries_; }

  // Readv and Writev queue operation number queued() on `fd`; Submit runs
  // them in that order. At most capacity() operations are queued.
  void Readv(int fd, const iovec* iov, unsigned count);
  void Writev(int fd, const iovec* iov, unsigned count);
  unsigned queued() const { return queued_; }

  // Submit runs the queued operations and stores operation i's result
  // (bytes, or -errno) in results[i] (results has at least queued()
  // entries). Returns false if io_uring_enter itself failed: results not
  // posted are then -errno, and the ring is not to be used again. The
  // queue is empty afterwards.
  bool Submit(std::span<int> results);

  // RedirectForTesting makes every operation any Uring queues from now on
  // run on `fd` instead of its own; -1 ends it. Tests point it at a file
  // that refuses RWF_NOWAIT (a pty), so that the kernel fails every
  // operation as it does on a kernel whose TUN devices refuse it.
  static void RedirectForTesting(int fd);

 private:
  Uring() = default;
  ::io_uring_sqe* Next();
  void Queue(uint8_t opcode, int fd, const iovec* iov, unsigned count);

  int fd_ = -1;
  unsigned entries_ = 0;
  unsigned queued_ = 0;
  void* sq_map_ = nullptr;
  size_t sq_map_size_ = 0;
  void* cq_map_ = nullptr;  // == sq_map_ with a single mapping.
  size_t cq_map_size_ = 0;
  ::io_uring_sqe* sqes_ = nullptr;
  size_t sqes_size_ = 0;
  unsigned* sq_tail_ = nullptr;
  unsigned sq_mask_ = 0;
  unsigned* sq_array_ = nullptr;
  unsigned* cq_head_ = nullptr;
  unsigned* cq_tail_ = nullptr;
  unsigned cq_mask_ = 0;
  ::io_uring_cqe* cqes_ = nullptr;
};

}  // namespace ipsum::tcpip::link::internal

#endif  // IPSUM_TCPIP_LINK_INTERNAL_URING_H_
