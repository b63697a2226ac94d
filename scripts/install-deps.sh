#!/usr/bin/env bash
# Installs the Debian packages the project needs (SQLite, systemd and zlib headers: zlib for the
# server's gzip, which compress-nio links; socat, curl, jq),
# and any packages named as arguments (.ci/run adds the test tools). Does nothing when they are all
# present; uses sudo when not root.
set -euo pipefail
PACKAGES=(libsqlite3-dev libsystemd-dev zlib1g-dev systemd socat curl jq "$@")
missing=()
for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "==> installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
