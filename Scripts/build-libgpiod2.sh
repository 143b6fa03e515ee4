#!/usr/bin/env bash
# Compiles hapticboard against libgpiod 2.x beside the system's libgpiod 1.x, so CI proves both GPIO
# shims build, and runs the Linux driver tests on the 2.x shim. Nothing is installed system-wide:
# Scripts/fetch-libgpiod2.sh unpacks the Debian <codename>-backports packages under .build-gpiod2/.
#
# It reuses the normal debug build (.build, or HAPTICBOARD_SCRATCH where the test command sets it)
# instead of building everything again: only the two GPIO shims' objects are recompiled, against
# the 2.x header (CPATH, which leaves every other compile command as it was, so nothing else
# rebuilds), and the executables relinked against the 2.x library. On exit the shims are
# recompiled against the system's header and everything relinked again, so the build is the
# normal 1.x build afterwards.
# Usage: Scripts/build-libgpiod2.sh
set -euo pipefail
cd "$(dirname "$0")/.."

work="$PWD/.build-gpiod2"
scratch="${HAPTICBOARD_SCRATCH:-$PWD/.build}"
in_scratch=(--scratch-path "$scratch")
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

# Both shims hold an #if on the header's version, so both are recompiled with each header.
forget_gpio_objects() { find "$scratch" -path '*/debug/CDrivers.build/gpio_libgpiod*.o' -delete 2> /dev/null || true; }
back_to_the_system_libgpiod() {
    say "back to the system's libgpiod $system_version in $scratch"
    forget_gpio_objects
    swift build --build-tests "${in_scratch[@]}" > /dev/null || fail "rebuilding against the system's libgpiod failed (run swift build --build-tests --scratch-path $scratch)"
}
trap back_to_the_system_libgpiod EXIT

# CPATH directories and -L come before the system ones, so the 2.x header and library win over
# /usr/include/gpiod.h and the system libgpiod.so.2.
say "swift build --build-tests against libgpiod 2.x (the GPIO shims recompiled, everything relinked)"
forget_gpio_objects
CPATH="$GPIOD2_INCLUDE${CPATH:+:$CPATH}" swift build --build-tests "${in_scratch[@]}" -Xlinker "-L$GPIOD2_LIBDIR"

binary="$scratch/debug/hapticboard"
[ -x "$binary" ] || fail "the build produced no $binary"
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(libgpiod[^]]*\)\].*/\1/p')
[ "$needed" = "libgpiod.so.3" ] || fail "$binary needs '${needed:-no libgpiod}', expected libgpiod.so.3"
undefined=$(nm -u "$binary")
grep -q ' gpiod_chip_request_lines$' <<<"$undefined" \
    || fail "$binary does not call gpiod_chip_request_lines: the 1.x shim was compiled"
say "verified: $(basename "$binary") links $needed and uses the libgpiod 2.x request API"

# The library is only unpacked, so the loader is pointed at it.
say "swift test --filter LinuxDriversTests against libgpiod 2.x"
LD_LIBRARY_PATH="$GPIOD2_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    swift test --skip-build "${in_scratch[@]}" --filter LinuxDriversTests
say "done: the package builds and its Linux driver tests pass against libgpiod 2.x"
