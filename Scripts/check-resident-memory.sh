#!/usr/bin/env bash
# The resident-memory bound of docs/performance.md: the release command playing a ROM effect in a
# loop on the simulated board, its timing path locked in memory (mlockall, when permitted), must
# stay within 16 MiB resident. The kernel lane runs this on the static binary it built.
#
# The binary is dropped from the page cache first and loaded by the run itself, as after a boot: a
# file just written (a linker's output, a package just installed) sits in the cache in the large
# pieces the writer made, and some kernels (6.18 here) map such a piece whole at a fault, ~1.4 MB
# more of it (docs/performance.md says how much). The figure is the largest over the first 3 s.
#
# Usage: Scripts/check-resident-memory.sh BINARY
set -euo pipefail
binary=${1:?usage: Scripts/check-resident-memory.sh BINARY}
bound_kib=$((16 * 1024))
say() { echo "resident memory: $*" >&2; }

sync "$binary"
dd if="$binary" iflag=nocache count=0 status=none
log=$(mktemp "${TMPDIR:-/tmp}/hapticboard-rss.XXXXXX")
trap 'rm -f "$log"' EXIT
"$binary" play --effect 47 --loop > "$log" 2>&1 &
pid=$!
peak=0
for _ in $(seq 30); do
    sleep 0.1
    rss=$(awk '/^Rss:/ { print $2 }' "/proc/$pid/smaps_rollup" 2> /dev/null || echo 0)
    [ "${rss:-0}" -gt "$peak" ] && peak=$rss
done
# A run that already ended (it failed) is reported below with its output.
kill -INT "$pid" 2> /dev/null || true
status=0
wait "$pid" || status=$?
# However it measured, the run must have ended as a user's Ctrl-C ends it: actuator stopped.
if [ "$status" -ne 130 ] || ! grep -q "actuator stopped and in standby" "$log"; then
    cat "$log" >&2
    say "error: 'play --effect 47 --loop' exited $status after SIGINT, expected 130 with the actuator stopped and in standby"
    exit 1
fi
say "play --effect 47 --loop on sim: $peak KiB (bound $bound_kib KiB, $((bound_kib - peak)) to spare)"
if [ "$peak" -gt "$bound_kib" ]; then
    say "error: over the bound. If the code grew, lay it out again: Scripts/make-order-file.sh (docs/performance.md)"
    exit 1
fi
