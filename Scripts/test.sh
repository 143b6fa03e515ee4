#!/usr/bin/env bash
# The whole test suite: installs what is missing, runs every XCTest on the simulated hardware
# (the examples included), builds the consumer package (Examples/TestRigBus) and checks that it
# links no C device library, compiles the C drivers against libgpiod 2.x as well as the system's
# 1.6, runs every libFuzzer target for a bounded time (Scripts/fuzz.sh; HAPTICBOARD_FUZZ_SECONDS
# each, built without optimisation, one per core at a time), runs the kernel lane
# (Tests/KernelLane/run.sh: the release binary against Debian's kernel under QEMU), and builds
# the Debian package and checks it in a scratch root (Scripts/package-deb.sh, check-package.sh).
# HAPTICBOARD_SKIP_LANE=1 skips the lane for a quick local run; CI always runs it.
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

step install-deps Scripts/install-deps.sh
step build swift build --build-tests
step unit-tests swift test --skip-build
step consumer-package Scripts/check-consumer-package.sh
step libgpiod2 Scripts/build-libgpiod2.sh
step fuzz env FUZZ_CONFIGURATION=debug Scripts/fuzz.sh all "${HAPTICBOARD_FUZZ_SECONDS:-20}"
package_from=()
if [ "${HAPTICBOARD_SKIP_LANE:-0}" = 1 ]; then
    echo "kernel lane: skipped (HAPTICBOARD_SKIP_LANE=1)" >&2
else
    step kernel-lane Tests/KernelLane/run.sh
    # The lane's release binary is the package's: the same flags, the system's libgpiod.
    package_from=(--binary .build-lane/binaries/libgpiod1/hapticboard)
fi
# The Debian package, unpacked into a scratch root and checked (docs/packaging.md).
package_and_check() { Scripts/check-package.sh "$(Scripts/package-deb.sh "${package_from[@]}")"; }
step package package_and_check
echo "test command: passed in $SECONDS s (${timings[*]/%/,})" | sed 's/,)$/)/' >&2
