#!/usr/bin/env bash
# The main job: install kibitz into .venv and run the server on 127.0.0.1:50051.
# Extra arguments go to `kibitz serve` (see `kibitz serve --help`).
source "$(dirname "$0")/setup.sh" ""  # no extras (an explicit argument, or ours would leak in)
cat <<'HELP'
kibitz is starting (default 127.0.0.1:50051; Ctrl-C stops it). In another terminal:
  .venv/bin/kibitz games
  .venv/bin/kibitz analyse connect4 --moves 4453 --depth 12
  .venv/bin/kibitz play tictactoe
(add --server HOST:PORT if you started it elsewhere)
HELP
exec kibitz serve "$@"
