#!/usr/bin/env bash
# Writes Packaging/hapticboard.order: the functions `hapticboard play` runs, for the linker to lay
# out together (lld's --symbol-ordering-file, set in Package.swift for the release command).
#
# Why: the kernel maps a binary's code into a process by the page, and with fault-around by 64 KB
# or more, so a resident page is whatever surrounds each function that ran. Scattered over 25 MB of
# code, the ~1 MB that `play` runs kept 11 MB of it resident; laid out together, 5–6 MB
# (docs/performance.md, "Resident memory"). The list is a profile, not a contract: a function
# missing from it (new code) still links and runs, it only sits elsewhere. Run this again when the
# test command's resident-memory check says so.
#
# How: a static release build of the command with each function in its own section, run under
# valgrind's callgrind on the simulated board (a ROM effect once and looping, Haptic Notation, an
# AHAP file with continuous events and curves); every function callgrind saw that the binary
# defines is listed, sorted. Needs valgrind (installed when missing).
#
# Usage: Scripts/make-order-file.sh [SECONDS]   the longest a run lasts (default 10; the looping one
#                                               lasts that long)
set -euo pipefail
export LC_ALL=C  # one sort order for sort and comm
cd "$(dirname "$0")/.."
seconds=${1:-10}
say() { echo "make-order-file: $*" >&2; }

Scripts/install-deps.sh valgrind binutils
if [ -n "${HAPTICBOARD_SCRATCH:-}" ]; then scratch=$HAPTICBOARD_SCRATCH/static; else scratch=.build-static; fi
say "swift build -c release --static-swift-stdlib (function sections) --product hapticboard"
swift build -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
    --scratch-path "$scratch" --product hapticboard >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/hapticboard-order.XXXXXX")
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 Swift writes; the symbol table is all it needs.
strip --strip-debug -o "$work/hapticboard" "$scratch/release/hapticboard"

profile() { # profile NAME ARGUMENTS...: runs `hapticboard ARGUMENTS` under callgrind
    local name=$1; shift
    say "callgrind: hapticboard $*"
    local status=0
    # A looping run is ended the way a user ends it, by SIGINT after SECONDS (valgrind hands the
    # signal to the program, which stops its actuator and exits 130).
    timeout --preserve-status -s INT "$seconds" valgrind --tool=callgrind --demangle=no \
        --callgrind-out-file="$work/$name.callgrind" "$work/hapticboard" "$@" > /dev/null 2> "$work/$name.log" || status=$?
    if [ "$status" -ne 0 ] && [ "$status" -ne 130 ]; then
        cat "$work/$name.log" >&2
        say "error: hapticboard $* under valgrind exited $status"
        exit 1
    fi
}
profile effect play --effect 47
profile notation play Examples/notation/success-confirmation.hnl
profile ahap play Examples/ahap/parameter-curves.ahap
profile loop play --effect 47 --loop

nm --defined-only "$work/hapticboard" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u > "$work/defined"
# callgrind names a function `fn=(ID) NAME` once, then by ID; a name may carry a `'2` recursion mark.
sed -n "s/^c\?fn=([0-9]*) \([^']*\).*/\1/p" "$work"/*.callgrind | sort -u > "$work/ran"
comm -12 "$work/ran" "$work/defined" > Packaging/hapticboard.order
say "Packaging/hapticboard.order: $(wc -l < Packaging/hapticboard.order) functions of $(wc -l < "$work/defined")"
