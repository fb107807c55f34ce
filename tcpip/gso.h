// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Segmentation of a large TCP send into MSS-sized segments: in software
// (GSO), or handed to the NIC as one packet with GSO metadata (TSO).
//
// Software GSO (SegmentTCP) cuts the payload with buffer::Buffer::Split, so
// every segment's payload is a set of views onto the send's chunks: no
// payload byte is copied. Each segment gets its own headers: IP total (or
// payload) length, IPv4 Identification counting up from the first, sequence
// number advanced by the bytes before it, and the control bits of Linux's
// tcp_gso_segment: FIN and PSH only on the last segment, CWR only on the
// first. Its checksum is complete (software) or partial (the link offloads
// checksums); in software each MSS piece is summed exactly once, where it
// lies, and that sum is combined with the segment's header and
// pseudo-header sums (EncodeTCPWithPayloadSum): the payload is never summed
// a second time, for the whole send or otherwise.
//
// TSO (SendTCP on a link with tso_max_size): the stack builds one packet
// per up-to-tso_max_size chunk of the send, with a partial checksum (the
// pseudo-header sum over the packet's whole TCP length, as Linux writes it)
// and gso_type/gso_size, and the NIC segments it. SegmentGsoPacket does
// what the NIC (or Linux's software fallback, skb_gso_segment) does with
// such a packet.

#ifndef IPSUM_TCPIP_GSO_H_
#define IPSUM_TCPIP_GSO_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "buffer/buffer.h"
#include "tcpip/packet_buffer.h"
#include "tcpip/transmit.h"

namespace ipsum::tcpip {

// kMaxSendSize is the largest payload SegmentTCP and SendTCP take: 64 KiB.
inline constexpr size_t kMaxSendSize = 65536;

// SegmentTCP cuts `payload` (at most kMaxSendSize bytes, moved in) into
// segments of at most `mss` bytes, each encoded as EncodeTCP would encode it
// on its own with `segment`'s fields adjusted as the file comment says, and
// appends them to `out` in order. An empty payload gives one segment.
// Errors (nothing appended): kTooLarge for an MSS of 0 or a payload over
// kMaxSendSize, or any EncodeTCP error.
EncodeError SegmentTCP(const Route& route, const TCPSegment& segment,
                       uint16_t mss, const LinkCapabilities& link,
                       buffer::Buffer payload, std::vector<PacketBuffer>& out);

// SendTCP sends `payload` (at most kMaxSendSize bytes) the way `link` can
// take it, appending the packets to `out`: one segment if it fits `mss`;
// with TSO (link.tso_max_size != 0 and link.tx_checksum_offload), packets
// of up to tso_max_size bytes (and what an IP length field holds), each a
// whole number of MSS, carrying gso_type and gso_size = mss; otherwise
// SegmentTCP. Errors as SegmentTCP.
EncodeError SendTCP(const Route& route, const TCPSegment& segment, uint16_t mss,
                    const LinkCapabilities& link, buffer::Buffer payload,
                    std::vector<PacketBuffer>& out);

// SegmentGsoPacket segments a packet carrying GSO metadata (from SendTCP,
// or a TSO/USO frame from a link) into gso_size-byte segments, as a TSO or
// USO NIC does, reading the fields back from its headers (which must be
// in the header area, by layer); `link` chooses the segments' checksum
// form (a NIC completes them: pass a link without tx_checksum_offload).
// TCP: the options are parsed and encoded again (header::EncodeTCPOptions),
// so options SendTCP wrote come out byte for byte, and unknown kinds are
// dropped. UDP (kUDPv4/kUDPv6): each piece becomes a datagram with the
// packet's ports, its own length and checksum, and (IPv4) Identification
// counting up from the packet's. Errors (nothing appended): kBadField when
// the packet has no GSO metadata or headers the encoders cannot reproduce
// (IPv4 options, IPv6 extension headers, fragments, another protocol than
// the GSO type's), kTooLarge for a payload over kMaxSendSize, or an
// encoder's error.
EncodeError SegmentGsoPacket(PacketBuffer pkt, const LinkCapabilities& link,
                             std::vector<PacketBuffer>& out);

}  // namespace ipsum::tcpip

#endif  // IPSUM_TCPIP_GSO_H_
