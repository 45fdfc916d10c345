#!/usr/bin/env bash
# Debian packages used by the sandbox (bubblewrap) and the browser tests (chromium).
# Idempotent: installs only what is missing; needs root (or sudo) the first time.
set -euo pipefail
want=()
command -v bwrap >/dev/null 2>&1 || want+=(bubblewrap)
command -v chromium >/dev/null 2>&1 || want+=(chromium)
[ ${#want[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing Debian packages: ${want[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
