#!/usr/bin/env bash
# The whole test suite: install the Debian peers (gnubg, scripts/peers.sh) and kibitz with its
# dev tools into .venv, lint, run pytest with a worker a core (pytest-xdist; at most 4) and
# list the 20 slowest tests (the suite should stay under 5 minutes).
# Extra arguments go to pytest (`-n 0`: one process).
bash "$(dirname "$0")/peers.sh"
source "$(dirname "$0")/setup.sh" dev
ruff check .
ruff format --check .
pytest --numprocesses auto --maxprocesses 4 --durations 20 "$@"
