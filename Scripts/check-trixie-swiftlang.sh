#!/usr/bin/env bash
# Builds hapticboard and runs its unit tests with the Swift that Raspberry Pi OS trixie users get
# from apt: Debian trixie's `swiftlang` (6.0.3), with trixie's own libgpiod 2.x, libi2c, ALSA,
# libsndfile, libsamplerate and kissfft, in a debootstrapped trixie chroot of this machine's
# architecture (amd64 here: the same compiler version as trixie's arm64 package).
#
# The chroot and its build folder are kept outside the clone (HAPTICBOARD_TRIXIE_CACHE, default
# ~/.cache/hapticboard/trixie-ARCH), so a clean clone reuses them: the first run downloads about
# 500 MB and builds everything; later runs copy the sources in and rebuild what changed.
# Debian packages come from the mirror this machine's apt already uses (Scripts/debian-archive.sh);
# Swift packages from the addresses Package.swift names, through this machine's git settings (a
# `url.<base>.insteadOf` to a local folder is bind-mounted into the chroot and set there too).
#
# Where the machine's package source offers only dependency releases that need a newer Swift (CI's
# machines), the whole package cannot resolve with 6.0.3; the libraries and their unit tests are
# then built from those releases' sources under a manifest for 6.0 (Scripts/trixie-manifest.swift).
#
# It needs root (debootstrap, chroot, mounts). Where the machine cannot run it (not root, no
# debootstrap to install) it says why and exits 0 with HAPTICBOARD_TRIXIE=auto (the test command's
# setting); HAPTICBOARD_TRIXIE=required (the default when run by hand) makes that a failure.
# Usage: Scripts/check-trixie-swiftlang.sh
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "trixie-swiftlang: $*" >&2; }
fail() { say "error: $*"; exit 1; }
cannot() {
    if [ "${HAPTICBOARD_TRIXIE:-required}" = auto ]; then
        say "skipped: $*"
        exit 0
    fi
    fail "$*"
}

[ "$(id -u)" = 0 ] || cannot "needs root for debootstrap and chroot"
command -v debootstrap >/dev/null || Scripts/install-deps.sh debootstrap >&2 || cannot "debootstrap cannot be installed"
[ -r /usr/share/debootstrap/scripts/trixie ] || cannot "this debootstrap does not know trixie"

arch=$(dpkg --print-architecture)
cache=${HAPTICBOARD_TRIXIE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hapticboard/trixie-$arch}
root="$cache/root"
packages=(swiftlang libc6-dev pkg-config git ca-certificates
    libgpiod-dev libi2c-dev libasound2-dev libsndfile1-dev libsamplerate0-dev libkissfft-dev)

mounted=()
unmount_all() {
    local index
    for ((index = ${#mounted[@]} - 1; index >= 0; index--)); do
        umount -l "${mounted[$index]}" 2>/dev/null || true
    done
}
trap unmount_all EXIT
mount_into() { # mount_into TARGET MOUNT-ARGS...: mounts inside the chroot, undone on exit
    local target="$root$1"
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounted+=("$target")
}

# Mounts a killed run left behind (its exit trap never ran) are undone first, so nothing below
# removes or copies into the host's /dev.
for stale in $(awk -v root="$root/" 'index($5, root) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
    umount -l "$stale" 2>/dev/null || true
done

# 1. The chroot: debootstrapped once; a cut-short first run (no marker) starts again. Where the
# machine cannot make one (no room, no mirror, no network) the check cannot run here, which is
# not a fault of the project's.
if [ ! -e "$cache/ready" ]; then
    # shellcheck source=Scripts/debian-archive.sh
    . Scripts/debian-archive.sh
    mirror=$(debian_mirror) || cannot "no Debian archive in this machine's apt sources"
    mkdir -p "$cache"
    free_kib=$(df -Pk "$cache" | awk 'NR == 2 { print $4 }')
    [ "$free_kib" -ge $((5 * 1024 * 1024)) ] || cannot "the chroot needs about 5 GB and $cache has $((free_kib / 1024)) MB free"
    rm -rf --one-file-system "$root"
    say "debootstrap trixie ($arch) from this machine's Debian mirror into $root"
    debootstrap --variant=minbase --arch="$arch" trixie "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
        || { tail -n 20 "$cache/debootstrap.log" >&2; cannot "debootstrap failed (log: $cache/debootstrap.log)"; }
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    say "apt-get install ${packages[*]}"
    chroot "$root" apt-get -o Dpkg::Use-Pty=0 install -y -q --no-install-recommends "${packages[@]}" \
        >"$cache/apt.log" 2>&1 || { tail -n 20 "$cache/apt.log" >&2; cannot "apt-get install in the chroot failed (log: $cache/apt.log)"; }
    touch "$cache/ready"
fi

# 2. What the build needs from the host: /proc (the toolchain finds its libraries through
# /proc/self/exe), /dev, and the folders git's url rewrites point at.
mount_into /proc -t proc proc
mount_into /dev --rbind /dev
# libgpiod 2.2 tells a GPIO chip from another character device through /sys (a test opens
# /dev/null as a chip and expects "not a GPIO chip", not "no such line").
mount_into /sys --rbind /sys
: > "$root/etc/gitconfig"
while read -r key value; do
    base=${key#url.}
    base=${base%.insteadof}
    if [ -d "$base" ]; then
        mount_into "$base" --bind -o ro "$base"
    fi
    chroot "$root" git config --system --add "url.$base.insteadOf" "$value"
done < <(git config --system --get-regexp '^url\..*\.insteadof$' || true; git config --global --get-regexp '^url\..*\.insteadof$' || true)

# 3. The sources: every file git knows or would add, copied with their times, so the cached build
# recompiles only what changed since the last run.
rm -rf "$root/src"
mkdir -p "$root/src"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$root/src"

say "$(chroot "$root" swift --version 2>&1 | head -n 1); libgpiod $(chroot "$root" pkg-config --modversion libgpiod)"
in_chroot() {
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        bash -c "cd /src && $1"
}
# Every project source parsed by 6.0.3's compiler: syntax newer than Swift 6.0 (trailing commas in
# argument lists, newer attributes) fails here whatever the dependencies allow. One compiler run per
# folder (file names repeat across folders, never within one).
syntax_check() {
    local problems
    problems=$(in_chroot 'find Sources Tests Examples HardwareMocks -name "*.swift" -not -path "*/.build/*" -printf "%h\n" \
        | sort -u | while read -r folder; do
            find "$folder" -maxdepth 1 -name "*.swift" -print0 | xargs -0 -r swiftc -parse -swift-version 6 2>&1
        done' || true)
    if [ -n "$problems" ]; then
        printf '%s\n' "$problems" | head -n 40 >&2
        fail "project sources use syntax Swift 6.0.3 does not know"
    fi
    say "syntax: every project source parses with Swift 6.0.3"
}
syntax_check

# run_tests FOLDER SCRATCH WHAT LOG: the unit tests built in the chroot's SCRATCH, run; their
# summary printed (XCTest's and Swift Testing's).
run_tests() {
    say "swift test of $3 (log: $4)"
    if ! in_chroot "cd $1 && swift test --skip-build --scratch-path $2" >"$4" 2>&1; then
        grep -E 'error|failed' "$4" | head -n 40 >&2
        fail "$3: unit tests failed with trixie's swiftlang (log: $4)"
    fi
    grep -E "^[[:space:]]*Executed|Test run with" "$4" | tail -n 2 >&2
}

# sync_changed FROM TO: makes TO hold FROM's files, copying only those whose content differs (their
# time is then now) and removing those FROM lacks, so SwiftPM rebuilds only what changed, even from
# a fresh clone whose every file is new.
sync_changed() {
    local file
    mkdir -p "$2"
    while IFS= read -r -d '' file; do
        if ! cmp -s "$1/$file" "$2/$file"; then
            mkdir -p "$(dirname "$2/$file")"
            cp "$1/$file" "$2/$file"
        fi
    done < <(cd "$1" && find . -type f -print0)
    while IFS= read -r -d '' file; do
        [ -e "$1/$file" ] || rm -f "$2/$file"
    done < <(cd "$2" && find . -type f -print0)
}

# The libraries and their unit tests, built by 6.0.3 from the sources of the dependency releases
# this machine resolves, under one manifest for Swift 6.0 written from the project's and those
# releases' own (Scripts/trixie-manifest.swift). The command and its tests are left out: swift-nio
# builds, but the newest Hummingbird stack needs 6.1/6.2 in ways no spelling change undoes
# (swift-service-lifecycle's `nonisolated(nonsending)` functions, swift-http-types' typed throws).
# For a machine whose package source offers only dependency releases that need a newer Swift.
library_check() {
    local host_scratch="${HAPTICBOARD_SCRATCH:-.build}" staging="$cache/staging" name
    swift package resolve --scratch-path "$host_scratch" >/dev/null 2>&1 \
        || cannot "the dependencies do not resolve on this machine either"
    # The package as 6.0.3 builds it: the project's files, the manifest, and Vendor/NAME/Sources.
    rm -rf "$staging"
    mkdir -p "$staging/Vendor"
    git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$staging"
    swift Scripts/trixie-manifest.swift . "$host_scratch/checkouts" --without hapticboard >"$staging/Package.swift" \
        || fail "could not write the Swift 6.0 manifest (Scripts/trixie-manifest.swift)"
    for name in $(grep -o 'Vendor/[^/]*' "$staging/Package.swift" | sort -u | cut -d/ -f2); do
        mkdir -p "$staging/Vendor/$name"
        cp -a "$host_scratch/checkouts/$name/Sources" "$staging/Vendor/$name/"
    done
    # The newest swift-log and swift-system are written for Swift 6.1/6.2. Three spellings are
    # rewritten for 6.0 in this copy (what they mean does not change what the project's code can
    # call): a trailing comma before a closing bracket, `nonisolated(nonsending)` (6.2's default
    # for their async functions), and `#if _runtime(_multithreaded)` (true on Linux).
    find "$staging/Vendor" -name '*.swift' -print0 | xargs -0 -r sed -i 's/_runtime(_multithreaded)/true/g; s/nonisolated(nonsending)[[:space:]]*//g'
    find "$staging/Vendor" -name '*.swift' -print0 | xargs -0 -r perl -0pi -e 's/,(\s*\n\s*[)\]])/$1/g'
    sync_changed "$staging" "$root/src-libraries"

    say "swift build --build-tests of the libraries (log: $cache/library-build.log)"
    if ! in_chroot "cd /src-libraries && swift build --build-tests --scratch-path /build-libraries" >"$cache/library-build.log" 2>&1; then
        local errors
        errors=$(grep -E '^/src-libraries/[^ ]*: error:' "$cache/library-build.log" | sort -u)
        if [ -n "$errors" ] && ! printf '%s\n' "$errors" | grep -qv '^/src-libraries/Vendor/'; then
            printf '%s\n' "$errors" | head -n 10 >&2
            cannot "the dependency sources this machine offers use more of Swift 6.1/6.2 than the three rewrites cover; the project's own sources were not reached (log: $cache/library-build.log)"
        fi
        printf '%s\n' "${errors:-$(tail -n 20 "$cache/library-build.log")}" | head -n 40 >&2
        fail "the libraries or their tests do not build with trixie's swiftlang (log: $cache/library-build.log)"
    fi
    run_tests /src-libraries /build-libraries "the libraries" "$cache/library-test.log"
    say "passed: the libraries and their unit tests with $(chroot "$root" swift --version 2>&1 | head -n 1); the command was not built (its dependencies need a newer Swift)"
}

# Resolution picks, for each dependency, the newest version whose manifest this Swift can read.
# Where the package source offers only versions that need a newer Swift (a mirror holding one
# version of each package, as CI's machines do), the whole package cannot be built with 6.0.3
# here: the libraries are, from those versions' sources (above).
if ! in_chroot "swift package resolve --scratch-path /build" >"$cache/resolve.log" 2>&1; then
    if grep -q 'incompatible tools version' "$cache/resolve.log"; then
        offered=$(grep -o "'[^']*' [0-9.]* contains incompatible tools version ([0-9.]*)" "$cache/resolve.log" | sort -u)
        say "the dependency versions this machine's package source offers need a newer Swift than 6.0.3 (a machine that reaches GitHub resolves older releases); SwiftPM stops at the first it meets: $offered"
        library_check
        exit 0
    fi
    tail -n 20 "$cache/resolve.log" >&2
    fail "swift package resolve failed with trixie's swiftlang (log: $cache/resolve.log)"
fi
say "swift build --build-tests (log: $cache/build.log)"
if ! in_chroot "swift build --build-tests --scratch-path /build" >"$cache/build.log" 2>&1; then
    grep -E 'error:' "$cache/build.log" | sort -u | head -n 40 >&2
    fail "the package does not build with trixie's swiftlang (log: $cache/build.log)"
fi
run_tests /src /build "the package" "$cache/test.log"
say "passed with $(chroot "$root" swift --version 2>&1 | head -n 1)"
