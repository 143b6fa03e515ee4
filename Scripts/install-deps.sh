#!/usr/bin/env bash
# Installs the Debian packages hapticboard builds against, only those that are missing.
# Usage: Scripts/install-deps.sh [extra-package ...]
# An extra package given as NAME=VERSION counts as missing unless NAME is installed at exactly that
# version, and is then installed at it (down from a newer one if need be).
#
# apt's output is kept in a log and shown only when something fails: then the error lines of apt
# and dpkg and the package dpkg was working on are printed, `dpkg --configure -a` finishes whatever
# an interrupted or failed configuration left half done, and the install is tried once more before
# the script gives up with a non-zero exit.
set -euo pipefail

packages=(libgpiod-dev libi2c-dev libasound2-dev libsndfile1-dev libsamplerate0-dev libkissfft-dev pkg-config "$@")

say() { echo "hapticboard: $*" >&2; }

# installed_as_asked NAME[=VERSION]: whether NAME is installed (at VERSION when one is given).
installed_as_asked() {
    local name=${1%%=*} status
    status=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null) || return 1
    [[ $status == "install ok installed "* ]] || return 1
    [[ $1 != *=* ]] || [ "${status##* }" = "${1#*=}" ]
}

missing=()
for package in "${packages[@]}"; do
    installed_as_asked "$package" || missing+=("$package")
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
log=$(mktemp "${TMPDIR:-/tmp}/hapticboard-apt.XXXXXX")
trap 'rm -f "$log"' EXIT
# No progress bars in the log; wait for another apt (unattended upgrades) instead of failing on its lock.
apt_options=(-o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=300)

# The lines of the log that say what went wrong, and the package dpkg was on when it did.
report_failure() { # report_failure WHAT
    say "error: $1 failed; apt and dpkg said:"
    local errors package
    errors=$(grep -E '^(E|W): |^dpkg: |^Errors were encountered|^ [^ ]+$|[Ee]rror' "$log" | tail -n 25 || true)
    # Without recognisable error lines, the end of the output is the best account there is.
    [ -n "$errors" ] || errors=$(tail -n 15 "$log")
    sed 's/^/    /' <<<"$errors" >&2
    package=$(grep -oE "^dpkg: error processing (package|archive) [^ ]+" "$log" | tail -n 1 | awk '{print $NF}' || true)
    [ -n "$package" ] || package=$(grep -oE '^(Setting up|Unpacking|Preparing to unpack [^ ]*) [^ ]+' "$log" | tail -n 1 | awk '{print $NF}' || true)
    if [ -n "$package" ]; then say "the package being installed was: $package"; fi
}

# run_logged WHAT COMMAND...: runs COMMAND with its output in the log; on failure reports and returns 1.
run_logged() {
    local what=$1; shift
    if DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" "$@" > "$log" 2>&1; then return 0; fi
    report_failure "$what"
    return 1
}

if ((${#missing[@]} > 0)); then
    say "installing ${missing[*]}"
    run_logged "apt-get update" apt-get "${apt_options[@]}" update -q || exit 1
    # Downgrades are allowed only because a NAME=VERSION may ask for one; without versions apt never downgrades.
    install=(apt-get "${apt_options[@]}" install -y -q --no-install-recommends --allow-downgrades "${missing[@]}")
    if ! run_logged "apt-get install ${missing[*]}" "${install[@]}"; then
        say "finishing any half-configured packages (dpkg --configure -a) and trying once more"
        run_logged "dpkg --configure -a" dpkg --configure -a || true
        run_logged "apt-get install ${missing[*]} (second try)" "${install[@]}" || {
            say "error: could not install ${missing[*]}; the lines above say why"
            exit 1
        }
    fi
fi

if ! command -v swift >/dev/null 2>&1; then
    say "error: no Swift toolchain on PATH; install Swift 6 (https://www.swift.org/install/linux/) and run again"
    exit 1
fi
