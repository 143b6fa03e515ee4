#!/usr/bin/env bash
# Compiles hapticboard against libgpiod 2.x beside the system's libgpiod 1.x, so CI proves both GPIO
# shims build. Nothing is installed system-wide: Scripts/fetch-libgpiod2.sh unpacks the Debian
# <codename>-backports packages under .build-gpiod2/, and SwiftPM builds in its own scratch path with
# that header and library ahead of the system's.
# Usage: Scripts/build-libgpiod2.sh
set -euo pipefail
cd "$(dirname "$0")/.."

work="$PWD/.build-gpiod2"
say() { echo "build-libgpiod2: $*"; }
fail() { echo "build-libgpiod2: error: $*" >&2; exit 1; }

system_version=$(pkg-config --modversion libgpiod 2>/dev/null || true)
if [[ "$system_version" =~ ^[2-9]\. ]]; then
    say "the system libgpiod is already $system_version (2.x); the normal build covers the 2.x shim, skipping"
    exit 0
fi

Scripts/fetch-libgpiod2.sh
# shellcheck source=/dev/null
. "$work/paths.sh"
say "libgpiod 2.x header: $GPIOD2_INCLUDE/gpiod.h"
say "libgpiod 2.x library directory: $GPIOD2_LIBDIR"

# -I and -L directories are searched before the system ones, so the 2.x header and library win
# over /usr/include/gpiod.h and the system libgpiod.so.2.
say "swift build --scratch-path $work/build against libgpiod 2.x"
swift build --scratch-path "$work/build" -Xcc "-I$GPIOD2_INCLUDE" -Xlinker "-L$GPIOD2_LIBDIR"

binary="$work/build/debug/hapticboard"
[ -x "$binary" ] || fail "the build produced no $binary"
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(libgpiod[^]]*\)\].*/\1/p')
[ "$needed" = "libgpiod.so.3" ] || fail "$binary needs '${needed:-no libgpiod}', expected libgpiod.so.3"
undefined=$(nm -u "$binary")
grep -q ' gpiod_chip_request_lines$' <<<"$undefined" \
    || fail "$binary does not call gpiod_chip_request_lines: the 1.x shim was compiled"
say "verified: $(basename "$binary") links $needed and uses the libgpiod 2.x request API"

# Run the driver tests on the 2.x shim too: the library is only unpacked, so the loader is pointed at it.
say "swift test --filter LinuxDriversTests against libgpiod 2.x"
swift build --scratch-path "$work/build" --build-tests -Xcc "-I$GPIOD2_INCLUDE" -Xlinker "-L$GPIOD2_LIBDIR"
LD_LIBRARY_PATH="$GPIOD2_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    swift test --scratch-path "$work/build" --skip-build --filter LinuxDriversTests
say "done: the package builds and its Linux driver tests pass against libgpiod 2.x"
