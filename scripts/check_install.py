"""Checks an installed kibitz (run by scripts/check_release.sh with a fresh venv's python).

Usage: python check_install.py compiled|pure

The package's metadata, licence, type marker and page are there, the version is the one
`kibitz.__version__` says, the compiled kernels are built (or, for `pure`, absent and the
search still works), and a real server answers a real client's search.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import kibitz
from kibitz.clients.sync import SyncClient
from kibitz.engines.alphabeta import kernels as alphabeta_kernels
from kibitz.engines.dds import best_solver
from kibitz.engines.dds.solver import Solver
from kibitz.engines.expectimax.kernel import kernel_for
from kibitz.engines.mcts import kernels as mcts_kernels
from kibitz.games import sliding_pdb
from kibitz.games.backgammon import Backgammon
from kibitz.games.chess.game import CompiledBoard
from kibitz.games.connect4 import ConnectFour
from kibitz.server.config import ServerConfig
from kibitz.server.embedded import BackgroundServer


def check(condition: bool, what: str) -> None:
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        sys.exit(1)


def main(expected: str) -> None:
    version = importlib.metadata.version("kibitz")
    check(version == kibitz.__version__, f"version {version} = kibitz.__version__")
    files = [str(path) for path in importlib.metadata.files("kibitz") or []]
    check(any(path.endswith("licenses/LICENSE") for path in files), "LICENSE in the metadata")
    package = Path(kibitz.__file__).parent
    check((package / "py.typed").is_file(), "py.typed (PEP 561)")
    check((package / "web" / "static" / "index.html").is_file(), "the web page")
    weights = package / "games" / "backgammon" / "data" / "td.npz"
    check(weights.is_file(), "backgammon's TD network weights")
    cli = subprocess.run(["kibitz", "--version"], capture_output=True, text=True, check=True)
    check(cli.stdout == f"kibitz {version}\n", f"kibitz --version: {cli.stdout.strip()}")

    compiled = expected == "compiled"
    kernels = {
        "alpha-beta Connect Four kernel": alphabeta_kernels.available(),
        "MCTS playout kernel": mcts_kernels.playout_for(ConnectFour) is not None,
        "MCTS tree-walk kernel": mcts_kernels.Walk is not None,
        "backgammon kernel": kernel_for(Backgammon) is not None,
        "double-dummy kernel": best_solver() is not Solver,
        "compiled chess board": CompiledBoard is not None,
        "sliding-puzzle IDA* kernel": sliding_pdb.kernel_available(),
    }
    for name, built in kernels.items():
        check(built == compiled, f"{name}: {'built' if built else 'absent'}")

    server = BackgroundServer(ServerConfig(host="127.0.0.1", port=0))
    try:
        with SyncClient(server.address) as client:
            result = client.analyze("connect4", "", ["4", "4", "5", "3"], depth=8).wait()
            # the default engine and options: the TD network, from the weights installed
            opening = client.analyze("backgammon", "4HPwATDgc/ABMA:31", depth=1).wait()
    finally:
        server.stop()
    check(result.best_move in list("1234567") and result.nodes > 0, f"a search: {result.best_move}")
    check(opening.best_move == "8/5 6/5", f"backgammon's network: 31 -> {opening.best_move}")


if __name__ == "__main__":
    main(sys.argv[1])
