"""For the tests of the `uci` engine family: Debian's Stockfish where it is installed, and a
tiny UCI engine written into a test's tmp dir that crashes, hangs or behaves on demand."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

STOCKFISH = shutil.which("/usr/games/stockfish") or shutil.which("stockfish")
needs_stockfish = pytest.mark.skipif(
    STOCKFISH is None,
    reason="stockfish is missing (bash scripts/peers.sh installs Debian's stockfish)",
)

FAKE_ENGINE = r'''
"""A fake UCI engine: fake.py MODE LOG. It writes every line it gets to LOG and answers
`go` with two info lines and `bestmove e2e4` (the start position's e4), except:
crash: exits with code 3 at `go`; crash-once: so at the first `go` of all its runs (LOG
then gains a file LOG.crashed); hang: never answers `go` nor `stop` (nor `quit`);
exit: exits with code 1 before reading anything."""
import os, sys

mode, log = sys.argv[1], sys.argv[2]
if mode == "exit":
    print("fake: cannot start", file=sys.stderr)
    sys.exit(1)
searching = False

def say(text):
    print(text, flush=True)

def answer():
    say("info depth 1 seldepth 1 score cp 20 nodes 20 nps 1000 time 1 pv e2e4")
    say("info depth 2 seldepth 3 score cp 30 nodes 60 nps 2000 time 2 pv e2e4 e7e5")
    say("bestmove e2e4 ponder e7e5")

for line in sys.stdin:
    with open(log, "a") as record:
        record.write(line)
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name Fake 1.0")
        say("option name Hash type spin default 1 min 1 max 64")
        say("option name Style type combo default Normal var Solid var Normal var Risky")
        say("option name Clear Hash type button")
        say("option name MultiPV type spin default 1 min 1 max 8")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "go" and mode != "hang":
        if mode == "crash" or (mode == "crash-once" and not os.path.exists(log + ".crashed")):
            open(log + ".crashed", "w").close()
            sys.exit(3)
        if "infinite" in words:
            searching = True
        else:
            answer()
    elif words[0] == "stop" and searching:
        searching = False
        answer()
    elif words[0] == "quit" and mode != "hang":
        break
'''


def fake_engine(tmp_path: Path, mode: str, name: str = "") -> tuple[list[str], Path]:
    """(argv of the fake engine in `mode`, the file where it logs what it got)."""
    script = tmp_path / "fake_uci.py"
    script.write_text(FAKE_ENGINE)
    log = tmp_path / f"{name or mode}.log"
    return [sys.executable, str(script), mode, str(log)], log


def engine_table(name: str, argv: list[str], game: str = "chess", extra: str = "") -> str:
    """One [engines.NAME] table of a config file."""
    command, *args = argv
    quoted = ", ".join(f'"{arg}"' for arg in args)
    return f'[engines.{name}]\ncommand = "{command}"\nargs = [{quoted}]\ngame = "{game}"\n{extra}\n'
