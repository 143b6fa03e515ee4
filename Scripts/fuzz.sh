#!/usr/bin/env bash
# Runs the libFuzzer targets (docs/fuzzing.md) built with the toolchain's fuzzer and address
# sanitizers from the package in Fuzz/, into a scratch path of their own, .build/fuzz (the normal
# build is untouched), or fuzz/ under HAPTICBOARD_SCRATCH where the test command sets it. What the
# runs make (corpus, artifacts, logs) stays in the clone's .build/fuzz either way, so a clean clone
# starts from the committed seeds: a corpus kept between CI runs would grow, and with it the time
# each run spends replaying it.
#
# Usage: Scripts/fuzz.sh TARGET|all SECONDS
#   TARGET: ahap, notation, notes, board, sound, request, ff-upload, haptic, audio-analysis
#
# Each target starts from its committed seeds (Fuzz/Corpus/TARGET, read only) plus what earlier
# runs found (.build/fuzz/corpus/TARGET), runs for SECONDS and fails on a crash, a broken
# invariant, a leak, an input slower than FUZZ_TIMEOUT seconds (default 10) or one using more
# than FUZZ_RSS_MB megabytes (default 2048). It prints executions per second and total
# executions per target; a failing input is kept under .build/fuzz/artifacts/TARGET/ and the
# command that replays it is printed. With `all`, FUZZ_JOBS targets run at once (default: one per
# core); their results print in the order above. FUZZ_CONFIGURATION=debug builds without
# optimisation (what the test command does). FUZZ_WORKERS=N runs each target as N fuzzers on one
# corpus folder, each taking up what the others add (libFuzzer reloads it every second): a long
# run of one target on every core; its executions are theirs added up, and any one's crash, leak
# or timeout fails it. (libFuzzer's own -fork mode restarts short jobs that each reload the corpus:
# two of them made 2,600 executions/s where one fuzzer alone makes 2,300.)
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
workers=${FUZZ_WORKERS:-1}
[[ "$workers" =~ ^[0-9]+$ ]] && [ "$workers" -ge 1 ] || { echo "fuzz: FUZZ_WORKERS=$workers: expected a number of fuzzers, 1 or more" >&2; exit 2; }

Scripts/install-deps.sh binutils
scratch=$(realpath -m "${HAPTICBOARD_SCRATCH:-.build}/fuzz")
run_folder=.build/fuzz
# Release for long runs; the test command's short ones build in debug (-Onone), in a tenth of the
# time, for about two thirds of the executions per second.
configuration=${FUZZ_CONFIGURATION:-release}
# SwiftPM hands swiftc one -sanitize= per sanitizer, and swiftc keeps only the last of them: the Swift
# modules were built with AddressSanitizer alone, without the coverage instrumentation libFuzzer
# steers by (the C modules and the link got both). The combined flag, last, gives Swift both.
build=(swift build -c "$configuration" --package-path Fuzz --scratch-path "$scratch" --sanitize=fuzzer --sanitize=address
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
products=()
if [ "${#targets[@]}" -eq 1 ]; then products=(--product "fuzz-${targets[0]}"); fi
build_start=$(date +%s)
# SwiftPM re-plans a build when the Fuzz package's own files change, not when a source file is
# added to the package it depends on by path: it then compiled hapticboard's old file list and
# failed on the new type. Without its plan it plans again (seconds); what is compiled is reused.
rm -f "$scratch/$configuration.yaml"
"${build[@]}" "${products[@]}"
echo "fuzz build: $(($(date +%s) - build_start)) s" >&2
bin=$("${build[@]}" --show-bin-path)
# The flags' effect, checked where it failed: a Swift object of the targets' own support module
# must carry the coverage counters' sections. (grep -c, which reads all of objdump's output: with
# grep -q, objdump could die of SIGPIPE after the first match and fail the pipeline.)
if [ "$(objdump -h "$bin/FuzzSupport.build/FuzzInput.swift.o" | grep -c sancov)" -eq 0 ]; then
    echo "fuzz: the Swift modules were built without coverage instrumentation ($bin/FuzzSupport.build/FuzzInput.swift.o has no sancov sections): libFuzzer would mutate blind" >&2
    exit 1
fi

# The longest input a target is given. A sound input is decoded whole and every frame resampled
# to 48 kHz (libsamplerate), so its cost grows with its length: capped where a header and its first
# few thousand frames fit (one fuzzer made 1,750 runs/s on the seeds' few hundred bytes, 200/s once
# its inputs reached 12 KB). The others read text or a script: 16 KB.
max_len_of() {
    case $1 in
        sound) echo 4096 ;;
        *) echo 16384 ;;
    esac
}

# fuzz_one TARGET: runs one target (FUZZ_WORKERS fuzzers: TARGET.log, then TARGET.log.2, …); its
# summary (and, on failure, the end of the failing log) goes to $run_folder/logs/TARGET.result so
# parallel runs print in order.
fuzz_one() {
    local target=$1 work="$run_folder/corpus/$1" artifacts="$run_folder/artifacts/$1/" log="$run_folder/logs/$1.log"
    local result="$run_folder/logs/$1.result" status=0 runs rate coverage worker pid logs=() by=""
    local -A fuzzers=()
    mkdir -p "$work" "$artifacts"
    for worker in $(seq "$workers"); do
        logs+=("$log$([ "$worker" -eq 1 ] || echo ".$worker")")
        # Swift's own backtracer would race libFuzzer's and AddressSanitizer's handlers for the crash.
        # AddressSanitizer records the stack of every allocation, for its reports: that was 18 % of
        # the board target's time (the YAML decoder allocates per node), 15 % of ahap's. A
        # failing input replays with the stacks (the command printed below); ASAN_OPTIONS given to
        # this script come after, so they win.
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="malloc_context_size=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$bin/fuzz-$target" "$work" "Fuzz/Corpus/$target" \
            -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss_mb" -malloc_limit_mb="$rss_mb" \
            -max_len="$(max_len_of "$target")" -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$artifacts" >"${logs[-1]}" 2>&1 &
        fuzzers[$!]=${logs[-1]}
    done
    # The first fuzzer to fail stops the others: its log is the one reported.
    while ((${#fuzzers[@]} > 0)); do
        wait -n -p pid "${!fuzzers[@]}" || status=$?
        [ "$status" -eq 0 ] || log=${fuzzers[$pid]}
        unset "fuzzers[$pid]"
        [ "$status" -eq 0 ] || break
    done
    if ((${#fuzzers[@]} > 0)); then
        kill "${!fuzzers[@]}" 2> /dev/null || true
        wait "${!fuzzers[@]}" 2> /dev/null || true
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "${logs[@]}" | awk '{ sum += $1 } END { if (NR) print sum }')
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "${logs[@]}" | awk '{ sum += $1 } END { if (NR) print sum }')
    [ "$workers" -eq 1 ] || by=" by $workers fuzzers"
    # "cov: N ft: N corp: N/…" of libFuzzer's last status line: without coverage it prints none,
    # and a run that sees none mutates blind (every input looks alike, the corpus shrinks to one).
    coverage=$({ grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" || true; } | tail -n 1 \
        | sed 's/cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\)/\1 edges, \2 features, a corpus of \3/')
    if [ "$status" -eq 0 ] && [ -n "$coverage" ]; then
        echo "fuzz $target: ${runs:-?} executions$by in $seconds s (${rate:-?}/s), coverage $coverage, no crash, leak or timeout" >"$result"
        return 0
    fi
    if [ "$status" -eq 0 ]; then
        echo "fuzz $target: FAILED: libFuzzer saw no coverage in ${runs:-?} executions$by (the Swift modules were built without -sanitize=fuzzer's instrumentation); log: $log" >"$result"
        return 1
    fi
    # libFuzzer's exit on SIGINT/SIGTERM (-interrupted_exitcode): stopped by hand, nothing found.
    if [ "$status" -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
        echo "fuzz $target: interrupted after ${runs:-?} executions$by (${rate:-?}/s), coverage ${coverage:-unknown}; no crash, leak or timeout until then" >"$result"
        return 1
    fi
    {
        echo "fuzz $target: FAILED after ${runs:-?} executions$by (exit $status); the end of its log ($log):"
        grep -E 'ERROR|invariant broken|Fatal error|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -n 20 | sed 's/^/    /' || true
        tail -n 15 "$log" | sed 's/^/    /'
        # The input this run wrote (older runs' inputs stay in the folder beside it).
        sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | while read -r artifact; do
            echo "    replay: $bin/fuzz-$target $artifact"
        done
    } >"$result"
    return 1
}

# One target per core at a time (FUZZ_JOBS): each fuzzer is a single process on one core.
jobs=${FUZZ_JOBS:-$(nproc)}
mkdir -p "$run_folder/logs"
# The sound target writes each input to a file; keep those out of the shared /tmp.
export TMPDIR="$PWD/$run_folder/tmp"
mkdir -p "$TMPDIR"
declare -A running=()
failed=()
collect() { # waits for any one run to end and notes its failure
    local pid status=0
    wait -n -p pid "${!running[@]}" || status=$?
    [ "$status" -eq 0 ] || failed+=("${running[$pid]}")
    unset "running[$pid]"
}
for target in "${targets[@]}"; do
    while ((${#running[@]} >= jobs)); do collect; done
    fuzz_one "$target" &
    running[$!]=$target
done
while ((${#running[@]} > 0)); do collect; done
unset TMPDIR
for target in "${targets[@]}"; do
    case " ${failed[*]} " in *" $target "*) cat "$run_folder/logs/$target.result" >&2 ;; *) cat "$run_folder/logs/$target.result" ;; esac
done

if ((${#failed[@]} > 0)); then
    echo "fuzz: ${#failed[@]} of ${#targets[@]} targets did not pass: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} of ${#targets[@]} targets passed (${seconds} s each)"
