#!/usr/bin/env bash
# The whole test suite: installs what is missing, runs every XCTest on the simulated hardware
# (the examples included), builds the consumer package (Examples/TestRigBus) and checks that it
# links no C device library and that its static release build stays within 16 MiB
# (Scripts/check-static-size.sh), compiles the C drivers against libgpiod 2.x as well as the system's
# 1.6, runs every libFuzzer target for a bounded time (Scripts/fuzz.sh; HAPTICBOARD_FUZZ_SECONDS
# each, built without optimisation), runs the kernel lane (Tests/KernelLane/run.sh: the release
# binary against Debian's kernel under QEMU), and builds the Debian package and checks it in a
# scratch root (Scripts/package-deb.sh, check-package.sh), and builds with Debian trixie's
# swiftlang 6.0.3 in a chroot, running the libraries' unit tests there (where the machine can and
# its dependency releases allow; Scripts/check-trixie-swiftlang.sh).
# HAPTICBOARD_SKIP_LANE=1 skips the lane for a quick local run; CI always runs it.
#
# The lane runs beside the other steps, its output kept in .build-lane/lane.log and printed when
# it ends: its guest is one emulated CPU, which leaves the second core of a 2-core machine idle
# for five minutes, and its release build is long. Run one after the other, the steps took 28 to
# 30 minutes of CI's budget; side by side, the machine's two cores stay busy. The lane's pass
# conditions do not depend on timing (its figures are printed, not judged), so a busy host slows
# it but cannot fail it. Three caches live outside the clone, so that CI's clean clones on one
# machine reuse them (a fresh machine fills them, about ten minutes more): the debug build the
# steps share (~/.cache/hapticboard/test-swift, HAPTICBOARD_SCRATCH: the fuzz build and the
# consumer package's build in folders under it), the lane's release build
# (~/.cache/hapticboard/lane-swift) and the trixie chroot (~/.cache/hapticboard/trixie-ARCH). A
# new clone compiles only the project's own modules in them: the dependencies' objects are
# reused, since their sources sit in the same place.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's time, printed as it ends and again at the end: CI has a budget (well under 30 min).
timings=()
step() { # step NAME COMMAND...: runs it, prints its time, returns its status
    local name=$1 began=$SECONDS status=0
    shift
    "$@" || status=$?
    timings+=("$name $((SECONDS - began)) s")
    echo "test command: $name took $((SECONDS - began)) s$([ "$status" = 0 ] || echo ", failed with $status")" >&2
    return "$status"
}

cache=${XDG_CACHE_HOME:-$HOME/.cache}/hapticboard
# The debug build, kept between clean clones; Scripts/build-libgpiod2.sh, fuzz.sh and
# check-consumer-package.sh build under it too.
export HAPTICBOARD_SCRATCH="${HAPTICBOARD_SCRATCH:-$cache/test-swift}"
scratch=(--scratch-path "$HAPTICBOARD_SCRATCH")

step install-deps Scripts/install-deps.sh
# Both the lane and the libgpiod2 step use the unpacked 2.x library: fetched once, before either.
step fetch-libgpiod2 Scripts/fetch-libgpiod2.sh
# Dependencies resolved once into SwiftPM's shared cache before two builds read it at once.
step resolve swift package resolve "${scratch[@]}"

lane_pid=
lane_log=.build-lane/lane.log
stop_lane() { # ends a lane still running (a failed step ends the test command), QEMU included
    [ -n "$lane_pid" ] && kill -- "-$lane_pid" 2>/dev/null || true
}
trap stop_lane EXIT
if [ "${HAPTICBOARD_SKIP_LANE:-0}" = 1 ]; then
    echo "kernel lane: skipped (HAPTICBOARD_SKIP_LANE=1)" >&2
else
    mkdir -p .build-lane
    lane_began=$SECONDS
    # The lane's release build, kept between clean clones (Tests/KernelLane/run.sh).
    export HAPTICBOARD_LANE_SCRATCH="${HAPTICBOARD_LANE_SCRATCH:-$cache/lane-swift}"
    # Its own session, so stop_lane reaches every process it started. The guest times the product
    # (EV_FF → bus, edge → bus, sound ↔ drive) on its own clock, which also counts the time the
    # emulated CPU's host thread waits for a core: beside a compiler or a fuzzer it lost the core
    # for a time slice in one play of thirty (4–6 ms, docs/force-feedback.md). So the lane's
    # session, a scheduling group of its own where the kernel groups by session (autogroup), takes
    # precedence over the other steps where the user may grant it (root; otherwise it shares the
    # cores as before, and its figures say so by their tail). Its pass conditions do not change.
    setsid bash -c 'if [ -w /proc/self/autogroup ]; then echo -10 2>/dev/null >/proc/self/autogroup; fi
        renice -n -10 -p $$ >/dev/null 2>&1
        exec Tests/KernelLane/run.sh' >"$lane_log" 2>&1 &
    lane_pid=$!
    echo "test command: kernel lane started beside the other steps; its output: $lane_log" >&2
fi
lane_running() { [ -n "$lane_pid" ] && kill -0 "$lane_pid" 2>/dev/null; }

step build swift build --build-tests "${scratch[@]}"
step libgpiod2 Scripts/build-libgpiod2.sh
step unit-tests swift test --skip-build "${scratch[@]}"
step consumer-package Scripts/check-consumer-package.sh
step static-size Scripts/check-static-size.sh
# One fuzzer at a time beside the lane's emulated CPU, one per core once the lane has ended.
fuzz_jobs=$(lane_running && echo 1 || nproc)
step fuzz env FUZZ_CONFIGURATION=debug FUZZ_JOBS="${FUZZ_JOBS:-$fuzz_jobs}" Scripts/fuzz.sh all "${HAPTICBOARD_FUZZ_SECONDS:-20}"
# Debian trixie's Swift 6.0.3 (what Pi OS users get from apt), in a chroot cached outside the clone.
step trixie-swiftlang env HAPTICBOARD_TRIXIE=auto Scripts/check-trixie-swiftlang.sh

package_from=()
if [ -n "$lane_pid" ]; then
    lane_status=0
    wait "$lane_pid" || lane_status=$?
    lane_pid=
    echo "test command: the kernel lane's output:" >&2
    cat "$lane_log" >&2
    timings+=("kernel-lane $((SECONDS - lane_began)) s (beside the steps above)")
    echo "test command: kernel-lane took $((SECONDS - lane_began)) s$([ "$lane_status" = 0 ] || echo ", failed with $lane_status")" >&2
    [ "$lane_status" = 0 ] || exit "$lane_status"
    # The lane's release binary is the package's: the same flags, the system's libgpiod.
    package_from=(--binary .build-lane/binaries/libgpiod1/hapticboard)
fi
# The Debian package, unpacked into a scratch root and checked (docs/packaging.md).
package_and_check() { Scripts/check-package.sh "$(Scripts/package-deb.sh "${package_from[@]}")"; }
step package package_and_check
echo "test command: passed in $SECONDS s (${timings[*]/%/,})" | sed 's/,)$/)/' >&2
