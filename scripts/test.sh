#!/usr/bin/env bash
# The whole test suite: install the Debian peers (gnubg, scripts/peers.sh) and kibitz with its
# dev tools into .venv, lint, run pytest.
# Extra arguments go to pytest.
bash "$(dirname "$0")/peers.sh"
source "$(dirname "$0")/setup.sh" dev
ruff check .
ruff format --check .
pytest "$@"
