#!/usr/bin/env bash
# The whole test suite: install kibitz with its dev tools into .venv, lint, run pytest.
# Extra arguments go to pytest.
source "$(dirname "$0")/setup.sh" dev
ruff check .
ruff format --check .
pytest "$@"
