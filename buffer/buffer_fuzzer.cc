// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Model-based fuzzing of buffer::Buffer. The input is a program: each
// operation is one opcode byte followed by its operands. It runs on four
// Buffer slots that share chunks (clones, splits, views copied from one to
// another) and, in parallel, on four std::vector<uint8_t> models. After every
// operation each buffer must hold exactly its model's bytes, keep its
// invariants (size() is the sum of its views, no view empty) and every
// ranged read (Checksum, PullUp, CopyOut, SubApply) must return the model's
// answer, or reject the range exactly when it lies outside the model. Ranges
// include huge lengths and offsets, so overflow in range checks shows up.
// When every buffer is gone the chunk pool's `live` count must be back where
// it started: no reference leaked or dropped twice.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "buffer/buffer.h"
#include "testing/fuzz/fuzz_util.h"

namespace ipsum::buffer {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr size_t kSlots = 4;
// kMaxSize caps each buffer, so that doubling by self-append stays cheap.
constexpr size_t kMaxSize = 1 << 16;

// RefSum is the Internet checksum of model bytes [offset, offset + length)
// added to `initial`, byte by byte: folded, not complemented.
uint16_t RefSum(const Bytes& b, size_t offset, size_t length,
                uint16_t initial) {
  uint64_t sum = initial;
  for (size_t i = 0; i < length; ++i) {
    sum += (i % 2 == 0) ? uint64_t{b[offset + i]} << 8 : b[offset + i];
  }
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

bool InModel(const Bytes& m, size_t offset, size_t length) {
  return offset <= m.size() && length <= m.size() - offset;
}

// Machine runs one program.
class Machine {
 public:
  explicit Machine(fuzz::Reader& in) : in_(in) {}

  void Run() {
    while (!in_.empty()) {
      Step();
      // Every slot's bytes (a write leaking into a clone shows anywhere);
      // the whole-buffer checksum of the slot the step worked on.
      for (size_t i = 0; i < kSlots; ++i) CheckSlot(i, i == last_);
    }
  }

 private:
  size_t Slot() { return in_.U8() % kSlots; }

  // Count reads a byte count near the sizes that matter: small, around the
  // chunk size classes, or relative to `size` (just inside or outside).
  size_t Count(size_t size) {
    const uint8_t mode = in_.U8();
    switch (mode % 8) {
      case 0:
        return mode >> 3;  // 0..31
      case 1:
        return in_.U8();
      case 2:
        return in_.U16() % 4096;
      case 3:
        return size;
      case 4:
        return size + 1 + (mode >> 3);
      case 5:
        return size >= (mode >> 3) ? size - (mode >> 3) : 0;
      case 6:
        return SIZE_MAX - (mode >> 3);
      default:
        return size == 0 ? 0 : in_.U16() % size;
    }
  }

  // Fill reads `n` bytes of content: from the input while it lasts, then a
  // counter pattern.
  Bytes Fill(size_t n) {
    Bytes out(n);
    auto src = in_.Bytes(std::min<size_t>(n, 64));
    for (size_t i = 0; i < n; ++i) {
      out[i] = i < src.size() ? src[i] : static_cast<uint8_t>(i * 7 + n);
    }
    return out;
  }

  // Length reads a content length for a write (bounded).
  size_t Length() { return Count(0) % 3000; }

  void Step() {
    const uint8_t op = in_.U8();
    const size_t a = Slot();
    last_ = a;
    Buffer& b = buf_[a];
    Bytes& m = model_[a];
    switch (op % 24) {
      case 0: {  // Append(span) copies.
        Bytes bytes = Fill(Length());
        if (m.size() + bytes.size() > kMaxSize) break;
        b.Append(std::span<const uint8_t>(bytes));
        m.insert(m.end(), bytes.begin(), bytes.end());
        break;
      }
      case 1: {  // Append(n) grows, then the caller writes.
        Bytes bytes = Fill(Length());
        if (m.size() + bytes.size() > kMaxSize) break;
        std::span<uint8_t> room = b.Append(bytes.size());
        IPSUM_FUZZ_CHECK(room.size() == bytes.size());
        if (!bytes.empty())
          std::memcpy(room.data(), bytes.data(), bytes.size());
        m.insert(m.end(), bytes.begin(), bytes.end());
        break;
      }
      case 2: {  // Prepend(span) copies.
        Bytes bytes = Fill(Length());
        if (m.size() + bytes.size() > kMaxSize) break;
        b.Prepend(std::span<const uint8_t>(bytes));
        m.insert(m.begin(), bytes.begin(), bytes.end());
        break;
      }
      case 3: {  // Prepend(n) grows into headroom or a new chunk.
        Bytes bytes = Fill(Length());
        if (m.size() + bytes.size() > kMaxSize) break;
        std::span<uint8_t> room = b.Prepend(bytes.size());
        IPSUM_FUZZ_CHECK(room.size() == bytes.size());
        if (!bytes.empty())
          std::memcpy(room.data(), bytes.data(), bytes.size());
        m.insert(m.begin(), bytes.begin(), bytes.end());
        break;
      }
      case 4: {  // TrimFront.
        const size_t n = Count(m.size());
        const bool ok = b.TrimFront(n);
        IPSUM_FUZZ_CHECK(ok == (n <= m.size()));
        if (ok) m.erase(m.begin(), m.begin() + n);
        break;
      }
      case 5: {  // Truncate.
        const size_t n = Count(m.size());
        const bool ok = b.Truncate(n);
        IPSUM_FUZZ_CHECK(ok == (n <= m.size()));
        if (ok) m.resize(n);
        break;
      }
      case 6: {  // Split into another slot.
        const size_t c = Slot();
        const size_t n = Count(m.size());
        std::optional<Buffer> tail = b.Split(n);
        IPSUM_FUZZ_CHECK(tail.has_value() == (n <= m.size()));
        if (!tail) break;
        Bytes rest(m.begin() + n, m.end());
        m.resize(n);
        buf_[c] = std::move(*tail);
        model_[c] = std::move(rest);
        break;
      }
      case 7: {  // Clone into another slot (or itself).
        const size_t c = Slot();
        Buffer clone = b.Clone();
        buf_[c] = std::move(clone);
        model_[c] = model_[a];
        break;
      }
      case 8: {  // DeepClone into another slot.
        const size_t c = Slot();
        Buffer clone = b.DeepClone();
        IPSUM_FUZZ_CHECK(clone.view_count() <= 1);
        buf_[c] = std::move(clone);
        model_[c] = model_[a];
        break;
      }
      case 9: {  // Append(Buffer&&), possibly itself.
        const size_t c = Slot();
        if (model_[a].size() + model_[c].size() > kMaxSize) break;
        Bytes other = model_[c];
        b.Append(std::move(buf_[c]));
        m.insert(m.end(), other.begin(), other.end());
        if (c != a) model_[c].clear();
        break;
      }
      case 10: {  // Append(const Buffer&), possibly itself.
        const size_t c = Slot();
        if (model_[a].size() + model_[c].size() > kMaxSize) break;
        Bytes other = model_[c];
        b.Append(static_cast<const Buffer&>(buf_[c]));
        m.insert(m.end(), other.begin(), other.end());
        break;
      }
      case 11: {  // Prepend(Buffer&&), possibly itself.
        const size_t c = Slot();
        if (model_[a].size() + model_[c].size() > kMaxSize) break;
        Bytes other = model_[c];
        b.Prepend(std::move(buf_[c]));
        m.insert(m.begin(), other.begin(), other.end());
        if (c != a) model_[c].clear();
        break;
      }
      case 12: {  // Prepend(const Buffer&), possibly itself.
        const size_t c = Slot();
        if (model_[a].size() + model_[c].size() > kMaxSize) break;
        Bytes other = model_[c];
        b.Prepend(static_cast<const Buffer&>(buf_[c]));
        m.insert(m.begin(), other.begin(), other.end());
        break;
      }
      case 13: {  // PullUp.
        const size_t off = Count(m.size());
        const size_t len = Count(m.size() - std::min(off, m.size()));
        auto got = b.PullUp(off, len);
        IPSUM_FUZZ_CHECK(got.has_value() == InModel(m, off, len));
        if (got) {
          IPSUM_FUZZ_CHECK(got->size() == len);
          IPSUM_FUZZ_CHECK(len == 0 ||
                           std::memcmp(got->data(), m.data() + off, len) == 0);
        }
        break;
      }
      case 14: {  // PullUpMutable, then write through the span.
        const size_t off = Count(m.size());
        const size_t len = Count(m.size() - std::min(off, m.size()));
        auto got = b.PullUpMutable(off, len);
        IPSUM_FUZZ_CHECK(got.has_value() == InModel(m, off, len));
        if (got) {
          IPSUM_FUZZ_CHECK(got->size() == len);
          IPSUM_FUZZ_CHECK(len == 0 ||
                           std::memcmp(got->data(), m.data() + off, len) == 0);
          const uint8_t x = in_.U8();
          for (size_t i = 0; i < len; ++i) {
            (*got)[i] ^= x;
            m[off + i] ^= x;
          }
        }
        break;
      }
      case 15: {  // CopyIn.
        const size_t off = Count(m.size());
        Bytes bytes = Fill(Count(m.size() - std::min(off, m.size())) % 4096);
        const bool ok = b.CopyIn(off, bytes);
        IPSUM_FUZZ_CHECK(ok == InModel(m, off, bytes.size()));
        if (ok) std::copy(bytes.begin(), bytes.end(), m.begin() + off);
        break;
      }
      case 16: {  // CopyOut.
        const size_t off = Count(m.size());
        const size_t len =
            Count(m.size() - std::min(off, m.size())) % (kMaxSize + 8);
        Bytes out(len, 0xee);
        const bool ok = b.CopyOut(off, out);
        IPSUM_FUZZ_CHECK(ok == InModel(m, off, len));
        if (ok) {
          IPSUM_FUZZ_CHECK(std::equal(out.begin(), out.end(), m.begin() + off));
        } else {
          for (uint8_t x : out) IPSUM_FUZZ_CHECK(x == 0xee);
        }
        break;
      }
      case 17: {  // Checksum over a range.
        const size_t off = Count(m.size());
        const size_t len = Count(m.size() - std::min(off, m.size()));
        const uint16_t initial = in_.U16();
        auto got = b.Checksum(off, len, initial);
        IPSUM_FUZZ_CHECK(got.has_value() == InModel(m, off, len));
        if (got) IPSUM_FUZZ_CHECK(*got == RefSum(m, off, len, initial));
        break;
      }
      case 18: {  // SubApply over a range.
        const size_t off = Count(m.size());
        const size_t len = Count(m.size() - std::min(off, m.size()));
        Bytes seen;
        const bool ok = b.SubApply(off, len, [&](std::span<const uint8_t> s) {
          IPSUM_FUZZ_CHECK(!s.empty());
          seen.insert(seen.end(), s.begin(), s.end());
        });
        IPSUM_FUZZ_CHECK(ok == InModel(m, off, len));
        if (ok) {
          IPSUM_FUZZ_CHECK(seen.size() == len);
          IPSUM_FUZZ_CHECK(
              std::equal(seen.begin(), seen.end(), m.begin() + off));
        } else {
          IPSUM_FUZZ_CHECK(seen.empty());
        }
        break;
      }
      case 19: {  // Append or prepend a view of another slot (shared chunk).
        const size_t c = Slot();
        const bool front = in_.Bool();
        if (buf_[c].view_count() == 0) break;
        const size_t i = in_.U8() % buf_[c].view_count();
        View v = buf_[c].views()[i];  // Shares the chunk.
        Bytes bytes(v.span().begin(), v.span().end());
        if (m.size() + bytes.size() > kMaxSize) break;
        // Also exercise the view's own trims (on the copy only).
        const size_t trim = in_.U8();
        if (v.TrimFront(trim)) bytes.erase(bytes.begin(), bytes.begin() + trim);
        IPSUM_FUZZ_CHECK(v.size() == bytes.size());
        IPSUM_FUZZ_CHECK(!v.GrowFront(1) || !v.shared());
        if (v.shared()) IPSUM_FUZZ_CHECK(!v.GrowBack(1));
        bytes.assign(v.span().begin(), v.span().end());
        if (front) {
          b.Prepend(std::move(v));
          m.insert(m.begin(), bytes.begin(), bytes.end());
        } else {
          b.Append(std::move(v));
          m.insert(m.end(), bytes.begin(), bytes.end());
        }
        break;
      }
      case 20: {  // Append or prepend a fresh View::Copy with headroom.
        Bytes bytes = Fill(Length());
        const size_t headroom = in_.U8();
        if (m.size() + bytes.size() > kMaxSize) break;
        View v = View::Copy(bytes, headroom);
        IPSUM_FUZZ_CHECK(v.headroom() >= headroom || bytes.empty());
        IPSUM_FUZZ_CHECK(!v.shared());
        if (in_.Bool()) {
          b.Prepend(std::move(v));
          m.insert(m.begin(), bytes.begin(), bytes.end());
        } else {
          b.Append(std::move(v));
          m.insert(m.end(), bytes.begin(), bytes.end());
        }
        break;
      }
      case 21: {  // Append/Prepend(span) of bytes inside this very buffer.
        if (m.empty()) break;
        const size_t off = in_.U16() % m.size();
        const size_t len =
            std::min<size_t>(in_.U16() % m.size(), m.size() - off);
        if (m.size() + len > kMaxSize) break;
        auto piece = b.PullUp(off, len);
        IPSUM_FUZZ_CHECK(piece.has_value());
        Bytes bytes(m.begin() + off, m.begin() + off + len);
        if (in_.Bool()) {
          b.Prepend(*piece);
          m.insert(m.begin(), bytes.begin(), bytes.end());
        } else {
          b.Append(*piece);
          m.insert(m.end(), bytes.begin(), bytes.end());
        }
        break;
      }
      case 22: {  // Mutate the first view through View::MutableSpan.
        // A view copied out of the buffer, written, and put back in place
        // of the bytes it covered; its clones must not see the write.
        if (b.view_count() == 0) break;
        View v = b.views()[0];
        const size_t n = v.size();
        std::span<uint8_t> bytes = v.MutableSpan();
        IPSUM_FUZZ_CHECK(bytes.size() == n);
        IPSUM_FUZZ_CHECK(!v.shared());
        const uint8_t x = in_.U8();
        for (auto& byte : bytes) byte ^= x;
        IPSUM_FUZZ_CHECK(b.TrimFront(n));
        b.Prepend(std::move(v));
        for (size_t i = 0; i < n; ++i) m[i] ^= x;
        break;
      }
      default:  // Clear, or move one slot onto another.
        if (in_.Bool()) {
          b.Clear();
          m.clear();
        } else {
          const size_t c = Slot();
          if (c == a) break;
          buf_[c] = std::move(b);
          model_[c] = std::move(m);
          m.clear();
          IPSUM_FUZZ_CHECK(b.empty() && b.view_count() == 0);
        }
        break;
    }
  }

  void CheckSlot(size_t i, bool sum) {
    const Buffer& b = buf_[i];
    const Bytes& m = model_[i];
    IPSUM_FUZZ_CHECK(b.size() == m.size());
    IPSUM_FUZZ_CHECK(b.empty() == m.empty());
    size_t total = 0;
    for (const View& v : b) {
      IPSUM_FUZZ_CHECK(!v.empty());
      IPSUM_FUZZ_CHECK(std::memcmp(v.data(), m.data() + total, v.size()) == 0);
      total += v.size();
    }
    IPSUM_FUZZ_CHECK(total == m.size());
    if (sum) {
      IPSUM_FUZZ_CHECK(b.ChecksumAll(0x1234) == RefSum(m, 0, m.size(), 0x1234));
    }
    IPSUM_FUZZ_CHECK(!b.Checksum(m.size() + 1, 0).has_value());
    IPSUM_FUZZ_CHECK(!b.Checksum(1, SIZE_MAX).has_value());
  }

  fuzz::Reader& in_;
  std::array<Buffer, kSlots> buf_;
  std::array<Bytes, kSlots> model_;
  // last_ is the slot the last step worked on.
  size_t last_ = 0;
};

}  // namespace
}  // namespace ipsum::buffer

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::buffer;
  const uint64_t live_before = GetPoolStats().live;
  {
    ipsum::fuzz::Reader in({data, size});
    Machine machine(in);
    machine.Run();
  }
  IPSUM_FUZZ_CHECK(GetPoolStats().live == live_before);
  return 0;
}
