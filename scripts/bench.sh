#!/usr/bin/env bash
# The benchmarks: install kibitz with the benchmark peers (easyAI, OpenSpiel, Sunfish,
# python-constraint2) into .venv and OR-Tools into .venv/ortools (it pins protobuf 6, kibitz
# needs 7: benchmarks/csp_peers.py runs it there), then run `python -m benchmarks`. Extra
# arguments go to it (--quick, --sets, --per-set, --cap, ...).
bash "$(dirname "$0")/peers.sh"
source "$(dirname "$0")/setup.sh" bench
ORTOOLS=ortools==9.15.6755
[ -x .venv/ortools/bin/python ] || .venv/bin/python -m venv .venv/ortools
.venv/ortools/bin/python -m pip install --quiet --disable-pip-version-check "$ORTOOLS" \
  || echo "bench: installing $ORTOOLS into .venv/ortools failed; CP-SAT's rows are skipped" >&2
python -m benchmarks "$@"
