// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading and rewriting capture files for `csum verify` and `csum fix`.
// Frames come from csum's own streaming reader (pcap_reader.h), each with
// its own interface's link type, and go through CheckFrame (verify.h); this
// layer adds the file: opening it ("-" is standard input), progress on a
// terminal, and the rewritten copy. Memory does not grow with the file.

#ifndef IPSUM_TOOLS_CSUM_CAPTURE_H_
#define IPSUM_TOOLS_CSUM_CAPTURE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/csum/pcap_reader.h"
#include "tools/csum/report.h"
#include "tools/csum/verify.h"

namespace ipsum::csum {

// CaptureReport is what VerifyCapture found in one file.
struct CaptureReport {
  // format and linktype (a LINKTYPE_ value: the file's, or a pcapng's
  // first interface's) describe the file once opened; mixed_linktypes is
  // set when a pcapng's interfaces differ in link type.
  CaptureFormat format = CaptureFormat::kPcap;
  uint32_t linktype = 0;
  bool mixed_linktypes = false;
  // tally counts the frames read before the end of the file or an error.
  Tally tally;
  // status is OK, or why the file could not be opened or read to its end:
  // its message names the file and, for a broken record, its number and
  // the byte offset where it starts.
  absl::Status status;

  // Title returns "NAME: pcap, ethernet" for summaries.
  std::string Title(const std::string& name) const;
};

// FrameVisitor is called with the 1-based number of each frame and its
// checks, in file order.
using FrameVisitor = std::function<void(uint64_t frame, const FrameCheck&)>;

// VerifyCapture reads the pcap or pcapng file at `path` ("-": standard
// input) and checks every frame, calling `visit` (if set) for each. With
// `progress`, a line of progress is redrawn on stderr once the file has
// taken more than a second, when stderr is a terminal.
CaptureReport VerifyCapture(const std::string& path, const FrameVisitor& visit,
                            bool progress);

// DisplayName is how messages name the capture at `path`: "standard
// input" for "-", else the path.
std::string DisplayName(const std::string& path);

// VerifyStream is VerifyCapture over any ByteSource; `name` goes into
// error messages.
CaptureReport VerifyStream(std::unique_ptr<ByteSource> source,
                           const std::string& name, const FrameVisitor& visit);

// FixReport is what FixCapture did.
struct FixReport {
  CaptureFormat format = CaptureFormat::kPcap;
  uint64_t packets = 0;
  // fields is how many checksum fields were rewritten, in `packets_fixed`
  // packets.
  uint64_t fields = 0;
  uint64_t packets_fixed = 0;
};

// FixCapture writes `out`, a copy of the capture `in` ("-": standard
// input) in the same format with every checksum judged bad replaced by its
// computed value: every other byte (file header, records, pcapng blocks of
// every type with their options) is copied unchanged. Streams in constant
// memory. Refuses `out` naming the same file as `in`. On error `out` may be
// left partly written.
absl::StatusOr<FixReport> FixCapture(const std::string& in,
                                     const std::string& out);

}  // namespace ipsum::csum

#endif  // IPSUM_TOOLS_CSUM_CAPTURE_H_
