#!/usr/bin/env bash
# Installs the Debian packages mlxcel builds and tests with. (libamdhip64-dev: Debian's HIP runtime,
# 5.2, which the ROCm diagnostics test expects IREE to find too old.) Idempotent: when everything is present
# it only checks (dpkg) and prints nothing.
#   scripts/install-deps.sh [--browser]
# --browser: instead, Chromium and its WebDriver, which only the chat page's test needs (kept out of
# `make run`: a browser is a large download a user of the engine does not need).
set -euo pipefail
pkgs=(gcc make pkg-config libjansson-dev libcmocka-dev libpcre2-dev libutf8proc-dev libmicrohttpd-dev clang libclang-rt-14-dev libamdhip64-dev)
[ "${1:-}" = --browser ] && pkgs=(chromium chromium-driver)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "mlxcel deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "mlxcel deps: need root to apt-get install ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
