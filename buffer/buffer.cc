// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// View and Buffer: the chained-view packet buffer (see buffer.h for the
// design). Everything here walks the chain of views; only the methods
// documented as copying touch bytes.

#include "buffer/buffer.h"

#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <span>
#include <type_traits>

#include "checksum/checksum.h"

namespace ipsum::buffer {

using internal::Chunk;

namespace {

// kMaxChunk bounds a chunk's capacity so that size arithmetic cannot wrap;
// a larger request fails like operator new.
constexpr size_t kMaxChunk = SIZE_MAX / 4;

// NewChunk returns a chunk of capacity at least `a + b`.
Chunk* NewChunk(size_t a, size_t b) {
  if (a > kMaxChunk || b > kMaxChunk) throw std::bad_alloc();
  return Chunk::New(a + b);
}

}  // namespace

// ---------------------------------------------------------------------------
// View

View View::Allocate(size_t size, size_t headroom) {
  if (size == 0 && headroom == 0) return View();
  return View(NewChunk(headroom, size), headroom, size);
}

View View::Copy(std::span<const uint8_t> bytes, size_t headroom) {
  View v = Allocate(bytes.size(), headroom);
  if (!bytes.empty()) std::memcpy(v.mutable_data(), bytes.data(), bytes.size());
  return v;
}

std::span<uint8_t> View::MutableSpan() {
  if (chunk_ == nullptr) return {};
  if (!chunk_->unique()) {
    *this = Copy(span(), std::min(offset(), kPrependHeadroom));
  }
  return {mutable_data(), size()};
}

// ---------------------------------------------------------------------------
// Buffer: construction and structure

Buffer Buffer::Copy(std::span<const uint8_t> bytes, size_t headroom) {
  return Buffer(View::Copy(bytes, headroom));
}

void Buffer::Append(View v) {
  if (v.empty()) return;
  const size_t n = v.size();
  if (!views_.empty()) {
    View& last = views_.back();
    if (last.chunk_ == v.chunk_ &&
        last.window_.data() + last.window_.size() == v.window_.data()) {
      last.window_ = {last.window_.data(), last.window_.size() + n};
      size_ += n;
      return;  // `v` drops its (duplicate) reference.
    }
  }
  views_.push_back(std::move(v));  // May throw; then nothing changed.
  size_ += n;
}

void Buffer::Prepend(View v) {
  if (v.empty()) return;
  const size_t n = v.size();
  if (!views_.empty()) {
    View& first = views_.front();
    if (first.chunk_ == v.chunk_ &&
        v.window_.data() + n == first.window_.data()) {
      first.window_ = {v.window_.data(), first.window_.size() + n};
      size_ += n;
      return;
    }
  }
  views_.insert(views_.begin(), std::move(v));
  size_ += n;
}

void Buffer::Append(Buffer&& other) {
  if (&other == this) {
    Append(static_cast<const Buffer&>(other));
    return;
  }
  for (View& v : other.views_) Append(std::move(v));
  other.Clear();
}

void Buffer::Append(const Buffer& other) {
  if (&other == this) {
    // Appending may merge a view into the last one, which would change the
    // views being read: append a clone instead.
    Append(Clone());
    return;
  }
  for (const View& v : other.views_) Append(View(v));
}

void Buffer::Prepend(Buffer&& other) {
  if (&other == this) {
    Append(static_cast<const Buffer&>(other));  // Same bytes either way.
    return;
  }
  other.Append(std::move(*this));
  *this = std::move(other);
}

void Buffer::Prepend(const Buffer& other) { Prepend(other.Clone()); }

std::span<uint8_t> Buffer::Append(size_t n) {
  if (n == 0) return {};
  if (!views_.empty()) {
    View& last = views_.back();
    if (last.GrowBack(n)) {
      size_ += n;
      return {last.mutable_data() + last.size() - n, n};
    }
  }
  // A buffer's first chunk keeps headroom for the headers to come.
  views_.push_back(View::Allocate(n, views_.empty() ? kPrependHeadroom : 0));
  size_ += n;
  return {views_.back().mutable_data(), n};
}

std::span<uint8_t> Buffer::Prepend(size_t n) {
  if (n == 0) return {};
  if (!views_.empty() && views_.front().GrowFront(n)) {
    size_ += n;
    return {views_.front().mutable_data(), n};
  }
  // A new chunk with the bytes at its very end: all the rest is headroom.
  Chunk* chunk = NewChunk(n, kPrependHeadroom);
  views_.insert(views_.begin(), View(chunk, chunk->capacity() - n, n));
  size_ += n;
  return {views_.front().mutable_data(), n};
}

void Buffer::Append(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return;
  // Append(n) never moves existing bytes, so `bytes` stays valid even if it
  // points into this buffer.
  std::span<uint8_t> dst = Append(bytes.size());
  std::memcpy(dst.data(), bytes.data(), bytes.size());
}

uint16_t Buffer::AppendAndChecksum(std::span<const uint8_t> bytes,
                                   uint16_t initial) {
  if (bytes.empty()) return initial;
  std::span<uint8_t> dst = Append(bytes.size());
  return checksum::CopyAndChecksum(dst.data(), bytes.data(), bytes.size(),
                                   initial);
}

void Buffer::Prepend(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return;
  std::span<uint8_t> dst = Prepend(bytes.size());
  std::memcpy(dst.data(), bytes.data(), bytes.size());
}

size_t Buffer::Locate(size_t offset, size_t* in_view) const {
  size_t i = 0;
  while (offset >= views_[i].size()) {
    offset -= views_[i].size();
    ++i;
  }
  *in_view = offset;
  return i;
}

bool Buffer::TrimFrontViews(size_t n) {
  View* const v = views_.data();
  const size_t count = views_.size();
  if (count > 1 && n == v[0].size()) {
    // Exactly the first of several views: a frame's headers in a buffer of
    // their own, from a header-splitting NIC (the receive path's
    // ConsumeHeaders). A View is a span and a chunk pointer, so moving its
    // fields to another slot moves its reference, with none of a move
    // assignment's checks and clearing: the others move down that way, the
    // dropped view's chunk goes into the last slot, and the pop of that
    // slot releases it: a fraction of the walk below.
    internal::Chunk* const dropped = v[0].chunk_;
    for (size_t k = 1; k < count; ++k) {
      v[k - 1].window_ = v[k].window_;
      v[k - 1].chunk_ = v[k].chunk_;
    }
    v[count - 1].chunk_ = dropped;
    size_ -= n;
    views_.pop_back();
    return true;
  }
  return TrimFrontWalk(n);
}

bool Buffer::TrimFrontWalk(size_t n) {
  if (n > size_) return false;
  if (n == size_) {
    Clear();
    return true;
  }
  size_t in_view;
  const size_t i = Locate(n, &in_view);
  // The first i views go. The rest move down over them, each move
  // releasing the chunk of the view it overwrites; the slots left at the
  // end (moved-from, or dropped views no move reached) are popped, which
  // releases those. A hand loop, not views_.erase, whose generic form costs
  // several times more to drop one of a few views.
  View* v = views_.data();
  const size_t count = views_.size();
  for (size_t k = i; k < count; ++k) v[k - i] = std::move(v[k]);
  for (size_t k = 0; k < i; ++k) views_.pop_back();
  views_.front().TrimFront(in_view);
  size_ -= n;
  return true;
}

bool Buffer::Truncate(size_t n) {
  if (n > size_) return false;
  if (n == 0) {
    Clear();
    return true;
  }
  // Keep views up to the one holding byte n - 1.
  size_t in_view;
  size_t i = Locate(n - 1, &in_view);
  views_.erase(views_.begin() + i + 1, views_.end());
  views_[i].Truncate(in_view + 1);
  size_ = n;
  return true;
}

std::optional<Buffer> Buffer::Split(size_t offset) {
  std::optional<Buffer> tail;
  if (offset <= size_) {
    tail.emplace();
    SplitInto(offset, *tail);
  }
  return tail;
}

void Buffer::SplitInto(size_t offset, Buffer& tail) {
  if (offset == size_) return;
  size_t in_view;
  size_t i = Locate(offset, &in_view);
  size_t first_moved = i;
  if (in_view != 0) {
    View straddler = views_[i];  // Shares the chunk.
    straddler.TrimFront(in_view);
    views_[i].Truncate(in_view);
    tail.views_.push_back(std::move(straddler));
    first_moved = i + 1;
  }
  for (size_t k = first_moved; k < views_.size(); ++k) {
    tail.views_.push_back(std::move(views_[k]));
  }
  views_.erase(views_.begin() + first_moved, views_.end());
  tail.size_ = size_ - offset;
  size_ = offset;
}

Buffer Buffer::Clone() const {
  Buffer copy;
  copy.views_ = views_;  // Each View copy shares its chunk.
  copy.size_ = size_;
  return copy;
}

std::optional<Buffer> Buffer::CloneRange(size_t offset, size_t length) const {
  std::optional<Buffer> out;
  if (!InRange(offset, length)) return out;
  out.emplace();
  if (length == 0) return out;
  size_t in_view;
  size_t i = Locate(offset, &in_view);
  out->size_ = length;
  while (length != 0) {
    const View& v = views_[i++];
    size_t n = std::min(v.size() - in_view, length);
    out->views_.push_back(View(v));  // Shares the chunk.
    View& copy = out->views_.back();
    copy.window_ = copy.window_.subspan(in_view, n);
    length -= n;
    in_view = 0;
  }
  return out;
}

Buffer Buffer::DeepClone() const {
  Buffer copy;
  if (size_ == 0) return copy;
  View v = View::Allocate(size_);
  uint8_t* dst = v.mutable_data();
  for (const View& src : views_) {
    std::memcpy(dst, src.data(), src.size());
    dst += src.size();
  }
  copy.Append(std::move(v));
  return copy;
}

std::vector<uint8_t> Buffer::Flatten() const {
  std::vector<uint8_t> out(size_);
  CopyOut(0, out);
  return out;
}

// ---------------------------------------------------------------------------
// Buffer: byte access

size_t Buffer::PullUpIndex(size_t offset, size_t length, size_t* in_view) {
  size_t first = Locate(offset, in_view);
  if (*in_view + length <= views_[first].size()) return first;
  // Merge views [first, last], where `last` holds the range's last byte.
  size_t need = *in_view + length;
  size_t merged = 0;
  size_t last = first;
  while (true) {
    merged += views_[last].size();
    if (merged >= need) break;
    ++last;
  }
  View v = View::Allocate(merged);
  uint8_t* dst = v.mutable_data();
  for (size_t k = first; k <= last; ++k) {
    std::memcpy(dst, views_[k].data(), views_[k].size());
    dst += views_[k].size();
  }
  views_[first] = std::move(v);
  views_.erase(views_.begin() + first + 1, views_.begin() + last + 1);
  return first;
}

std::optional<std::span<const uint8_t>> Buffer::PullUp(size_t offset,
                                                       size_t length) {
  if (!InRange(offset, length)) return std::nullopt;
  if (length == 0) return std::span<const uint8_t>();
  size_t in_view;
  size_t i = PullUpIndex(offset, length, &in_view);
  return std::span<const uint8_t>(views_[i].data() + in_view, length);
}

std::optional<std::span<uint8_t>> Buffer::PullUpMutable(size_t offset,
                                                        size_t length) {
  if (!InRange(offset, length)) return std::nullopt;
  if (length == 0) return std::span<uint8_t>();
  size_t in_view;
  size_t i = PullUpIndex(offset, length, &in_view);
  return views_[i].MutableSpan().subspan(in_view, length);
}

bool Buffer::CopyOut(size_t offset, std::span<uint8_t> dst) const {
  uint8_t* out = dst.data();
  return SubApply(offset, dst.size(), [&out](std::span<const uint8_t> piece) {
    std::memcpy(out, piece.data(), piece.size());
    out += piece.size();
  });
}

bool Buffer::CopyIn(size_t offset, std::span<const uint8_t> src) {
  if (!InRange(offset, src.size())) return false;
  size_t length = src.size();
  const uint8_t* in = src.data();
  for (View& v : views_) {
    if (length == 0) break;
    if (offset >= v.size()) {
      offset -= v.size();
      continue;
    }
    size_t n = std::min(v.size() - offset, length);
    std::memcpy(v.MutableSpan().data() + offset, in, n);
    in += n;
    offset = 0;
    length -= n;
  }
  return true;
}

namespace {

// kSumBatch is the number of pieces SumFrom and SumBatches gather on the
// stack for one checksum::ChecksumPieces call; PieceBatch holds them. Left
// uninitialized (a union with an empty constructor): zeroing 16 spans on every
// call cost more than gathering three.
constexpr size_t kSumBatch = 16;

union PieceBatch {
  PieceBatch() {}
  std::span<const uint8_t> at[kSumBatch];
};

}  // namespace

uint16_t Buffer::SumFrom(size_t index, size_t offset, size_t length,
                         uint16_t sum) const {
  // The common case, a range within kSumBatch views (a frame or a segment
  // is a few views), gathers the pieces and makes one ChecksumPieces call.
  // This function is a packet's per-checksum fixed cost, so it is kept
  // small: every view but the last is taken whole, without a min() in the
  // loop-carried chain, and nothing but the gathering is live across the
  // call. Longer ranges continue with SumBatches.
  PieceBatch pieces;
  const View* v = views_.data() + index;
  const size_t avail = views_.size() - index;
  const size_t max = avail < kSumBatch ? avail : kSumBatch;
  size_t skip = offset;
  size_t left = length;
  for (size_t count = 0; count < max; ++count) {
    const uint8_t* p = v[count].window_.data() + skip;
    const size_t n = v[count].window_.size() - skip;
    skip = 0;
    if (n >= left) {
      // One piece: its pointer and length stay in registers.
      if (count == 0) return checksum::Checksum(p, left, sum);
      std::construct_at(&pieces.at[count], p, left);
      return checksum::ChecksumPieces({pieces.at, count + 1}, sum);
    }
    std::construct_at(&pieces.at[count], p, n);
    left -= n;
  }
  // The range is inside the buffer, so the loop ran out of room, not of
  // views: kSumBatch whole pieces are gathered and `left` bytes follow.
  sum = checksum::ChecksumPieces({pieces.at, kSumBatch}, sum);
  const uint16_t rest = SumBatches(index + kSumBatch, 0, left, 0);
  return checksum::CombineAt(sum, rest, length - left);
}

uint16_t Buffer::SumBatches(size_t index, size_t offset, size_t length,
                            uint16_t sum) const {
  // The hot path of the send and receive checksums: the pieces of the range
  // are gathered on the stack, up to kSumBatch at a time, and each batch is one
  // checksum::ChecksumPieces call, which keeps its accumulators across the
  // pieces and folds once. No allocation. A batch that starts at an even
  // position of the range continues the running sum directly (as
  // `initial`); one at an odd position has its bytes in the other halves of
  // the 16-bit words, so its sum is placed with CombineAt, which swaps it
  // (RFC 1071 section 2(B)).
  PieceBatch pieces;
  const View* v = views_.data() + index;
  bool odd = false;
  while (length != 0) {
    size_t count = 0;
    size_t batch_length = 0;
    for (; count < kSumBatch && length != 0; ++count, ++v) {
      const size_t n = std::min(v->window_.size() - offset, length);
      std::construct_at(&pieces.at[count], v->window_.subspan(offset, n));
      batch_length += n;
      length -= n;
      offset = 0;
    }
    const std::span<const std::span<const uint8_t>> batch(pieces.at, count);
    if (!odd) {
      sum = checksum::ChecksumPieces(batch, sum);
    } else {
      sum = checksum::CombineAt(sum, checksum::ChecksumPieces(batch), 1);
    }
    odd ^= (batch_length & 1) != 0;
  }
  return sum;
}

std::optional<uint16_t> Buffer::Checksum(size_t offset, size_t length,
                                         uint16_t initial) const {
  if (!InRange(offset, length)) return std::nullopt;
  if (length == 0) return initial;
  size_t in_view;
  size_t i = Locate(offset, &in_view);
  if (in_view == 0 && offset + length == size_) {
    // Whole views to the end (a frame's payload after headers in a view of
    // their own): handed to the sum where they lie, as ChecksumAll does.
    return checksum::ChecksumPieces(&views_[i].window_, views_.size() - i,
                                    sizeof(View), initial);
  }
  return SumFrom(i, in_view, length, initial);
}

uint16_t Buffer::ChecksumViews(size_t first_view, uint16_t initial) const {
  if (first_view >= views_.size()) return initial;
  return checksum::ChecksumPieces(&views_[first_view].window_,
                                  views_.size() - first_view, sizeof(View),
                                  initial);
}

uint16_t Buffer::ChecksumAll(uint16_t initial) const {
  // The views are handed to the sum where they lie, as an array of records
  // that start with their span (checksum::ChecksumPieces, strided): no
  // gathering, so nothing is written between the views and the first load
  // of data.
  static_assert(std::is_standard_layout_v<View> && offsetof(View, window_) == 0,
                "a View must start with its span");
  if (views_.empty()) return initial;
  return checksum::ChecksumPieces(&views_.data()->window_, views_.size(),
                                  sizeof(View), initial);
}

// ---------------------------------------------------------------------------
// Pool statistics

PoolStats GetPoolStats() {
  internal::PoolCounters c = internal::ReadPoolCounters();
  PoolStats s;
  s.allocated = c.allocated;
  s.reused = c.reused;
  s.freed = c.freed;
  s.live = c.live;
  s.cached = c.cached;
  return s;
}

void ReleaseCachedChunks() { internal::DrainPool(); }

void ReservePoolChunks(size_t bytes, size_t count) {
  const int c = internal::SizeClassFor(bytes);
  if (c >= 0) internal::ReservePool(c, count);
}

}  // namespace ipsum::buffer
