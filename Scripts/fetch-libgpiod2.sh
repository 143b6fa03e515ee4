#!/usr/bin/env bash
# Fetches libgpiod 2.x (header and library) without installing it: the Debian <codename>-backports
# packages are downloaded with a private apt state under .build-gpiod2/ and unpacked there with
# dpkg -x. Writes .build-gpiod2/paths.sh, which sets GPIOD2_INCLUDE (the directory of gpiod.h) and
# GPIOD2_LIBDIR (the directory of libgpiod.so.3 and its libgpiod.so link). A second run reuses the
# unpacked files. Used by Scripts/build-libgpiod2.sh and the kernel lane.
# Usage: Scripts/fetch-libgpiod2.sh
set -euo pipefail
cd "$(dirname "$0")/.."

work="$PWD/.build-gpiod2"
say() { echo "fetch-libgpiod2: $*"; }
fail() { echo "fetch-libgpiod2: error: $*" >&2; exit 1; }

if [ -r "$work/paths.sh" ]; then
    # shellcheck source=/dev/null
    . "$work/paths.sh"
    if [ -r "$GPIOD2_INCLUDE/gpiod.h" ] && [ -e "$GPIOD2_LIBDIR/libgpiod.so" ]; then
        say "reusing libgpiod 2.x unpacked in $work/root"
        exit 0
    fi
fi

# shellcheck source=Scripts/debian-archive.sh
. Scripts/debian-archive.sh
codename=$(debian_release_codename) || fail "cannot tell the Debian release"
backports="$codename-backports"
# The machine's own Debian entry, suite switched to backports, as a one-line sources.list: the
# one-line format reads the same in every apt version, whatever format the entry came from.
entries=$(debian_entries "$backports") || fail "no Debian entry to switch to $backports"

mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/apt/apt.conf.d" "$work/debs"
printf '%s\n' "$entries" > "$work/apt/sources.list"
# APT_CONFIG is read before /etc/apt/apt.conf.d, so pointing the parts directory at an empty private
# one keeps the system's update hooks (cache cleaners, appstream, PackageKit) from acting on system
# state. A proxy set in apt.conf.d is therefore not used: give it through http_proxy instead.
printf 'Dir::Etc::parts "%s";\n' "$work/apt/apt.conf.d" > "$work/apt/apt.conf"
export APT_CONFIG="$work/apt/apt.conf"
say "private apt source ($work/apt/sources.list):"
sed 's/^/    /' "$work/apt/sources.list"

apt_options=(
    -o "Dir::Etc::sourcelist=$work/apt/sources.list"
    -o "Dir::Etc::sourceparts=-"
    -o "Dir::State::Lists=$work/apt/lists"
    -o "Dir::Cache=$work/apt/cache"
    -o "APT::Sandbox::User=$(id -un)"
)
say "apt-get update (private state under $work/apt)"
apt-get "${apt_options[@]}" update -qq
say "apt-get download libgpiod-dev libgpiod3 from $backports"
(cd "$work/debs" && rm -f ./*.deb && apt-get "${apt_options[@]}" download -qq "libgpiod-dev/$backports" "libgpiod3/$backports")

root="$work/root"
rm -rf "$root"
for deb in "$work/debs"/*.deb; do
    say "unpacking $(basename "$deb")"
    dpkg -x "$deb" "$root"
done

header="$root/usr/include/gpiod.h"
[ -r "$header" ] || fail "the unpacked packages have no gpiod.h"
if grep -q GPIOD_LINE_BULK_MAX_LINES "$header"; then
    fail "$header is a libgpiod 1.x header, not 2.x"
fi
library=$(find "$root/usr/lib" -name 'libgpiod.so.3*' -print -quit)
[ -n "$library" ] || fail "the unpacked packages have no libgpiod.so.3"
library_dir=$(dirname "$library")
[ -e "$library_dir/libgpiod.so" ] || fail "no libgpiod.so link beside $library (libgpiod-dev missing?)"
printf 'GPIOD2_INCLUDE=%q\nGPIOD2_LIBDIR=%q\n' "$root/usr/include" "$library_dir" > "$work/paths.sh"
say "libgpiod 2.x header: $header"
say "libgpiod 2.x library: $library"
