#!/usr/bin/env bash
# The footprint bound of docs/performance.md: the static, size-optimised release build a Raspberry
# Pi firmware makes of a program on hapticboard's libraries (ActuatorHAL, HapticRuntime — with the
# simulated board, HardwareMocks — here Examples/TestRigBus), stripped, must stay within 16 MiB.
# It does as long as no library imports full Foundation: that would link ICU (34 MB) into it. Not
# part of the test command while it fails: HapticRuntime now reads board files with Yams, which
# imports full Foundation (docs/performance.md, "Footprint").
set -euo pipefail
cd "$(dirname "$0")/.."

product=test-rig-bus
bound=$((16 * 1024 * 1024))
scratch=.build-static-size
swift build --package-path Examples/TestRigBus -c release --static-swift-stdlib -Xswiftc -Osize --product "$product" --scratch-path "$scratch"
stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip -o "$stripped" "$scratch/release/$product"
size=$(stat -c %s "$stripped")
echo "static size: $product, stripped: $size bytes (bound $bound)" >&2
if [ "$size" -gt "$bound" ]; then
    echo "static size: over the bound by $((size - bound)) bytes; does a library import full Foundation?" >&2
    exit 1
fi
