#!/usr/bin/env bash
# Installs hapticboard as a system service on this machine (a Raspberry Pi, typically): builds the
# release command, installs it, the systemd unit, the sysusers/tmpfiles/udev rules, and an empty
# content library, then starts the service. Needs root (runs through sudo when not root). The
# board file must be /etc/hapticboard/board.yml (copy one from Boards/ and check it first with
# `hapticboard boards check`).
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo

swift build -c release --product hapticboard
$sudo install -m 0755 .build/release/hapticboard /usr/local/bin/hapticboard
$sudo install -m 0644 Packaging/hapticboard.service /etc/systemd/system/hapticboard.service
$sudo install -m 0644 Packaging/hapticboard.sysusers /usr/lib/sysusers.d/hapticboard.conf
$sudo install -m 0644 Packaging/hapticboard.tmpfiles /usr/lib/tmpfiles.d/hapticboard.conf
$sudo install -m 0644 Packaging/60-hapticboard.rules /etc/udev/rules.d/60-hapticboard.rules
for group in i2c gpio audio input; do getent group "$group" >/dev/null || $sudo groupadd --system "$group"; done
$sudo systemd-sysusers /usr/lib/sysusers.d/hapticboard.conf
$sudo systemd-tmpfiles --create /usr/lib/tmpfiles.d/hapticboard.conf
$sudo install -d -m 0755 /etc/hapticboard/library
$sudo udevadm control --reload
$sudo udevadm trigger --subsystem-match=i2c-dev --subsystem-match=gpio --subsystem-match=misc
[ -f /etc/hapticboard/board.yml ] || { echo "install-service: put your board file at /etc/hapticboard/board.yml, then: sudo systemctl enable --now hapticboard" >&2; exit 0; }
/usr/local/bin/hapticboard boards check /etc/hapticboard/board.yml
$sudo systemctl daemon-reload
$sudo systemctl enable --now hapticboard
echo "hapticboard: serving on /run/hapticboard/hapticboard.sock; add yourself to its group: sudo usermod -aG hapticboard \$USER" >&2
