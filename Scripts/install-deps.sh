#!/usr/bin/env bash
# Installs the Debian packages hapticboard builds against, only those that are missing.
# Usage: Scripts/install-deps.sh [extra-package ...]
set -euo pipefail

packages=(libgpiod-dev libi2c-dev libasound2-dev libsndfile1-dev libsamplerate0-dev pkg-config "$@")

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]} > 0)); then
    echo "hapticboard: installing ${missing[*]}" >&2
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "hapticboard: error: no Swift toolchain on PATH; install Swift 6 (https://www.swift.org/install/linux/) and run again" >&2
    exit 1
fi
