#!/usr/bin/env bash
# Runs the libFuzzer targets (docs/fuzzing.md) built with the toolchain's fuzzer and address
# sanitizers from the package in Fuzz/, into a scratch path of their own (the normal build is
# untouched).
#
# Usage: Scripts/fuzz.sh TARGET|all SECONDS
#   TARGET: ahap, notation, notes, board, sound, request, ff-upload, haptic, audio-analysis
#
# Each target starts from its committed seeds (Fuzz/Corpus/TARGET, read only) plus what earlier
# runs found (.build/fuzz/corpus/TARGET), runs for SECONDS and fails on a crash, a broken
# invariant, a leak, an input slower than FUZZ_TIMEOUT seconds (default 10) or one using more
# than FUZZ_RSS_MB megabytes (default 2048). It prints executions per second and total
# executions per target; a failing input is kept under .build/fuzz/artifacts/TARGET/ and the
# command that replays it is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(ahap notation notes board sound request ff-upload haptic audio-analysis)

usage() {
    echo "usage: Scripts/fuzz.sh TARGET|all SECONDS" >&2
    echo "  targets: ${all_targets[*]}" >&2
    exit 2
}

[ $# -eq 2 ] || usage
[[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || usage
seconds=$2
if [ "$1" = all ]; then
    targets=("${all_targets[@]}")
else
    case " ${all_targets[*]} " in *" $1 "*) targets=("$1") ;; *) usage ;; esac
fi
timeout=${FUZZ_TIMEOUT:-10}
rss_mb=${FUZZ_RSS_MB:-2048}

Scripts/install-deps.sh
scratch=.build/fuzz
build=(swift build -c release --package-path Fuzz --scratch-path "$scratch" --sanitize=fuzzer --sanitize=address -Xswiftc -parse-as-library)
products=()
if [ "${#targets[@]}" -eq 1 ]; then products=(--product "fuzz-${targets[0]}"); fi
build_start=$(date +%s)
"${build[@]}" "${products[@]}"
echo "fuzz build: $(($(date +%s) - build_start)) s" >&2
bin=$("${build[@]}" --show-bin-path)

failed=()
for target in "${targets[@]}"; do
    work="$scratch/corpus/$target"
    artifacts="$scratch/artifacts/$target/"
    log="$scratch/logs/$target.log"
    mkdir -p "$work" "$artifacts" "$(dirname "$log")"
    # The sound target writes each input to a file; keep those out of the shared /tmp.
    export TMPDIR="$PWD/$scratch/tmp"
    mkdir -p "$TMPDIR"
    set +e
    # Swift's own backtracer would race libFuzzer's and AddressSanitizer's handlers for the crash.
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$target" "$work" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb" \
        -max_len=16384 -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$artifacts" >"$log" 2>&1
    status=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    if [ "$status" -eq 0 ]; then
        echo "fuzz $target: ${runs:-?} executions in $seconds s (${rate:-?}/s), no crash, leak or timeout"
    else
        failed+=("$target")
        echo "fuzz $target: FAILED after ${runs:-?} executions (exit $status); the end of its log ($log):" >&2
        grep -E 'ERROR|invariant broken|Fatal error|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -n 20 | sed 's/^/    /' >&2 || true
        tail -n 15 "$log" | sed 's/^/    /' >&2
        for artifact in "$artifacts"*; do
            [ -e "$artifact" ] && echo "    replay: $bin/fuzz-$target $artifact" >&2
        done
    fi
done
unset TMPDIR

if ((${#failed[@]} > 0)); then
    echo "fuzz: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} of ${#targets[@]} targets passed (${seconds} s each)"
