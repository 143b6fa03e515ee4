#!/usr/bin/env bash
# Builds Examples/TestRigBus, a package that depends only on hapticboard's ActuatorHAL,
# HapticRuntime and HardwareMocks products, and checks that it links no C device library: its
# link command names none (-lgpiod, -li2c, -lasound, -lsndfile, -lsamplerate, -lkissfft), links
# no object of the Linux back end (CDrivers, ActuatorHALLinux), and the executable needs none of
# them at run time. Then runs it: a custom I2CBus on a test rig, the wire cut mid-play.
set -euo pipefail
cd "$(dirname "$0")/.."
# Its own build folder, or consumer/ under HAPTICBOARD_SCRATCH where the test command sets it.
scratch=$(realpath -m "${HAPTICBOARD_SCRATCH:-Examples/TestRigBus/.build}${HAPTICBOARD_SCRATCH:+/consumer}")
cd Examples/TestRigBus

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Relinked every time, so the link command is in the log.
rm -f "$scratch/debug/test-rig-bus"
if ! swift build -v --scratch-path "$scratch" >"$log" 2>&1; then
    cat "$log" >&2
    exit 1
fi
binary=$scratch/debug/test-rig-bus
device_libraries='gpiod|i2c|asound|sndfile|samplerate|kissfft'
link=$(grep -E -- "-o [^ ]*/test-rig-bus -module-name" "$log" | tail -1)
if [ -z "$link" ]; then
    echo "consumer package: no link command for test-rig-bus in the build log" >&2
    exit 1
fi
problems=0
if grep -Eo -- "-l ?($device_libraries)[^ ]*" <<<"$link"; then
    echo "consumer package: the link command names a device library (above)" >&2
    problems=1
fi
objects=$(grep -Eo '@[^ ]*LinkFileList' <<<"$link" | tr -d '@')
if grep -E '/(CDrivers|ActuatorHALLinux)\.build/' "$objects"; then
    echo "consumer package: the Linux back end's objects are linked (above)" >&2
    problems=1
fi
if readelf -d "$binary" | grep NEEDED | grep -E "lib($device_libraries)"; then
    echo "consumer package: the executable needs a device library at run time (above)" >&2
    problems=1
fi
[ "$problems" = 0 ] || exit 1
echo "consumer package: test-rig-bus links no device library ($(readelf -d "$binary" | grep -c NEEDED) NEEDED entries, none of $device_libraries)"
"$binary"
