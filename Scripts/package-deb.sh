#!/usr/bin/env bash
# Builds dist/hapticboard_VERSION_ARCH.deb with dpkg-deb: the release command (Swift's standard
# library linked in statically, so the package needs no Swift runtime), the systemd unit with the
# sysusers, tmpfiles and udev rules from Packaging/, the simulated board as the default board file
# (/etc/hapticboard/board.yml, a conffile: replace it with your board's), every board of Boards/ as
# an example, bash/zsh/fish completions and a man page generated from --help (help2man).
# VERSION is what `hapticboard --version` prints; ARCH is dpkg's architecture of this machine.
#
# Usage: Scripts/package-deb.sh [--binary PATH]
#   --binary PATH  package this release binary instead of building one (the kernel lane's, which
#                  is built the same way: -c release --static-swift-stdlib against the system's
#                  libgpiod). Without it the binary is built in the kernel lane's scratch folder
#                  (.build-lane/swift), so a lane that ran already leaves only a relink to do.
# Prints the path of the package. Packaging notes and lintian's remarks: docs/packaging.md.
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$(pwd)
say() { echo "package-deb: $*" >&2; }
fail() { say "error: $*"; exit 1; }

binary=""
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary=${2:?--binary needs a path}; shift 2 ;;
        *) fail "unknown argument '$1' (usage: Scripts/package-deb.sh [--binary PATH])" ;;
    esac
done

Scripts/install-deps.sh help2man dpkg-dev fakeroot

if [ -z "$binary" ]; then
    scratch="$repository/.build-lane/swift"
    # The lane's scratch folder may hold GPIO objects compiled against libgpiod 2.x: compile them
    # again against the system's headers (see Tests/KernelLane/run.sh, step 3).
    find "$scratch" -name 'gpio_libgpiod*.o' -delete 2> /dev/null || true
    say "swift build -c release --static-swift-stdlib --product hapticboard"
    swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product hapticboard >&2
    binary="$scratch/release/hapticboard"
fi
[ -x "$binary" ] || fail "$binary is not an executable"

version=$("$binary" --version)
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] || fail "'$binary --version' printed '$version', not a Debian version"
arch=$(dpkg --print-architecture)
work=$(mktemp -d "${TMPDIR:-/tmp}/hapticboard-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
root="$work/root"

# Where Debian's packages put each thing (bookworm's systemd and udev: /lib; sysusers and
# tmpfiles: /usr/lib), and the unit run from /usr/bin rather than install-service.sh's /usr/local.
install -D -m 0755 "$binary" "$root/usr/bin/hapticboard"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/hapticboard"
install -d -m 0755 "$root/lib/systemd/system"
sed 's|/usr/local/bin/hapticboard|/usr/bin/hapticboard|g; s|Installed as /etc/systemd/system/hapticboard.service|Installed as /lib/systemd/system/hapticboard.service|' \
    Packaging/hapticboard.service > "$root/lib/systemd/system/hapticboard.service"
chmod 0644 "$root/lib/systemd/system/hapticboard.service"
install -D -m 0644 Packaging/hapticboard.sysusers "$root/usr/lib/sysusers.d/hapticboard.conf"
install -D -m 0644 Packaging/hapticboard.tmpfiles "$root/usr/lib/tmpfiles.d/hapticboard.conf"
install -D -m 0644 Packaging/60-hapticboard.rules "$root/lib/udev/rules.d/60-hapticboard.rules"
install -D -m 0644 Boards/sim.yml "$root/etc/hapticboard/board.yml"
install -d -m 0755 "$root/etc/hapticboard/library"
for board in Boards/*.yml; do install -D -m 0644 "$board" "$root/usr/share/hapticboard/boards/$(basename "$board")"; done

"$binary" --generate-completion-script bash > "$work/bash"
"$binary" --generate-completion-script zsh > "$work/zsh"
"$binary" --generate-completion-script fish > "$work/fish"
install -D -m 0644 "$work/bash" "$root/usr/share/bash-completion/completions/hapticboard"
install -D -m 0644 "$work/zsh" "$root/usr/share/zsh/vendor-completions/_hapticboard"
install -D -m 0644 "$work/fish" "$root/usr/share/fish/vendor_completions.d/hapticboard.fish"

# The man page: the command's --help, then each subcommand's as a section of its own.
{
    echo "[COMMANDS]"
    for command in $("$binary" --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ && seen { exit } on { seen = 1 }'); do
        echo ".SS $command"
        echo ".nf"
        "$binary" help "$command" | sed "s/\\\\/\\\\e/g; s/^\\([.']\\)/\\\\\\&\\1/"
        echo ".fi"
    done
    echo "[FILES]"
    echo "/etc/hapticboard/board.yml: the board the service drives (the simulated board until replaced)."
    echo ".br"
    echo "/usr/share/hapticboard/boards/: example boards."
    echo ".br"
    echo "/var/lib/hapticboard/calibration.json: stored calibration results."
} > "$work/man.include"
help2man --no-info --no-discard-stderr --section 1 --name "play haptic content on DRV2605-class and audio-driven actuators" \
    --include "$work/man.include" --output "$work/hapticboard.1" "$binary"
install -d -m 0755 "$root/usr/share/man/man1"
gzip -9n < "$work/hapticboard.1" > "$root/usr/share/man/man1/hapticboard.1.gz"
chmod 0644 "$root/usr/share/man/man1/hapticboard.1.gz"

doc="$root/usr/share/doc/hapticboard"
install -d -m 0755 "$doc"
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: hapticboard"
    echo ""
    echo "Files: *"
    echo "Copyright: the hapticboard authors"
    echo "License: Apache-2.0"
    echo " On Debian systems the full text of the Apache License 2.0 is in"
    echo " /usr/share/common-licenses/Apache-2.0."
    echo " ."
    sed 's/^$/./; s/^/ /' NOTICE
} > "$doc/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || date +%s)}")
printf 'hapticboard (%s) unstable; urgency=medium\n\n  * Built from %s.\n\n -- hapticboard maintainers <hapticboard@localhost>  %s\n' \
    "$version" "$(git describe --always --dirty 2> /dev/null || echo 'a source tree')" "$date" | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/copyright" "$doc/changelog.gz"

# The C libraries the binary links, as dpkg-shlibdeps finds their packages.
mkdir -p "$work/shlibs/debian"
printf 'Source: hapticboard\n\nPackage: hapticboard\nArchitecture: any\n' > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$root/usr/bin/hapticboard" 2> /dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || fail "dpkg-shlibdeps found no dependencies for $root/usr/bin/hapticboard"
# libsndfile is loaded at the first sound file (sound_file.c), so dpkg-shlibdeps does not see it.
case "$depends" in *libsndfile1*) ;; *) depends="$depends, libsndfile1" ;; esac
# Packed relative relocations (the release link, Package.swift) need glibc 2.36's loader, which
# dpkg-shlibdeps does not read from the binary's GLIBC_ABI_DT_RELR version: an older libc would
# install the package and then refuse to start it.
# (Read whole, then matched: grep -q quitting early could leave readelf to die of SIGPIPE, which
# pipefail would count as no match.)
dynamic_section=$(readelf -d "$root/usr/bin/hapticboard")
if grep -q '(RELR)' <<< "$dynamic_section"; then
    depends=$(echo "$depends" | sed -E 's/libc6 \(>= 2\.(3[0-5]|[12][0-9])[^)]*\)/libc6 (>= 2.36)/')
    case "$depends" in *"libc6 (>= 2.36)"*) ;; *) depends="$depends, libc6 (>= 2.36)" ;; esac
fi

install -d -m 0755 "$root/DEBIAN"
installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f 1)
cat > "$root/DEBIAN/control" << EOF
Package: hapticboard
Version: $version
Architecture: $arch
Maintainer: hapticboard maintainers <hapticboard@localhost>
Installed-Size: $installed_size
Depends: $depends, systemd | systemd-standalone-sysusers, systemd | systemd-standalone-tmpfiles
Section: misc
Priority: optional
Homepage: https://github.com/hapticboard/hapticboard
Description: haptics for embedded Linux: DRV2605 and audio-driven actuators
 hapticboard plays haptic content (AHAP, .haptic, Haptic Notation, note lists,
 sounds) with precise timing on linear resonant actuators and ERMs behind
 DRV2605-class I2C drivers with GPIO enable lines, and on actuators driven as
 audio through ALSA. The hapticboard service owns a board's actuators and
 serves requests on a Unix socket (HTTP and WebSocket).
 .
 The default board file is the simulated board: replace
 /etc/hapticboard/board.yml with your board's (examples in
 /usr/share/hapticboard/boards) and start the service.
EOF
echo "/etc/hapticboard/board.yml" > "$root/DEBIAN/conffiles"
cat > "$root/DEBIAN/postinst" << 'EOF'
#!/bin/sh
# The service's user and folders, device permissions; the unit is enabled but started only by the
# administrator, once /etc/hapticboard/board.yml names the real board.
set -e
if [ "$1" = configure ]; then
    for group in i2c gpio audio input; do
        getent group "$group" > /dev/null || addgroup --system "$group" > /dev/null
    done
    systemd-sysusers hapticboard.conf
    systemd-tmpfiles --create hapticboard.conf || true
    if [ -d /run/udev ]; then
        udevadm control --reload || true
        udevadm trigger --subsystem-match=i2c-dev --subsystem-match=gpio --subsystem-match=misc || true
    fi
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload > /dev/null || true
    fi
    deb-systemd-helper enable hapticboard.service > /dev/null || true
fi
EOF
cat > "$root/DEBIAN/prerm" << 'EOF'
#!/bin/sh
# The service stops its actuators and leaves them in standby on SIGTERM.
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    deb-systemd-invoke stop hapticboard.service > /dev/null || true
fi
EOF
cat > "$root/DEBIAN/postrm" << 'EOF'
#!/bin/sh
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload > /dev/null || true
fi
if [ "$1" = purge ]; then
    deb-systemd-helper purge hapticboard.service > /dev/null || true
fi
EOF
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"

mkdir -p dist
package="dist/hapticboard_${version}_${arch}.deb"
fakeroot dpkg-deb --build -Zxz --root-owner-group "$root" "$package" > /dev/null
say "built $package ($(du -h "$package" | cut -f 1)); depends: $depends"
echo "$package"
