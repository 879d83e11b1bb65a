#!/usr/bin/env bash
# The docs site: install kibitz with the docs extra into .venv, then build docs/*.md and the
# Python client's API reference (mkdocs.yml) into site/, with every warning an error.
# Usage: bash scripts/docs.sh [MKDOCS BUILD ARGS...]   build into site/
#        bash scripts/docs.sh serve [MKDOCS SERVE ARGS...]   preview on http://127.0.0.1:8000/
source "$(dirname "$0")/setup.sh" dev,docs
if [ "${1:-}" = serve ]; then
  shift
  exec mkdocs serve --strict "$@"
fi
exec mkdocs build --strict --site-dir site "$@"
