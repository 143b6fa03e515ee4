#!/usr/bin/env bash
# Checks a package Scripts/package-deb.sh built: unpacks it into a scratch root (dpkg -x) and
# checks that every file lands where the systemd unit and systemd's own search paths expect it:
# the unit's ExecStart binary (and that it runs), the board file and library the ExecStart names,
# the sysusers, tmpfiles and udev rules where systemd and udev read packaged ones, completions,
# the man page, the conffile; then the control fields and, when lintian is installed, lintian.
# Usage: Scripts/check-package.sh dist/hapticboard_VERSION_ARCH.deb
set -euo pipefail
cd "$(dirname "$0")/.."
package=${1:?usage: Scripts/check-package.sh PACKAGE.deb}
say() { echo "check-package: $*" >&2; }
failures=0
check() { # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@" > /dev/null 2>&1; then say "ok: $what"; else say "FAILED: $what"; failures=$((failures + 1)); fi
}

root=$(mktemp -d "${TMPDIR:-/tmp}/hapticboard-root.XXXXXX")
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$package" "$root"
control=$(dpkg-deb -f "$package")

unit="$root/lib/systemd/system/hapticboard.service"
check "the unit is in /lib/systemd/system" test -f "$unit"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
binary=${exec_start%% *}
check "ExecStart's binary $binary is in the package and executable" test -x "$root$binary"
check "the packaged binary runs (--version)" "$root$binary" --version
check "the binary's version is the package's" test "$("$root$binary" --version)" = "$(dpkg-deb -f "$package" Version)"
for option in --board --library; do
    path=$(sed -n "s/.* $option \([^ ]*\).*/\1/p" <<< "$exec_start")
    check "ExecStart's $option $path is in the package" test -e "$root$path"
done
check "the default board file parses: boards check" "$root$binary" boards check "$root/etc/hapticboard/board.yml"
socket=$(sed -n 's/.* --socket \([^ ]*\).*/\1/p' <<< "$exec_start")
runtime=$(sed -n 's/^RuntimeDirectory=//p' "$unit")
check "the socket $socket is in the unit's RuntimeDirectory /run/$runtime" test "$(dirname "$socket")" = "/run/$runtime"
check "the unit runs as the user sysusers creates" grep -q "^u $(sed -n 's/^User=//p' "$unit") " "$root/usr/lib/sysusers.d/hapticboard.conf"
check "tmpfiles makes the runtime folder" grep -q "^d /run/$runtime " "$root/usr/lib/tmpfiles.d/hapticboard.conf"
check "the udev rules are where udev reads packaged rules" test -f "$root/lib/udev/rules.d/60-hapticboard.rules"
check "the board file is a conffile" grep -qx /etc/hapticboard/board.yml <(dpkg-deb -I "$package" conffiles)
check "bash completion" grep -q hapticboard "$root/usr/share/bash-completion/completions/hapticboard"
check "zsh completion" grep -q '#compdef hapticboard' "$root/usr/share/zsh/vendor-completions/_hapticboard"
check "fish completion" grep -Eq "complete -c '?hapticboard" "$root/usr/share/fish/vendor_completions.d/hapticboard.fish"
check "the man page names every subcommand" bash -c "zcat '$root/usr/share/man/man1/hapticboard.1.gz' | grep -q '^\.SS serve' && zcat '$root/usr/share/man/man1/hapticboard.1.gz' | grep -q '^\.SS calibrate'"
check "copyright and changelog" test -f "$root/usr/share/doc/hapticboard/copyright" -a -f "$root/usr/share/doc/hapticboard/changelog.gz"
check "Depends names libgpiod and libasound" grep -Eq '^Depends: .*libgpiod.*' <<< "$control"
check "the binary needs no Swift runtime library" bash -c "! readelf -d '$root$binary' | grep -q 'libswift'"
check "the maintainer scripts parse" bash -c "for script in postinst prerm postrm; do dpkg-deb --ctrl-tarfile '$package' | tar -xO ./\$script | sh -n || exit 1; done"
if command -v systemd-analyze > /dev/null; then
    check "systemd-analyze verifies the packaged unit" bash -c "sed 's|^ExecStart=/usr/bin/hapticboard|ExecStart=$root/usr/bin/hapticboard|' '$unit' > '$root/hapticboard.service' && systemd-analyze verify --man=no '$root/hapticboard.service'"
fi
Scripts/install-deps.sh lintian
if command -v lintian > /dev/null; then
    # Each remark lintian still makes is explained in docs/packaging.md; any other fails.
    remarks=$(lintian --no-tag-display-limit "$package" 2>&1 | grep -E '^[EW]: ' | sed 's/^[EW]: hapticboard[^:]*: //' | cut -d ' ' -f 1 | sort -u || true)
    unexplained=""
    for tag in $remarks; do grep -q "\`$tag\`" docs/packaging.md || unexplained="$unexplained $tag"; done
    check "lintian: no error or warning unexplained in docs/packaging.md${unexplained:+ (unexplained:$unexplained)}" test -z "$unexplained"
else
    say "lintian is not installed: skipped (Scripts/install-deps.sh lintian)"
fi
[ $failures = 0 ] || { say "$failures check(s) failed for $package"; exit 1; }
say "all checks passed for $package"
