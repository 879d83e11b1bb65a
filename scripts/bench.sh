#!/usr/bin/env bash
# The benchmarks: install kibitz with the benchmark peers (easyAI, OpenSpiel) into .venv, then
# run `python -m benchmarks`. Extra arguments go to it (--quick, --sets, --per-set, --cap, ...).
bash "$(dirname "$0")/peers.sh"
source "$(dirname "$0")/setup.sh" bench
python -m benchmarks "$@"
