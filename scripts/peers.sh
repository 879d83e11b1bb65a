#!/usr/bin/env bash
# What tests and benchmarks drive and that comes from Debian rather than PyPI: GNU
# Backgammon (gnubg), Stockfish (the UCI engine the `uci` tests host and the chess benchmark
# plays), PolyGlot (a UCI host for the bridge's tests), Chromium (the web page's tests) and
# nginx (the proxy in front of `kibitz cluster`).
# Installs what is missing when it can (as root, or with passwordless sudo). What is still
# missing afterwards is named; the tests that need it then skip, saying so, except with
# KIBITZ_STRICT=1 (as .ci/run sets it): then a missing peer fails this script.
set -uo pipefail

# The peers: Debian package, then the program it installs.
PEERS=(
  "gnubg /usr/games/gnubg"
  "stockfish /usr/games/stockfish"
  "polyglot /usr/games/polyglot"
  "chromium /usr/bin/chromium"
  "nginx /usr/sbin/nginx"
)

present() {  # present PROGRAM: installed where Debian puts it, or on PATH
  [ -x "$1" ] || command -v "$(basename "$1")" >/dev/null 2>&1
}

install_debian() {  # install_debian PACKAGE
  local runner=()
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "peers: $1 is missing and cannot be installed (no apt-get)" >&2
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      runner=(sudo -n)
    else
      echo "peers: $1 is missing and cannot be installed (not root, no sudo)" >&2
      return 0
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${runner[@]}" apt-get install -y -q "$1" >/dev/null 2>&1 \
    || { "${runner[@]}" apt-get update -q >/dev/null 2>&1 \
         && "${runner[@]}" apt-get install -y -q "$1" >/dev/null 2>&1; } \
    || echo "peers: installing $1 failed" >&2
}

missing=()
for peer in "${PEERS[@]}"; do
  read -r package program <<< "$peer"
  present "$program" || install_debian "$package"
  present "$program" || missing+=("$package ($program)")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${KIBITZ_STRICT:-}" = 1 ]; then
    echo "peers: KIBITZ_STRICT=1 and missing: ${missing[*]}; the tests that drive them cannot run" >&2
    exit 1
  fi
  echo "peers: missing: ${missing[*]}; the tests that need them will skip" >&2
fi
exit 0
