#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# The csum command line: output formats, exit codes and error messages of
# sum, verify, fix, --cpu and the default job.
set -uo pipefail
csum=$1
make_captures=$2
dir=testdata/checksum
caps=testdata/captures
tmp=${TEST_TMPDIR:-$(mktemp -d)}
fail=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}

# sum: one line per input, "<hex>  <implementation>  <path>", in input order.
out=$("$csum" sum "$dir"/*.bin); rc=$?
check "sum exits 0" test "$rc" -eq 0
want=$(grep -v '^#' "$dir/SUMS" | awk -v d="$dir" '{print $1 "  " d "/" $2}')
got=$(echo "$out" | awk '{print $1 "  " $3}')
check "sum matches SUMS" test "$got" = "$want"
check "sum lines have three fields" test -z "$(echo "$out" | awk 'NF != 3')"

# stdin.
got=$("$csum" sum - < "$dir/rfc1071-example.bin")
check "sum - reads stdin" test "${got%% *}" = ddf2

# errors: a missing file is reported, the others still summed, exit 2.
out=$("$csum" sum "$dir/rfc1071-example.bin" /nonexistent/x 2>"$tmp/err"); rc=$?
check "missing file exits 2" test "$rc" -eq 2
check "missing file named on stderr" grep -q '/nonexistent/x' "$tmp/err"
check "other files still summed" test "${out%% *}" = ddf2

"$csum" frobnicate 2>"$tmp/err"; rc=$?
check "unknown command exits 2" test "$rc" -eq 2
check "unknown command named" grep -q "unknown command 'frobnicate'" "$tmp/err"
"$csum" sum 2>"$tmp/err"; rc=$?
check "sum without files exits 2" test "$rc" -eq 2
"$csum" help >"$tmp/out"; rc=$?
check "help exits 0" test "$rc" -eq 0
check "help prints usage" grep -q '^usage: csum' "$tmp/out"

# --cpu: the implementation report names the one sum uses.
impl=$("$csum" sum "$dir/empty.bin" | awk '{print $2}')
"$csum" --cpu >"$tmp/cpu"; rc=$?
check "--cpu exits 0" test "$rc" -eq 0
check "--cpu names the implementation in use" grep -q "$impl" "$tmp/cpu"

# verify --format=tsv prints exactly the ground truth of each capture.
for cap in "$caps"/*.pcap "$caps"/*.pcapng; do
  "$csum" verify --format=tsv "$cap" >"$tmp/tsv" 2>/dev/null; rc=$?
  check "verify $cap exits 1 (deliberate bad checksums)" test "$rc" -eq 1
  check "verify $cap matches its ground truth" cmp -s "$tmp/tsv" "${cap%.*}.tsv"
done

# --format=json: the same records, one object per line, null for empty.
"$csum" verify --format=json "$caps/ethernet.pcap" >"$tmp/json" 2>/dev/null
check "json has a line per tsv record" test "$(wc -l <"$tmp/json")" -eq \
  "$(($(wc -l <"$caps/ethernet.tsv") - 1))"
check "json records" grep -q '^{"frame":1,"layer":"ipv4","verdict":"good","stored":"0x[0-9a-f]\{4\}","computed":"0x[0-9a-f]\{4\}","csum_off":24,"reason":null,"ip_depth":1}$' "$tmp/json"
check "json nulls" grep -q '"verdict":"unverified","stored":null,"computed":null,"csum_off":null,"reason":"truncated","ip_depth":1}$' "$tmp/json"
check "json offload reason" grep -q '"verdict":"bad",.*"reason":"offload","ip_depth":1}$' "$tmp/json"
"$csum" verify "$caps/ethernet.pcap" >"$tmp/sum" 2>/dev/null
check "summary counts bad by reason" grep -q '^  bad: [0-9]* offload, [0-9]* unexplained$' "$tmp/sum"
check "summary counts unverified by reason" grep -q '^  unverified: [0-9]* truncated, [0-9]* fragment, [0-9]* bad-length, 1 malformed$' "$tmp/sum"

# Tunnels and ICMP errors: inner fields at ip_depth 2 and more, quotes
# reported, not judged; the summary counts tunnelled and too-deep packets.
"$csum" verify "$caps/tunnels.pcap" "$caps/icmp-errors.pcap" >"$tmp/tun" 2>/dev/null
check "summary counts tunnels" grep -q '^  tunnels: 43 packets carry inner datagrams' "$tmp/tun"
check "summary counts unread datagrams" grep -q '^  unread: 2 GRE header truncated, 1 GRE version above 1, .*, 1 IPv4 IHL below 5, .*, 1 VXLAN header truncated$' "$tmp/tun"
check "summary has an ip row" grep -q '^  ip  *11  *0  *0  *0  *11  *0$' "$tmp/tun"
check "summary counts the depth limit" grep -q '^  depth: 1 packet nests more than 8 IP headers' "$tmp/tun"
check "summary counts quotes" grep -q '^  unverified: [0-9]* truncated, 4 bad-length, 24 quoted, 3 malformed, 2 unsupported$' "$tmp/tun"
check "summary has a gre row" grep -q '^  gre  *8  *7  *6  *1  *1 ' "$tmp/tun"
"$csum" verify --format=json "$caps/icmp-errors.pcap" >"$tmp/q.json" 2>/dev/null
check "json quoted reason" grep -q '"verdict":"unverified","stored":"0x[0-9a-f]\{4\}","computed":null,"csum_off":68,"reason":"quoted","ip_depth":2}$' "$tmp/q.json"
# fix repairs the inner checksums and brings the outer UDP and GRE ones up
# to date; a zero VXLAN UDP checksum stays zero.
"$csum" fix "$caps/tunnels.pcap" "$tmp/tun-fixed.pcap" >/dev/null; rc=$?
check "fix tunnels exits 0" test "$rc" -eq 0
"$csum" verify --format=tsv "$tmp/tun-fixed.pcap" >"$tmp/tun-fixed.tsv" 2>/dev/null; rc=$?
check "fixed tunnels verify clean" test "$rc" -eq 0
check "fixed tunnels: no bad" test "$(awk -F'\t' '$3 == "bad"' "$tmp/tun-fixed.tsv" | wc -l)" -eq 0
check "fixed tunnels: zero VXLAN checksums stay none" test "$(awk -F'\t' '$3 == "none"' "$tmp/tun-fixed.tsv" | wc -l)" -eq 2

# Several captures: a file column, and a summary per capture plus a total.
"$csum" verify --format=tsv "$caps/raw.pcap" "$caps/loop.pcap" >"$tmp/two" 2>/dev/null
check "several captures add a file column" test "$(head -1 "$tmp/two" | cut -f1)" = file
check "file column holds the path" grep -q "^$caps/loop.pcap	1	" "$tmp/two"
"$csum" verify "$caps/raw.pcap" "$caps/loop.pcap" >"$tmp/sum"
check "summary per capture" test "$(grep -c '^  total' "$tmp/sum")" -eq 3
check "summary names link type" grep -q "^$caps/raw.pcap: pcap, raw, 9 packets" "$tmp/sum"

# fix, then verify: no bad checksum left, exit 0; pcap differs only in the
# fixed bytes (capture_test checks which bytes).
"$csum" fix "$caps/ethernet.pcap" "$tmp/fixed.pcap" >"$tmp/fix"; rc=$?
check "fix exits 0" test "$rc" -eq 0
nbad=$(awk -F'\t' '$3 == "bad"' "$caps/ethernet.tsv" | wc -l)
check "fix reports what it did" grep -q "fixed $nbad checksums" "$tmp/fix"
"$csum" verify "$tmp/fixed.pcap" >"$tmp/v"; rc=$?
check "verify after fix exits 0" test "$rc" -eq 0
check "same size after fix" test "$(stat -L -c %s "$caps/ethernet.pcap")" -eq \
  "$(stat -L -c %s "$tmp/fixed.pcap")"
check "fix changes at most the checksum bytes" test \
  "$(cmp -l "$caps/ethernet.pcap" "$tmp/fixed.pcap" | wc -l)" -le $((2 * nbad))
"$csum" fix "$caps/ethernet-pcapng.pcapng" "$tmp/fixed.pcapng" >/dev/null; rc=$?
check "fix pcapng exits 0" test "$rc" -eq 0
"$csum" verify "$tmp/fixed.pcapng" >"$tmp/v"; rc=$?
check "fixed pcapng verifies" test "$rc" -eq 0
check "fixed pcapng stays pcapng" grep -q "fixed.pcapng: pcapng, ethernet" "$tmp/v"
nbad=$(awk -F'\t' '$3 == "bad"' "$caps/ethernet-pcapng.tsv" | wc -l)
check "fix pcapng changes at most the checksum bytes" test \
  "$(cmp -l "$caps/ethernet-pcapng.pcapng" "$tmp/fixed.pcapng" | wc -l)" -le $((2 * nbad))

# Standard input: '-' for verify and for fix's input, through a pipe.
cat "$caps/ethernet.pcap" | "$csum" verify --format=tsv - >"$tmp/stdin.tsv" 2>"$tmp/stdin.err"
check "verify - reads a pipe" cmp -s "$tmp/stdin.tsv" "$caps/ethernet.tsv"
check "verify - is named standard input" grep -q "^standard input: pcap, ethernet" "$tmp/stdin.err"
cat "$caps/ethernet-pcapng.pcapng" | "$csum" fix - "$tmp/stdin-fixed.pcapng" >/dev/null; rc=$?
check "fix - OUT exits 0" test "$rc" -eq 0
check "fix - OUT writes what fix IN OUT writes" cmp -s "$tmp/stdin-fixed.pcapng" "$tmp/fixed.pcapng"
head -c 300 "$caps/ethernet.pcap" | "$csum" verify - >/dev/null 2>"$tmp/err"; rc=$?
check "a cut stream exits 2" test "$rc" -eq 2
check "a cut stream is named" grep -q "^csum: standard input: truncated" "$tmp/err"
"$csum" fix "$caps/raw.pcap" 2>"$tmp/err"; rc=$?
check "fix needs two arguments" test "$rc" -eq 2

# Broken inputs: exit 2, a message with the file and byte offset, and the
# other files still processed.
head -c 300 "$caps/ethernet.pcap" >"$tmp/cut.pcap"
echo "not a capture" >"$tmp/text.pcap"
"$csum" verify "$tmp/cut.pcap" /nonexistent.pcap "$tmp/text.pcap" \
  "$caps/raw.pcap" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "broken inputs exit 2" test "$rc" -eq 2
check "truncated file named with its offset" \
  grep -q "^csum: $tmp/cut.pcap: .*truncated.*(record [0-9]*, at byte offset [0-9]*)" "$tmp/err"
check "missing file named" grep -q '^csum: /nonexistent.pcap: ' "$tmp/err"
check "foreign file named" grep -q "^csum: $tmp/text.pcap: not a capture" "$tmp/err"
check "good file still verified" grep -q "^$caps/raw.pcap: pcap, raw" "$tmp/out"
check "records before the cut summarised" grep -q "^$tmp/cut.pcap: pcap, ethernet" "$tmp/out"
"$csum" verify --frobnicate "$caps/raw.pcap" 2>/dev/null; rc=$?
check "unknown verify option exits 2" test "$rc" -eq 2
"$csum" fix "$tmp/cut.pcap" "$tmp/cut-fixed.pcap" 2>"$tmp/err"; rc=$?
check "fix of a truncated file exits 2" test "$rc" -eq 2

# A clean capture exits 0.
"$csum" verify "$tmp/fixed.pcap" "$tmp/fixed.pcapng" >/dev/null; rc=$?
check "all good exits 0" test "$rc" -eq 0

# Progress is silent when stderr is not a terminal.
"$csum" verify "$caps/ethernet.pcap" >/dev/null 2>"$tmp/err"
check "no progress on a non-terminal" test ! -s "$tmp/err"

# The default job: the bundled captures, summarised and held against their
# ground truth (found through the runfiles here).
(cd "$tmp" && "$OLDPWD/$csum") >"$tmp/default" 2>&1; rc=$?
check "default job exits 0" test "$rc" -eq 0
check "default job matches ground truth" grep -qE '^ground truth: ([0-9]+) of \1 captures' "$tmp/default"

# The committed captures are what the generator writes today, byte for byte.
mkdir -p "$tmp/gen"
"$make_captures" "$tmp/gen"; rc=$?
check "make_captures exits 0" test "$rc" -eq 0
for f in "$caps"/*.pcap "$caps"/*.pcapng "$caps"/*.tsv; do
  check "$f is up to date" cmp -s "$f" "$tmp/gen/$(basename "$f")"
done
check "make_captures writes no other file" test \
  "$(ls "$tmp/gen" | wc -l)" -eq "$(ls "$caps" | grep -vc BUILD)"

exit $fail
