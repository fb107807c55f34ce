// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Fuzzes the receive path: a raw frame, cut into a chain of views, with
// random offload state and metadata. The input is
//
//   control (1 byte) | csum_start (2 bytes) | csum (2 bytes) | frame
//
// where control's bit 0 picks the link (Ethernet or bare IP), bits 1-2 the
// offload state of the random-metadata run (NONE, UNNECESSARY, COMPLETE
// with `csum`, COMPLETE with the true sum) and bits 3-7 how the frame is
// split into views. Every run must return (drop or deliver) without
// crashing and count the packet exactly once. Properties:
//   - the software (NONE) verdict is right: a delivered, verified TCP or
//     UDP packet's pseudo-header and bytes sum to 0xffff by a byte-wise
//     reference, and a packet dropped for a bad transport checksum does not;
//   - COMPLETE with the true sum from any csum_start inside the frame gives
//     the NONE verdict (same drop reason, or the same delivered packet);
//   - COMPLETE with a wrong sum covering the transport header drops a
//     packet NONE delivers verified;
//   - a delivered packet's transport header and payload are the frame's
//     bytes at the transport offset;
//   - UNNECESSARY delivers whatever NONE delivers, and drops whatever NONE
//     drops for a reason other than the transport checksum;
//   - how the frame is chained changes nothing;
//   - ReceiveInPlace, into a ReceivedPacket reused across inputs, gives
//     Receive's verdict;
//   - ReceiveBurst of the frame three times over is ReceiveInPlace of each,
//     with every prefetch policy;
//   - the general path alone (internal::ReceiveGeneralForTesting, without
//     the fast path that ReceiveInPlace tries first) gives the same
//     verdict, counters and packet;
//   - VerifyFrame and VerifyBurst give Receive's verdict and counters,
//     leave the frame untouched, and describe what Receive delivered
//     (offsets, header and payload bytes, TCP fields);
//   - ParseEthernet/ParseIP of the whole frame and of any prefix holding
//     its headers agree.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "buffer/buffer.h"
#include "checksum/endian.h"
#include "tcpip/internal/receive_general.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/parse.h"
#include "tcpip/receive.h"
#include "testing/fuzz/fuzz_util.h"

namespace ipsum::tcpip {
namespace {

using Bytes = std::vector<uint8_t>;

// RefSum is the byte-wise Internet sum of `data` added to `initial`.
uint16_t RefSum(std::span<const uint8_t> data, uint32_t initial = 0) {
  uint64_t sum = initial;
  for (size_t i = 0; i < data.size(); ++i) {
    sum += (i % 2 == 0) ? uint64_t{data[i]} << 8 : data[i];
  }
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

// Chain returns `frame` as a Buffer of views cut where `seed` says.
buffer::Buffer Chain(std::span<const uint8_t> frame, uint8_t seed) {
  buffer::Buffer b;
  size_t at = 0;
  uint32_t s = seed;
  while (at < frame.size()) {
    size_t n = frame.size() - at;
    if (seed != 0) {
      s = s * 1103515245 + 12345;
      n = std::min<size_t>(n, 1 + (s >> 16) % 97);
    }
    b.Append(buffer::View::Copy(frame.subspan(at, n)));
    at += n;
  }
  return b;
}

// Verdict is what one Receive did.
struct Verdict {
  bool delivered = false;
  DropReason reason = DropReason::kTruncated;
  std::optional<ReceivedPacket> packet;
};

bool SamePacket(const ReceivedPacket& a, const ReceivedPacket& b);

Verdict Run(std::span<const uint8_t> frame, LinkType link, uint8_t split,
            ChecksumStatus status, uint32_t csum_start, uint16_t csum) {
  // The frame as a driver hands it over, built afresh for each run.
  auto received = [&] {
    PacketBuffer pkt = PacketBuffer::FromFrame(Chain(frame, split));
    pkt.checksum_status = status;
    pkt.csum_start = csum_start;
    pkt.csum = csum;
    return pkt;
  };
  ReceiveStats stats;
  Verdict v;
  v.packet = Receive(received(), link, stats);
  IPSUM_FUZZ_CHECK(stats.received == 1);
  IPSUM_FUZZ_CHECK(stats.delivered + stats.TotalDropped() == 1);
  v.delivered = v.packet.has_value();
  IPSUM_FUZZ_CHECK(v.delivered == (stats.delivered == 1));
  if (!v.delivered) {
    for (size_t r = 0; r < kDropReasonCount; ++r) {
      if (stats.dropped[r] != 0) v.reason = static_cast<DropReason>(r);
    }
  } else {
    const ReceivedPacket& p = *v.packet;
    IPSUM_FUZZ_CHECK(p.packet.size() <= frame.size());
    IPSUM_FUZZ_CHECK(!(p.is_fragment && p.checksum_verified));
    IPSUM_FUZZ_CHECK(p.checksum_verified ==
                     (stats.checksum_software + stats.checksum_unnecessary +
                          stats.checksum_complete ==
                      1));
  }
  // ReceiveInPlace of the same frame, in one ReceivedPacket reused by every
  // run (so it still holds whatever the last input left in it), gives the
  // same verdict.
  static ReceivedPacket* const reused = new ReceivedPacket;
  reused->packet = received();
  ReceiveStats in_place;
  const bool delivered = ReceiveInPlace(*reused, link, in_place);
  IPSUM_FUZZ_CHECK(delivered == v.delivered);
  IPSUM_FUZZ_CHECK(in_place.delivered == stats.delivered &&
                   in_place.dropped == stats.dropped);
  if (delivered) IPSUM_FUZZ_CHECK(SamePacket(*reused, *v.packet));
  // ReceiveBurst of the frame three times over, into packets reused by every
  // run, is ReceiveInPlace of each: the same verdicts, counters and
  // packets.
  static ReceivedPacket* const burst = new ReceivedPacket[3];
  static ReceivedPacket* const alone = new ReceivedPacket[3];
  ReceiveStats burst_stats, alone_stats;
  bool burst_delivered[3];
  for (int k = 0; k < 3; ++k) {
    burst[k].packet = received();
    alone[k].packet = received();
  }
  // Each prefetch policy (frame, headers, none), by the frame's length:
  // none may change a verdict.
  const auto prefetch = static_cast<BurstPrefetch>(frame.size() % 3);
  const size_t burst_count = ReceiveBurst(
      std::span(burst, 3), link, burst_stats, burst_delivered, prefetch);
  size_t alone_count = 0;
  for (int k = 0; k < 3; ++k) {
    const bool ok = ReceiveInPlace(alone[k], link, alone_stats);
    alone_count += ok;
    IPSUM_FUZZ_CHECK(burst_delivered[k] == ok);
    if (ok) IPSUM_FUZZ_CHECK(SamePacket(burst[k], alone[k]));
  }
  IPSUM_FUZZ_CHECK(burst_count == alone_count);
  IPSUM_FUZZ_CHECK(burst_stats == alone_stats);
  // The general path alone (no fast path) gives the same verdict, the same
  // counters and the same packet, parse description included.
  static ReceivedPacket* const general = new ReceivedPacket;
  general->packet = received();
  ReceiveStats general_stats;
  const bool general_delivered =
      internal::ReceiveGeneralForTesting(*general, link, general_stats);
  IPSUM_FUZZ_CHECK(general_delivered == v.delivered);
  IPSUM_FUZZ_CHECK(general_stats == stats);
  if (general_delivered) {
    IPSUM_FUZZ_CHECK(SamePacket(*general, *v.packet));
    IPSUM_FUZZ_CHECK(general->parsed == v.packet->parsed);
    IPSUM_FUZZ_CHECK(general->tcp == v.packet->tcp);
    IPSUM_FUZZ_CHECK(general->packet.headers().size() ==
                     v.packet->packet.headers().size());
    for (Layer l : {Layer::kLink, Layer::kNetwork, Layer::kTransport}) {
      IPSUM_FUZZ_CHECK(general->packet.HeaderOffset(l) ==
                       v.packet->packet.HeaderOffset(l));
      IPSUM_FUZZ_CHECK(general->packet.Header(l).size() ==
                       v.packet->packet.Header(l).size());
    }
    IPSUM_FUZZ_CHECK(general->packet.network_protocol ==
                     v.packet->packet.network_protocol);
    IPSUM_FUZZ_CHECK(general->packet.transport_protocol ==
                     v.packet->packet.transport_protocol);
  }
  // VerifyFrame and VerifyBurst (the frame three times over) judge the
  // frame as Receive does, leave it as it was, and describe what Receive
  // delivered: the same offsets, header bytes, payload bytes and TCP
  // fields.
  {
    const PacketBuffer frames[3] = {received(), received(), received()};
    ReceiveStats verify_stats;
    VerifiedFrame verified;
    const bool ok = VerifyFrame(frames[0], link, verify_stats, verified);
    IPSUM_FUZZ_CHECK(ok == v.delivered);
    IPSUM_FUZZ_CHECK(verify_stats == stats);
    // Each of the three through VerifyFrame, counted together: what
    // VerifyBurst of the three must count, to the counter.
    ReceiveStats three_stats;
    for (const PacketBuffer& f : frames) {
      VerifiedFrame one;
      IPSUM_FUZZ_CHECK(VerifyFrame(f, link, three_stats, one) == ok);
      if (ok) IPSUM_FUZZ_CHECK(one == verified);
    }
    ReceiveStats burst_verify_stats;
    VerifiedFrame burst_verified[3];
    bool burst_ok[3];
    IPSUM_FUZZ_CHECK(VerifyBurst(frames, link, burst_verify_stats,
                                 burst_verified, burst_ok,
                                 prefetch) == (ok ? 3u : 0u));
    IPSUM_FUZZ_CHECK(burst_verify_stats == three_stats);
    for (bool b : burst_ok) IPSUM_FUZZ_CHECK(b == ok);
    for (const PacketBuffer& f : frames) {
      IPSUM_FUZZ_CHECK(f.headers().empty());
      IPSUM_FUZZ_CHECK(f.data().Flatten() ==
                       std::vector<uint8_t>(frame.begin(), frame.end()));
    }
    if (ok) {
      const ReceivedPacket& p = *v.packet;
      for (const VerifiedFrame& b : burst_verified) {
        IPSUM_FUZZ_CHECK(b == verified);
      }
      IPSUM_FUZZ_CHECK(verified.network == p.packet.network_protocol);
      IPSUM_FUZZ_CHECK(verified.transport == p.packet.transport_protocol);
      IPSUM_FUZZ_CHECK(verified.network_offset == p.parsed.network_offset);
      IPSUM_FUZZ_CHECK(verified.transport_offset == p.parsed.transport_offset);
      IPSUM_FUZZ_CHECK(verified.is_fragment == p.is_fragment);
      IPSUM_FUZZ_CHECK(verified.checksum_verified == p.checksum_verified);
      std::array<uint8_t, PacketBuffer::kHeaderCapacity> scratch;
      const std::span<const uint8_t> h =
          HeaderBytes(frames[0], verified, scratch);
      const std::span<const uint8_t> want = p.packet.headers();
      IPSUM_FUZZ_CHECK(
          std::equal(h.begin(), h.end(), want.begin(), want.end()));
      IPSUM_FUZZ_CHECK(ReadTCPInfo(h, verified) == p.tcp);
      // The fields the record carries are Receive's.
      const TCPInfo tcp = p.tcp.value_or(TCPInfo{});
      IPSUM_FUZZ_CHECK(verified.source_port() == p.source_port &&
                       verified.destination_port() == p.destination_port &&
                       verified.is_tcp() == p.tcp.has_value() &&
                       verified.tcp_seq() == tcp.seq &&
                       verified.tcp_ack() == tcp.ack &&
                       verified.tcp_flags() == tcp.flags &&
                       verified.tcp_window() == tcp.window);
      const std::optional<buffer::Buffer> payload = frames[0].data().CloneRange(
          verified.payload_offset, verified.payload_length());
      IPSUM_FUZZ_CHECK(payload.has_value() &&
                       payload->Flatten() == p.packet.data().Flatten());
    }
  }
  return v;
}

bool SamePacket(const ReceivedPacket& a, const ReceivedPacket& b) {
  return a.packet.Flatten() == b.packet.Flatten() &&
         a.packet.headers().size() == b.packet.headers().size() &&
         a.source_port == b.source_port &&
         a.destination_port == b.destination_port &&
         a.is_fragment == b.is_fragment &&
         a.checksum_verified == b.checksum_verified &&
         a.source_v4 == b.source_v4 && a.source_v6 == b.source_v6 &&
         a.destination_v4 == b.destination_v4 &&
         a.destination_v6 == b.destination_v6 && a.parsed == b.parsed &&
         a.tcp == b.tcp;
}

void Print(const char* name, const Verdict& v) {
  if (v.delivered) {
    std::fprintf(stderr, "%s: delivered, %zu bytes, verified %d\n", name,
                 v.packet->packet.size(), v.packet->checksum_verified);
  } else {
    std::fprintf(stderr, "%s: dropped, %s\n", name,
                 std::string(ToString(v.reason)).c_str());
  }
}

// SameVerdict reports whether `a` and `b` are the same verdict, printing
// both when they are not.
bool SameVerdict(const Verdict& a, const Verdict& b) {
  bool same = a.delivered == b.delivered;
  if (same) {
    same =
        a.delivered ? SamePacket(*a.packet, *b.packet) : a.reason == b.reason;
  }
  if (!same) {
    Print("first", a);
    Print("second", b);
  }
  return same;
}

// ReferenceTransportSum sums the pseudo-header and transport bytes of a
// delivered, unfragmented TCP or UDP packet, from the flat frame.
uint16_t ReferenceTransportSum(std::span<const uint8_t> frame,
                               const ReceivedPacket& p) {
  const ParsedPacket& parsed = p.parsed;
  std::span<const uint8_t> transport =
      frame.subspan(parsed.transport_offset, parsed.transport_length);
  const uint8_t protocol = parsed.transport_protocol;
  if (protocol == 17) transport = transport.first(LoadBig16(&transport[4]));
  const uint32_t length = static_cast<uint32_t>(transport.size());
  Bytes pseudo;
  if (parsed.network == NetworkProtocol::kIPv4) {
    pseudo.insert(pseudo.end(), p.source_v4.bytes.begin(),
                  p.source_v4.bytes.end());
    pseudo.insert(pseudo.end(), p.destination_v4.bytes.begin(),
                  p.destination_v4.bytes.end());
    pseudo.insert(pseudo.end(), {0, protocol, static_cast<uint8_t>(length >> 8),
                                 static_cast<uint8_t>(length)});
  } else {
    pseudo.insert(pseudo.end(), p.source_v6.bytes.begin(),
                  p.source_v6.bytes.end());
    pseudo.insert(pseudo.end(), p.destination_v6.bytes.begin(),
                  p.destination_v6.bytes.end());
    pseudo.insert(
        pseudo.end(),
        {static_cast<uint8_t>(length >> 24), static_cast<uint8_t>(length >> 16),
         static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length), 0, 0,
         0, protocol});
  }
  return RefSum(transport, RefSum(pseudo));
}

void CheckParsePrefixes(std::span<const uint8_t> frame, LinkType link,
                        uint8_t seed) {
  const ParsedPacket whole =
      link == LinkType::kEthernet ? ParseEthernet(frame) : ParseIP(frame);
  if (!whole.ok() || whole.network == NetworkProtocol::kNone) return;
  // A prefix holding every header describes the same packet.
  const size_t need = whole.transport_offset;
  const size_t cut = need + seed % (frame.size() - need + 1);
  const std::span<const uint8_t> prefix = frame.first(cut);
  const ParsedPacket part = link == LinkType::kEthernet
                                ? ParseEthernetPrefix(prefix, frame.size())
                                : ParseIPPrefix(prefix, frame.size());
  IPSUM_FUZZ_CHECK(part.ok());
  IPSUM_FUZZ_CHECK(part.network == whole.network);
  IPSUM_FUZZ_CHECK(part.transport_offset == whole.transport_offset);
  IPSUM_FUZZ_CHECK(part.transport_length == whole.transport_length);
  IPSUM_FUZZ_CHECK(part.transport_protocol == whole.transport_protocol);
  IPSUM_FUZZ_CHECK(part.ip_length == whole.ip_length);
  IPSUM_FUZZ_CHECK(part.is_fragment == whole.is_fragment);
  IPSUM_FUZZ_CHECK(part.trailing_bytes == whole.trailing_bytes);
  IPSUM_FUZZ_CHECK(whole.transport_offset <= frame.size());
}

}  // namespace
}  // namespace ipsum::tcpip

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ipsum::tcpip;
  ipsum::fuzz::Reader in({data, size});
  const uint8_t control = in.U8();
  const uint16_t csum_start = in.U16();
  const uint16_t csum = in.U16();
  ipsum::fuzz::AlignedCopy copy(in.Rest(), control >> 3);
  const std::span<const uint8_t> frame = copy.span();
  const LinkType link = (control & 1) ? LinkType::kIP : LinkType::kEthernet;
  const uint8_t split = control >> 3;

  CheckParsePrefixes(frame, link, static_cast<uint8_t>(csum));

  // The software verdict, and its independent check.
  const Verdict none = Run(frame, link, split, ChecksumStatus::kNone, 0, 0);
  if (none.delivered && none.packet->checksum_verified) {
    IPSUM_FUZZ_CHECK(ReferenceTransportSum(frame, *none.packet) == 0xffff);
  }
  // How the frame is chained changes nothing, except the reason for a drop
  // when the headers run past the first kHeaderCapacity bytes: a chained
  // frame's parse sees only those ("unsupported"), a flat frame's sees all
  // of it and may find it truncated or malformed further on first.
  const Verdict none_flat = Run(frame, link, 0, ChecksumStatus::kNone, 0, 0);
  const bool past_header_area =
      frame.size() > PacketBuffer::kHeaderCapacity && !none.delivered &&
      !none_flat.delivered &&
      (none.reason == DropReason::kUnsupported ||
       (none.reason == DropReason::kTruncated &&
        none_flat.reason == DropReason::kUnsupported));
  if (!past_header_area) IPSUM_FUZZ_CHECK(SameVerdict(none, none_flat));

  // Random metadata: any verdict, no crash (Run checks the counters).
  const ChecksumStatus states[] = {
      ChecksumStatus::kNone, ChecksumStatus::kUnnecessary,
      ChecksumStatus::kComplete, ChecksumStatus::kComplete};
  const ChecksumStatus state = states[(control >> 1) & 3];
  const Verdict random = Run(frame, link, split, state, csum_start, csum);
  if (state == ChecksumStatus::kNone) {
    IPSUM_FUZZ_CHECK(SameVerdict(random, none));
  }

  // A delivered packet's headers and payload are the frame's bytes.
  if (none.delivered) {
    const ReceivedPacket& p = *none.packet;
    const ParsedPacket& parsed = p.parsed;
    const auto transport = p.packet.Header(Layer::kTransport);
    const Bytes payload = p.packet.data().Flatten();
    const size_t at = parsed.transport_offset + transport.size();
    IPSUM_FUZZ_CHECK(at + payload.size() <= frame.size());
    IPSUM_FUZZ_CHECK(std::equal(transport.begin(), transport.end(),
                                frame.begin() + parsed.transport_offset));
    IPSUM_FUZZ_CHECK(
        std::equal(payload.begin(), payload.end(), frame.begin() + at));
    IPSUM_FUZZ_CHECK(transport.size() + payload.size() <=
                     parsed.transport_length);
  }

  // COMPLETE with the true sum from csum_start: the NONE verdict.
  const size_t start = frame.empty() ? 0 : csum_start % (frame.size() + 1);
  const uint16_t true_sum = RefSum(frame.subspan(start));
  const Verdict complete =
      Run(frame, link, split, ChecksumStatus::kComplete, start, true_sum);
  IPSUM_FUZZ_CHECK(SameVerdict(complete, none));

  // COMPLETE with a wrong sum (the true one plus one) that covers the
  // transport header: a verified packet is dropped, the sum was checked.
  if (none.delivered && none.packet->checksum_verified &&
      start <= none.packet->parsed.transport_offset) {
    const uint32_t plus_one = uint32_t{true_sum} + 1;
    const uint16_t wrong = static_cast<uint16_t>(plus_one + (plus_one >> 16));
    const Verdict bad =
        Run(frame, link, split, ChecksumStatus::kComplete, start, wrong);
    if (bad.delivered || bad.reason != DropReason::kBadTransportChecksum) {
      Print("complete with a wrong sum", bad);
      IPSUM_FUZZ_CHECK(false);
    }
  }

  // UNNECESSARY: the NIC vouches for the transport checksum only.
  const Verdict unnecessary =
      Run(frame, link, split, ChecksumStatus::kUnnecessary, 0, 0);
  if (none.delivered) {
    IPSUM_FUZZ_CHECK(unnecessary.delivered);
  } else if (none.reason != DropReason::kBadTransportChecksum &&
             none.reason != DropReason::kUDPZeroChecksum) {
    IPSUM_FUZZ_CHECK(!unnecessary.delivered &&
                     unnecessary.reason == none.reason);
  } else if (none.reason == DropReason::kBadTransportChecksum &&
             unnecessary.delivered && unnecessary.packet->checksum_verified &&
             !unnecessary.packet->is_fragment) {
    // Software found the checksum bad: the reference agrees.
    IPSUM_FUZZ_CHECK(ReferenceTransportSum(frame, *unnecessary.packet) !=
                     0xffff);
  }
  return 0;
}
