// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// A packet is rarely one contiguous array. Headers are prepended in front of
// a payload that came from a socket write, a payload is split into segments,
// a received frame is trimmed layer by layer, a retransmission shares its
// bytes with the send queue. This package holds such packets without copying
// them: a Buffer is a chain of Views, each View a window onto a
// reference-counted, pooled chunk of bytes. The Internet checksum runs over
// any range of the chain, piece by piece, with no copy.
//
// Layering: buffer depends only on checksum; header and tcpip build on it.

#ifndef IPSUM_BUFFER_BUFFER_H_
#define IPSUM_BUFFER_BUFFER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "buffer/internal/chunk.h"

namespace ipsum::buffer {

// kPrependHeadroom is the headroom a chunk allocated by Buffer::Prepend
// reserves in front of the new bytes, so that the headers of the layers
// below (Ethernet 14 + IPv6 40 + TCP 60 = 114 bytes) can be prepended into
// the same chunk without another allocation.
inline constexpr size_t kPrependHeadroom = 128;

// View is a window (offset, length) onto a reference-counted chunk of bytes.
// It is a small value type (a pointer and two sizes): copying a View shares
// the chunk (one atomic increment), moving it transfers the reference, and
// destroying it drops the reference; the chunk goes back to its pool when the
// last View on it is gone.
//
// A View may read its window at any time. It may write to its chunk only
// while it holds the chunk's only reference (`!shared()`); MutableSpan makes
// that so by first copying the window into a fresh chunk (copy-on-write).
// The bytes of the chunk in front of the window are its headroom and the
// bytes behind it its tailroom; an unshared View can grow into them.
//
// A View is not synchronized: const methods may run concurrently on one View,
// a non-const one must not overlap any other call on it; Views sharing a
// chunk may live in different threads.
class View {
 public:
  // View constructs an empty view that holds no chunk.
  View() = default;

  // Allocate returns an unshared view of `size` bytes with at least
  // `headroom` bytes of headroom in front (the chunk is taken from the pool,
  // so the tailroom is whatever the size class leaves). The bytes are
  // uninitialized. Cost: one pool allocation, no copy. A size of 0 with no
  // headroom returns an empty view that holds no chunk.
  static View Allocate(size_t size, size_t headroom = 0);

  // Copy returns an unshared view holding a copy of `bytes`, with at least
  // `headroom` bytes of headroom. Cost: one pool allocation and one copy.
  static View Copy(std::span<const uint8_t> bytes, size_t headroom = 0);

  // View (copy) shares `other`'s chunk; both views are then shared. Cost: one
  // atomic increment.
  View(const View& other) : window_(other.window_), chunk_(other.chunk_) {
    if (chunk_ != nullptr) chunk_->Ref();
  }

  // View (move) takes `other`'s reference; `other` is left empty.
  View(View&& other) noexcept
      : window_(std::exchange(other.window_, {})),
        chunk_(std::exchange(other.chunk_, nullptr)) {}

  // operator= (copy) drops this view's reference and shares `other`'s chunk.
  View& operator=(const View& other) {
    View copy(other);
    return *this = std::move(copy);
  }

  // operator= (move) drops this view's reference and takes `other`'s;
  // `other` is left empty.
  View& operator=(View&& other) noexcept {
    if (this != &other) {
      if (chunk_ != nullptr) chunk_->Unref();
      window_ = std::exchange(other.window_, {});
      chunk_ = std::exchange(other.chunk_, nullptr);
    }
    return *this;
  }

  // ~View drops the reference; the last one returns the chunk to the pool.
  ~View() {
    if (chunk_ != nullptr) chunk_->Unref();
  }

  // size returns the length of the window in bytes.
  size_t size() const { return window_.size(); }

  // empty reports whether the window is empty.
  bool empty() const { return window_.empty(); }

  // data returns the first byte of the window (null for a view with no
  // chunk). Valid while this view holds its chunk.
  const uint8_t* data() const { return window_.data(); }

  // span returns the window as read-only bytes. Valid while this view holds
  // its chunk (until it is destroyed, assigned or written through).
  std::span<const uint8_t> span() const { return window_; }

  // shared reports whether another View (in any thread) holds the same
  // chunk, in which case writes go through a copy.
  bool shared() const { return chunk_ != nullptr && !chunk_->unique(); }

  // SharesChunkWith reports whether `other` is a window onto the same chunk.
  bool SharesChunkWith(const View& other) const {
    return chunk_ != nullptr && chunk_ == other.chunk_;
  }

  // headroom returns the number of chunk bytes in front of the window.
  size_t headroom() const { return offset(); }

  // tailroom returns the number of chunk bytes behind the window.
  size_t tailroom() const {
    return chunk_ == nullptr ? 0 : chunk_->capacity() - offset() - size();
  }

  // MutableSpan returns the window as writable bytes. If the chunk is shared
  // it first copies the window (and up to kPrependHeadroom bytes of headroom
  // space, uninitialized) into a fresh chunk and drops the shared one, so
  // other views never see the writes (copy-on-write). Cost: none when
  // unshared, otherwise one allocation and a copy of size() bytes. The span
  // is valid until this view is next modified.
  std::span<uint8_t> MutableSpan();

  // TrimFront removes the first `n` bytes from the window (they become
  // headroom) and returns true; if `n > size()` it returns false and leaves
  // the view unchanged. O(1).
  bool TrimFront(size_t n) {
    if (n > size()) return false;
    window_ = window_.subspan(n);
    return true;
  }

  // Truncate keeps the first `n` bytes of the window (the rest become
  // tailroom) and returns true; if `n > size()` it returns false and leaves
  // the view unchanged. O(1).
  bool Truncate(size_t n) {
    if (n > size()) return false;
    window_ = window_.first(n);
    return true;
  }

  // GrowFront extends the window `n` bytes into its headroom and returns
  // true, if the view is unshared and has that much headroom; otherwise it
  // returns false and leaves the view unchanged. The new bytes hold whatever
  // the chunk held there. O(1).
  bool GrowFront(size_t n) {
    if (n > offset() || shared()) return false;
    window_ = {window_.data() - n, window_.size() + n};
    return true;
  }

  // GrowBack extends the window `n` bytes into its tailroom and returns true,
  // if the view is unshared and has that much tailroom; otherwise it returns
  // false and leaves the view unchanged. O(1).
  bool GrowBack(size_t n) {
    if (n > tailroom() || shared()) return false;
    window_ = {window_.data(), window_.size() + n};
    return true;
  }

 private:
  friend class Buffer;

  View(internal::Chunk* chunk, size_t offset, size_t length)
      : window_(chunk->data() + offset, length), chunk_(chunk) {}

  // offset returns where the window starts in the chunk (its headroom).
  size_t offset() const {
    return chunk_ == nullptr ? 0 : window_.data() - chunk_->data();
  }

  // mutable_data returns the window's first byte for writing. Only for a
  // view known to be unshared (the bytes are the chunk's, which this view
  // may write once it holds the only reference).
  uint8_t* mutable_data() { return const_cast<uint8_t*>(window_.data()); }

  // window_ is the view's bytes, first so that an array of Views is an
  // array of spans at a stride of sizeof(View): Buffer hands its views to
  // checksum::ChecksumPieces that way, without gathering them. Empty (with
  // a null data pointer) for a view that holds no chunk.
  std::span<const uint8_t> window_;
  internal::Chunk* chunk_ = nullptr;
};

// Buffer is a packet: an ordered chain of Views whose windows, concatenated,
// are its bytes.
//
// Design. The chain is a small inline vector of Views (four live inside the
// Buffer; more spill to the heap), so a packet of a few fragments costs no
// allocation besides its chunks. Every structural operation (append,
// prepend, trim, truncate, split, clone, merge) moves or copies Views, never
// bytes, and costs O(1) or O(number of views); only DeepClone, PullUp,
// CopyIn/CopyOut, Flatten and the byte-appending forms of Append/Prepend copy
// bytes, and each says so. Like Seastar's `net::packet`, a chunk may have
// headroom in front of its window: `Prepend(n)` writes a header into the
// first view's headroom when its chunk is unshared, and otherwise allocates a
// chunk with kPrependHeadroom bytes of headroom so the next layer's header
// fits in front of this one. Like gVisor's `buffer.Buffer`, chunks are
// reference counted, pooled by size class, and copy-on-write: Clone and
// Split share chunks, and a write through a shared chunk (CopyIn,
// PullUpMutable, View::MutableSpan) first copies the affected view.
//
//   chunk:   [ headroom | window of view 0 | tailroom ]
//   chunk:               [ window of view 1 ]  ...
//   Buffer:  view 0 bytes ++ view 1 bytes ++ ...  = size() bytes
//
// Invariants: no view in the chain is empty, and two neighbouring views that
// are adjacent windows of the same chunk are merged into one.
//
// Errors. A range that does not lie inside the buffer is ordinary input on
// a data path, not a broken invariant: every method taking an offset or a
// length reports it with a `false` or `std::nullopt` result (one kind of
// error only, so no error enum), leaves the buffer unchanged, and never
// reads or writes outside it.
//
// Thread safety: like std::vector, const methods may run concurrently on one
// Buffer (several threads cloning one send queue, say), but a non-const call
// must not overlap any other call on the same Buffer. Different Buffers
// sharing chunks (clones, split halves, copied Views) may be used, written
// (copy-on-write) and destroyed freely in different threads: the reference
// counts are atomic and the pool is locked.
class Buffer {
 public:
  // Buffer constructs an empty buffer.
  Buffer() = default;

  // Buffer takes (when moved in) or shares (when copied in) view `v`.
  explicit Buffer(View v) { Append(std::move(v)); }

  // Copy returns a buffer holding a copy of `bytes` in one chunk with at
  // least `headroom` bytes of headroom for headers prepended later. Cost:
  // one allocation and one copy.
  static Buffer Copy(std::span<const uint8_t> bytes, size_t headroom = 0);

  // Buffer (move) takes `other`'s views; `other` is left empty. O(views):
  // views stored inline are moved one by one.
  Buffer(Buffer&& other) noexcept
      : views_(std::move(other.views_)), size_(std::exchange(other.size_, 0)) {
    other.views_.clear();
  }

  // operator= (move) drops this buffer's views and takes `other`'s; `other`
  // is left empty.
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      views_ = std::move(other.views_);
      other.views_.clear();
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  // Copying is explicit: Clone shares the chunks, DeepClone copies bytes.
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // size returns the number of bytes in the buffer. O(1).
  size_t size() const { return size_; }

  // empty reports whether the buffer holds no bytes. O(1).
  bool empty() const { return size_ == 0; }

  // view_count returns the number of views in the chain. O(1).
  size_t view_count() const { return views_.size(); }

  // views returns the chain, first view first; every view is non-empty.
  // Valid until the buffer is next modified.
  std::span<const View> views() const { return {views_.data(), views_.size()}; }

  // begin and end iterate over the views of the chain.
  const View* begin() const { return views_.data(); }
  const View* end() const { return views_.data() + views_.size(); }

  // Clear drops every view. O(views).
  void Clear() {
    views_.clear();
    size_ = 0;
  }

  // Append adds view `v` at the end: the buffer takes the reference if `v`
  // is moved in, or shares the chunk if it is copied. An empty view is
  // dropped; a view adjacent to the last one in the same chunk is merged
  // into it. O(1) amortized, no byte copied.
  void Append(View v);

  // Append adds `other`'s views at the end and leaves `other` empty: the
  // references move, no chunk is shared anew. O(other's views), no byte
  // copied. Appending a buffer to itself doubles it (sharing its chunks).
  void Append(Buffer&& other);

  // Append adds views sharing `other`'s chunks at the end; both buffers then
  // see the same (copy-on-write) chunks. O(other's views), no byte copied.
  void Append(const Buffer& other);

  // Append copies `bytes` to the end of the buffer, into the last view's
  // tailroom when its chunk is unshared and has room, otherwise into a new
  // chunk (which, if the buffer was empty, also reserves kPrependHeadroom
  // bytes of headroom for the headers to come). `bytes` may point into this
  // buffer. Cost: one copy, at most one allocation.
  void Append(std::span<const uint8_t> bytes);

  // AppendAndChecksum is Append(bytes) that also returns the Internet
  // checksum of `bytes` (as checksum::Checksum(bytes, initial)), computed
  // while copying with checksum::CopyAndChecksum: a send path copying a
  // socket write into the buffer gets the payload's sum for the price of the
  // copy. `bytes` must not point into this buffer. Cost: one fused copy and
  // sum, at most one allocation.
  uint16_t AppendAndChecksum(std::span<const uint8_t> bytes,
                             uint16_t initial = 0);

  // Append grows the buffer by `n` bytes at the end and returns them for
  // writing (uninitialized), in the last view's tailroom when its chunk is
  // unshared and has room, otherwise in a new chunk (with kPrependHeadroom
  // bytes of headroom if the buffer was empty). The span is valid until
  // the buffer is next modified. Cost: no copy, at most one allocation.
  std::span<uint8_t> Append(size_t n);

  // Prepend adds view `v` at the front (taken if moved in, shared if copied
  // in). An empty view is dropped; a view adjacent to the first one in the
  // same chunk is merged into it. O(views), no byte copied.
  void Prepend(View v);

  // Prepend adds `other`'s views at the front and leaves `other` empty.
  // O(views of both), no byte copied.
  void Prepend(Buffer&& other);

  // Prepend adds views sharing `other`'s chunks at the front. O(views of
  // both), no byte copied.
  void Prepend(const Buffer& other);

  // Prepend copies `bytes` in front of the buffer, as Prepend(n) then a copy.
  // `bytes` may point into this buffer. Cost: one copy, at most one
  // allocation.
  void Prepend(std::span<const uint8_t> bytes);

  // Prepend grows the buffer by `n` bytes at the front and returns them for
  // writing (uninitialized): in the first view's headroom when its chunk is
  // unshared and has room (O(1), no allocation), otherwise at the end of a
  // new chunk that keeps at least kPrependHeadroom bytes of headroom in front
  // (one allocation, O(views)). The span is valid until the buffer is next
  // modified.
  std::span<uint8_t> Prepend(size_t n);

  // TrimFront removes the first `n` bytes and returns true; the views that
  // held them are dropped (their references released) or shortened. If
  // `n > size()` it returns false and leaves the buffer unchanged. O(views),
  // no byte copied; inline and O(1) when the bytes are fewer than the first
  // view holds (a packet's headers off the front of its first view), and
  // without the general walk when they are exactly the first of several
  // views (a packet's headers in a view of their own).
  bool TrimFront(size_t n) {
    if (!views_.empty() && n < views_.front().size()) {
      views_.front().TrimFront(n);
      size_ -= n;
      return true;
    }
    return TrimFrontViews(n);
  }

  // Truncate keeps the first `n` bytes and returns true; if `n > size()` it
  // returns false and leaves the buffer unchanged. O(views), no byte copied.
  bool Truncate(size_t n);

  // Split keeps bytes [0, offset) in this buffer and returns a buffer
  // holding bytes [offset, size()); a view straddling `offset` becomes two
  // views sharing its chunk. Returns nullopt, leaving the buffer unchanged,
  // if `offset > size()`. O(views), no byte copied.
  std::optional<Buffer> Split(size_t offset);

  // Clone returns a buffer sharing all of this buffer's chunks (both then
  // copy-on-write). O(views), no byte copied.
  Buffer Clone() const;

  // CloneRange returns a buffer sharing bytes [offset, offset + length) of
  // this one: the views the range touches, trimmed to it (a TCP segment cut
  // from the send queue). Returns nullopt if the range is not inside the
  // buffer. O(views), and only the views in the range are shared, no byte
  // copied.
  std::optional<Buffer> CloneRange(size_t offset, size_t length) const;

  // DeepClone returns a buffer holding a copy of the bytes in one new,
  // unshared chunk. Cost: one allocation and one copy of size() bytes.
  Buffer DeepClone() const;

  // PullUp returns bytes [offset, offset + length) as one contiguous,
  // read-only span. If the range already lies inside one view, nothing is
  // copied; otherwise the views the range touches (and only those) are
  // replaced by one new view holding their bytes (one allocation, a copy of
  // those views). The span stays valid until the buffer is next modified.
  // Returns nullopt, leaving the buffer unchanged, if the range is not
  // inside the buffer. A zero length returns an empty span.
  std::optional<std::span<const uint8_t>> PullUp(size_t offset, size_t length);

  // PullUpMutable is PullUp for writing: it also makes the view holding the
  // range unshared, copying it first if its chunk is shared (copy-on-write).
  std::optional<std::span<uint8_t>> PullUpMutable(size_t offset, size_t length);

  // SubApply calls `fn(std::span<const uint8_t>)` with each contiguous,
  // non-empty piece of bytes [offset, offset + length), in order, and
  // returns true; if the range is not inside the buffer it calls nothing and
  // returns false. `fn` must not modify the buffer. O(views), no copy.
  template <typename Fn>
  bool SubApply(size_t offset, size_t length, Fn&& fn) const {
    if (!InRange(offset, length)) return false;
    for (const View& v : views_) {
      if (length == 0) break;
      if (offset >= v.size()) {
        offset -= v.size();
        continue;
      }
      size_t n = std::min(v.size() - offset, length);
      fn(std::span<const uint8_t>(v.data() + offset, n));
      offset = 0;
      length -= n;
    }
    return true;
  }

  // CopyOut copies bytes [offset, offset + dst.size()) into `dst` and
  // returns true; if the range is not inside the buffer it copies nothing
  // and returns false. Cost: one copy.
  bool CopyOut(size_t offset, std::span<uint8_t> dst) const;

  // CopyIn overwrites bytes [offset, offset + src.size()) with `src` and
  // returns true; each view it writes to is first made unshared (copying
  // that view if its chunk is shared, so clones keep the old bytes). If the
  // range is not inside the buffer it writes nothing and returns false.
  // `src` must not overlap the buffer's bytes. Cost: one copy, plus one per
  // shared view touched.
  bool CopyIn(size_t offset, std::span<const uint8_t> src);

  // Checksum returns the Internet checksum (checksum::Checksum: folded, not
  // complemented) of bytes [offset, offset + length) added to `initial`, or
  // nullopt if the range is not inside the buffer (std::optional rather
  // than an error enum: "out of range" is the only failure, and the data
  // path must not allocate a Status). The contiguous pieces are summed
  // together by checksum::ChecksumPieces, up to 16 per call (batches are
  // joined with checksum::CombineAt), so views of any length and alignment
  // give the sum of the concatenated bytes at little more than the cost of
  // one contiguous sum. O(views) plus the sums, no copy, no allocation.
  std::optional<uint16_t> Checksum(size_t offset, size_t length,
                                   uint16_t initial = 0) const;

  // ChecksumAll returns the Internet checksum of the whole buffer added to
  // `initial`: Checksum(0, size(), initial), which cannot fail. Faster than
  // a range: the views are handed to checksum::ChecksumPieces where they
  // lie, one call whatever their number, with no gathering.
  uint16_t ChecksumAll(uint16_t initial = 0) const;

  // ChecksumViews returns the Internet checksum of views [first_view,
  // view_count()) added to `initial`, as if they were one range: for a
  // frame whose headers lie in views of their own (a header-splitting
  // NIC), the payload's views, as ChecksumAll sums them and without
  // Checksum's search for an offset. The first of them counts as starting
  // at an even offset, so the sum combines with the earlier views' by
  // checksum::CombineAt at their total length (or as `initial` when that is
  // even). `initial` when first_view >= view_count().
  uint16_t ChecksumViews(size_t first_view, uint16_t initial = 0) const;

  // Prefetch asks the CPU to start bringing the buffer's first `max_bytes`
  // bytes (all of them if fewer) into its caches, one hint per 64-byte
  // line, and returns at once: no fault, no change to anything. For a reader
  // that has other work to do first, such as a receive path that decodes
  // the headers before it sums the payload of a frame the NIC wrote to
  // memory: the payload's lines then arrive while the headers are decoded,
  // not one dependent miss after the other. O(views + max_bytes / 64).
  //
  // One hint per line from the line that holds a view's first byte to the
  // one that holds its last (or the last of the `max_bytes`): the loop
  // steps a line address, so the view's last line gets its hint whatever the
  // offsets of its first and last bytes within their lines.
  void Prefetch(size_t max_bytes) const {
    for (const View& v : views_) {
      const size_t n = v.size() < max_bytes ? v.size() : max_bytes;
      // Addresses as integers: the first byte's line may start before the
      // view, and it is that line that is hinted, so that the last byte's
      // line is reached even when the view does not start on a line.
      const uintptr_t end = reinterpret_cast<uintptr_t>(v.data()) + n;
      uintptr_t q = reinterpret_cast<uintptr_t>(v.data()) & ~uintptr_t{63};
      for (; q < end; q += 64) {
        __builtin_prefetch(reinterpret_cast<const void*>(q));
        // GCC 12 deleted the whole loop, a loop of hints being free of
        // side effects to it; this empty statement it must keep.
        __asm__ volatile("" : : "r"(q));
      }
      max_bytes -= n;
      if (max_bytes == 0) return;
    }
  }

  // Flatten returns a copy of the bytes in one vector. Cost: one allocation
  // and one copy; for tests and slow paths.
  std::vector<uint8_t> Flatten() const;

 private:
  // InRange reports whether [offset, offset + length) lies in the buffer.
  bool InRange(size_t offset, size_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }

  // Locate returns the index of the view holding byte `offset` (which must
  // be < size()) and sets `*in_view` to the byte's offset in that view.
  size_t Locate(size_t offset, size_t* in_view) const;

  // SumFrom returns `sum` plus the checksum of `length` bytes (inside the
  // buffer) starting at byte `offset` of view `index`.
  uint16_t SumFrom(size_t index, size_t offset, size_t length,
                   uint16_t sum) const;

  // SumBatches is SumFrom for a range over more views than SumFrom gathers
  // at once (16): one ChecksumPieces call per 16 pieces.
  uint16_t SumBatches(size_t index, size_t offset, size_t length,
                      uint16_t sum) const;

  // SplitInto moves bytes [offset, size()) (offset <= size()) to the empty
  // buffer `tail`.
  void SplitInto(size_t offset, Buffer& tail);

  // PullUpIndex makes [offset, offset + length) (inside the buffer, length
  // > 0) contiguous and returns the index of the view holding it, setting
  // `*in_view` to the range's offset in that view.
  size_t PullUpIndex(size_t offset, size_t length, size_t* in_view);

  // TrimFrontViews is TrimFront when the bytes are not fewer than the first
  // view holds: on its own when they are exactly the first of several views
  // (a frame's headers in a buffer of their own), else by TrimFrontWalk.
  bool TrimFrontViews(size_t n);

  // TrimFrontWalk is TrimFrontViews in every other case. Out of line, so
  // that the first case does not pay for the walk's registers and frame.
  [[gnu::noinline]] bool TrimFrontWalk(size_t n);

  absl::InlinedVector<View, 4> views_;
  size_t size_ = 0;
};

// PoolStats are the chunk pool's running totals, summed over size classes.
// `live` counts chunks held by views anywhere; it returns to its previous
// value when every view taken since is gone.
struct PoolStats {
  uint64_t allocated = 0;  // Chunks obtained from the allocator.
  uint64_t reused = 0;     // Chunks handed out again from a free list.
  uint64_t freed = 0;      // Chunks returned to the allocator.
  uint64_t live = 0;       // Chunks held by views now.
  uint64_t cached = 0;     // Chunks waiting on the free lists now.
};

// GetPoolStats returns a snapshot of the chunk pool's counters, including
// every thread's cache. It takes each lock of the pool in turn; for
// monitoring and tests. Exact when no other thread is taking or releasing
// chunks, approximate otherwise.
PoolStats GetPoolStats();

// ReleaseCachedChunks returns every chunk cached on the global free lists
// and in the calling thread's cache to the allocator (for memory pressure,
// and tests). Other threads' small caches are emptied when they exit.
void ReleaseCachedChunks();

// ReservePoolChunks makes the pool keep up to `count` released chunks of
// the size class that holds `bytes` bytes, where by default it keeps about
// 1 MiB of a class and at most 512 chunks: past that bound a released chunk
// goes back to the allocator (operator delete), and the next one of its
// class comes from the allocator again. It never lowers the bound, allocates
// nothing, and ignores sizes above 64 KiB, which are not pooled;
// ReleaseCachedChunks still empties the lists. For a driver that sizes its
// buffers to its ring, as DPDK's mempools are sized: behind a
// header-splitting NIC each frame's headers arrive in a chunk of their own,
// and one receive pass over a ring of N frames releases N such chunks
// before the driver refills the ring. Control path: takes the class's lock.
void ReservePoolChunks(size_t bytes, size_t count);

}  // namespace ipsum::buffer

#endif  // IPSUM_BUFFER_BUFFER_H_
