#!/usr/bin/env bash
# Compiles hapticboard against libgpiod 2.x beside the system's libgpiod 1.x, so CI proves both GPIO
# shims build. Nothing is installed system-wide: the Debian <codename>-backports packages are fetched
# with a private apt state under .build-gpiod2/, unpacked with dpkg -x, and SwiftPM builds in its own
# scratch path with that header and library ahead of the system's.
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

[ -r /etc/os-release ] || fail "no /etc/os-release: cannot tell which Debian release this is"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || fail "/etc/os-release has no VERSION_CODENAME"
backports="$codename-backports"
say "system libgpiod ${system_version:-unknown}; fetching libgpiod 2.x from $backports"

# The machine's own Debian entry, suite switched to backports, as a one-line sources.list: the
# one-line format reads the same in every apt version, whatever format the entry came from.
debian_entry_from_deb822() {
    awk -v codename="$codename" -v backports="$backports" '
        function flush() {
            if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " codename " ") && enabled != "no") {
                n = split(uris, uri_list, " ")
                for (i = 1; i <= n; i++) {
                    options = signed_by != "" ? "[signed-by=" signed_by "] " : ""
                    print "deb " options uri_list[i] " " backports " " components
                }
            }
            types = uris = suites = components = signed_by = enabled = ""
        }
        /^[ \t]*#/ { next }
        /^[ \t]*$/ { flush(); next }
        {
            key = $1; sub(/:$/, "", key); value = $0; sub(/^[^:]*:[ \t]*/, "", value)
            if (key == "Types") types = value
            else if (key == "URIs") uris = value
            else if (key == "Suites") suites = value
            else if (key == "Components") components = value
            else if (key == "Signed-By") signed_by = value
            else if (key == "Enabled") enabled = value
        }
        END { flush() }
    ' "$1"
}

debian_entry_from_list() {
    awk -v codename="$codename" -v backports="$backports" '
        $1 != "deb" { next }
        {
            # deb [options] URI suite components: the suite follows the URI, after any [options].
            options_end = 1
            if ($2 ~ /^\[/) { options_end = 2; while (options_end < NF && $options_end !~ /\]$/) options_end++ }
            suite_field = options_end + 2
            if ($suite_field == codename) { $suite_field = backports; print }
        }
    ' "$1"
}

# Raspberry Pi OS lists its own archive beside Debian's; that archive has no backports suite.
only_debian_archives() { grep -v -e 'raspberrypi\.\(com\|org\)' -e 'raspbian' | awk '!seen[$0]++' || true; }

entries=""
if [ -r /etc/apt/sources.list.d/debian.sources ]; then
    entries=$(debian_entry_from_deb822 /etc/apt/sources.list.d/debian.sources | only_debian_archives)
fi
if [ -z "$entries" ] && [ -r /etc/apt/sources.list ]; then
    entries=$(debian_entry_from_list /etc/apt/sources.list | only_debian_archives)
fi
[ -n "$entries" ] || fail "found no Debian '$codename' entry in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"

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
say "libgpiod 2.x header: $header"
say "libgpiod 2.x library: $library"

# -I and -L directories are searched before the system ones, so the 2.x header and library win
# over /usr/include/gpiod.h and the system libgpiod.so.2.
say "swift build --scratch-path $work/build against libgpiod 2.x"
swift build --scratch-path "$work/build" -Xcc "-I$root/usr/include" -Xlinker "-L$library_dir"

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
swift build --scratch-path "$work/build" --build-tests -Xcc "-I$root/usr/include" -Xlinker "-L$library_dir"
LD_LIBRARY_PATH="$library_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    swift test --scratch-path "$work/build" --skip-build --filter LinuxDriversTests
say "done: the package builds and its Linux driver tests pass against libgpiod 2.x"
