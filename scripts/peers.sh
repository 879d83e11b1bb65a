#!/usr/bin/env bash
# What tests and benchmarks drive and that comes from Debian rather than PyPI: GNU
# Backgammon (gnubg), Stockfish (the UCI engine the `uci` tests host and the chess benchmark
# plays), PolyGlot (a UCI host for the bridge's tests) and Chromium (the web page's tests).
# Installs what is missing when it can (as root, or with passwordless sudo); otherwise says
# what is missing and carries on: the tests that need a peer then skip, saying so. Never
# fails its caller.
set -uo pipefail

install_debian() {  # install_debian PACKAGE
  local runner=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      runner=(sudo -n)
    else
      echo "peers: $1 is missing and cannot be installed (not root, no sudo)" >&2
      return 0
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "peers: $1 is missing and cannot be installed (no apt-get)" >&2
    return 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${runner[@]}" apt-get install -y -q "$1" >/dev/null 2>&1 \
    || { "${runner[@]}" apt-get update -q >/dev/null 2>&1 \
         && "${runner[@]}" apt-get install -y -q "$1" >/dev/null 2>&1; } \
    || echo "peers: installing $1 failed; the tests that need it will skip" >&2
}

[ -x /usr/games/gnubg ] || command -v gnubg >/dev/null 2>&1 || install_debian gnubg
[ -x /usr/games/stockfish ] || command -v stockfish >/dev/null 2>&1 || install_debian stockfish
# PolyGlot (xboard-to-UCI adapter): a real UCI host for the tests of `kibitz uci`
[ -x /usr/games/polyglot ] || command -v polyglot >/dev/null 2>&1 || install_debian polyglot
# Chromium: the browser the tests of the web page (tests/web) drive through Playwright
[ -x /usr/bin/chromium ] || install_debian chromium
exit 0
