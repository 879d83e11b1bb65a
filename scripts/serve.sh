#!/usr/bin/env bash
# The main job: install kibitz into .venv and run the server on 127.0.0.1:50051.
# Extra arguments go to `kibitz serve` (see `kibitz serve --help`); once it listens, it prints
# its address and how to query it.
source "$(dirname "$0")/setup.sh" ""  # no extras (an explicit argument, or ours would leak in)
exec kibitz serve "$@"
