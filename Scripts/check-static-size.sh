#!/usr/bin/env bash
# The footprint bound of docs/performance.md: the static, size-optimised release build a Raspberry
# Pi firmware makes of a program on hapticboard's libraries (ActuatorHAL, HapticRuntime — with the
# simulated board, HardwareMocks — here Examples/TestRigBus), stripped, must stay within 16 MiB.
# The build is the one docs/performance.md documents: static Swift libraries, -Osize, linked by lld
# with packed relative relocations (DT_RELR) and identical code folded. It stays within the bound
# as long as no library imports full Foundation: that would link ICU (34 MB) into it. Board files
# in YAML are BoardFiles' for that reason (Yams imports full Foundation).
set -euo pipefail
cd "$(dirname "$0")/.."

product=test-rig-bus
bound=$((16 * 1024 * 1024))
# The consumer package's build folder (Scripts/check-consumer-package.sh builds its debug side).
scratch=$(realpath -m "${HAPTICBOARD_SCRATCH:-Examples/TestRigBus/.build}${HAPTICBOARD_SCRATCH:+/consumer}")
swift build --package-path Examples/TestRigBus -c release --static-swift-stdlib -Xswiftc -Osize \
    -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --icf=all \
    --product "$product" --scratch-path "$scratch"
stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip -o "$stripped" "$scratch/release/$product"
size=$(stat -c %s "$stripped")
echo "static size: $product, stripped: $size bytes (bound $bound, $((bound - size)) to spare)" >&2
if [ "$size" -gt "$bound" ]; then
    echo "static size: over the bound by $((size - bound)) bytes; does a library import full Foundation?" >&2
    exit 1
fi
# The size means nothing if the program does not work: it plays, cuts its wire and checks the chip.
"$stripped"
