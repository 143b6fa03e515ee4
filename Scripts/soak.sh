#!/usr/bin/env bash
# A soak on the real clock (not part of the test command): `hapticboard serve` on a simulated board
# under a client load — curl over its Unix socket: ROM effects, notation patterns, stops — for
# MINUTES minutes. Once a minute it prints the service's resident memory, its dispatch lateness
# over that minute (mean, and the histogram bucket 99 % of dispatches fell in) and its counters
# (requests, refusals, faults, dropped-late). At the end the service is stopped with SIGTERM and
# must exit 0; the script exits non-zero when it did not, or when the resident memory of the last
# minute is more than 20 % above the second minute's.
#
# Usage: Scripts/soak.sh MINUTES [--board NAME|FILE] [--clients N] [--binary PATH]
#   --board    the board to serve (default: sim-dual-grips, two simulated chips behind a switch)
#   --clients  concurrent client loops (default 4)
#   --binary   the hapticboard to run (default: a release build, made here)
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "soak: $*" >&2; }

minutes=${1:?usage: Scripts/soak.sh MINUTES [--board NAME|FILE] [--clients N] [--binary PATH]}
shift
[[ "$minutes" =~ ^[1-9][0-9]*$ ]] || { say "error: MINUTES must be a whole number above 0, not '$minutes'"; exit 2; }
board=sim-dual-grips
clients=4
binary=""
while [ $# -gt 0 ]; do
    case "$1" in
        --board) board=${2:?}; shift 2 ;;
        --clients) clients=${2:?}; shift 2 ;;
        --binary) binary=${2:?}; shift 2 ;;
        *) say "error: unknown argument '$1'"; exit 2 ;;
    esac
done

Scripts/install-deps.sh curl procps
if [ -z "$binary" ]; then
    say "swift build -c release --product hapticboard"
    swift build -c release --product hapticboard >&2
    binary=.build/release/hapticboard
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/hapticboard-soak.XXXXXX")
socket="$work/hb.sock"
mkdir -p "$work/library" "$work/state"
"$binary" serve --board "$board" --socket "$socket" --library "$work/library" --state-dir "$work/state" --no-audio \
    > "$work/serve.out" 2> "$work/serve.err" &
serve=$!
loops=()
cleanup() {
    for loop in "${loops[@]}"; do kill "$loop" 2> /dev/null || true; done
    kill "$serve" 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { say "error: the service did not open $socket: $(head -n 3 "$work/serve.err")"; exit 1; }

api() { curl --silent --show-error --max-time 10 --unix-socket "$socket" "$@"; }

# One client: a random request every 20-300 ms, now and then a stop of everything.
client_loop() {
    local patterns=("loud sharp" "soft dull; . 0.08s; loud sharp" $'continuous 0.3s:\n  intensity: loud')
    while true; do
        case $((RANDOM % 10)) in
            0 | 1 | 2 | 3) api -X POST "http://localhost/play/effect/$((RANDOM % 123 + 1))" > /dev/null || true ;;
            4 | 5 | 6 | 7 | 8) api -X POST --data-binary "${patterns[$((RANDOM % 3))]}" "http://localhost/play/notation" > /dev/null || true ;;
            9) [ $((RANDOM % 5)) = 0 ] && api -X DELETE http://localhost/players > /dev/null || true ;;
        esac
        sleep "0.$(printf '%03d' $((RANDOM % 280 + 20)))"
    done
}
for _ in $(seq "$clients"); do
    client_loop &
    loops+=($!)
done

# metric NAME [TEXT]: the value of an unlabelled metric (sum of its labelled series otherwise).
metric() { awk -v name="$1" '$1 == name || index($1, name "{") == 1 { sum += $2 } END { printf "%.0f", sum }' <<< "$2"; }
# The lateness buckets as "bound count" lines.
buckets() { sed -n 's/^hapticboard_dispatch_lateness_seconds_bucket{le="\([^"]*\)"} \(.*\)/\1 \2/p' <<< "$1"; }

say "serving $board on $socket with $clients clients for $minutes min (pid $serve)"
printf '%-6s %10s %10s %14s %9s %9s %7s %8s\n' minute rss_kib requests "late_mean_us" late_p99 refused faults dropped
previous=$(api http://localhost/metrics)
rss_second=""
rss=0
for minute in $(seq "$minutes"); do
    sleep 60
    kill -0 "$serve" 2> /dev/null || { say "error: the service died: $(tail -n 3 "$work/serve.err")"; exit 1; }
    now=$(api http://localhost/metrics)
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$serve/status")
    [ "$minute" = 2 ] && rss_second=$rss
    count=$(($(metric hapticboard_dispatch_lateness_seconds_count "$now") - $(metric hapticboard_dispatch_lateness_seconds_count "$previous")))
    mean=$(awk -v a="$(sed -n 's/^hapticboard_dispatch_lateness_seconds_sum //p' <<< "$now")" -v b="$(sed -n 's/^hapticboard_dispatch_lateness_seconds_sum //p' <<< "$previous")" -v n="$count" \
        'BEGIN { if (n > 0) printf "%.1f", (a - b) * 1e6 / n; else print "-" }')
    p99=$(join <(buckets "$previous") <(buckets "$now") | awk -v n="$count" \
        'n > 0 && !found && ($3 - $2) >= 0.99 * n { found = 1; print ($1 == "+Inf" ? ">max" : $1 * 1e6 "us") } END { if (!found) print "-" }')
    printf '%-6s %10s %10s %14s %9s %9s %7s %8s\n' "$minute" "$rss" \
        $(($(metric hapticboard_requests_total "$now") - $(metric hapticboard_requests_total "$previous"))) "$mean" "$p99" \
        $(($(metric hapticboard_requests_refused_total "$now") - $(metric hapticboard_requests_refused_total "$previous"))) \
        $(($(metric hapticboard_faults_total "$now") - $(metric hapticboard_faults_total "$previous"))) \
        $(($(metric hapticboard_dropped_late_total "$now") - $(metric hapticboard_dropped_late_total "$previous")))
    previous=$now
done

for loop in "${loops[@]}"; do kill "$loop" 2> /dev/null || true; done
loops=()
kill -TERM "$serve"
status=0
wait "$serve" || status=$?
[ "$status" = 0 ] || { say "error: the service exited $status on SIGTERM: $(tail -n 3 "$work/serve.err")"; exit 1; }
say "SIGTERM: the service exited 0"
if [ -n "$rss_second" ] && [ "$rss" -gt $((rss_second * 12 / 10)) ]; then
    say "error: resident memory grew from $rss_second KiB (minute 2) to $rss KiB (minute $minutes)"
    exit 1
fi
