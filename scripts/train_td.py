"""Train backgammon's TD network on a machine with Python and numpy alone: the same command
as ``python -m kibitz.games.backgammon.training`` (its arguments; see its docstring), or,
with ``fit`` first, as ``python -m kibitz.games.backgammon.fitting`` (the fitted 1-ply
targets; fast where backgammon's compiled kernel was built).

Importing ``kibitz.games.backgammon`` runs the ``__init__`` of ``kibitz.games``, which
registers every game and so imports the dependencies of all of them (python-chess...). The
training needs only backgammon's board, evaluation and network modules, so this script
registers the three packages above them as bare packages (their ``__init__`` not run) and
then runs the module's `main`. Spawned worker processes run this file first too.
"""

import os
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FIT = sys.argv[1:2] == ["fit"]

# TD's matrices are small: threads only spin (three times the CPU for nothing); the fit's
# are large (its worker processes get one thread each from `training._pool`)
if not FIT:
    for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_variable, "1")

for _name in ("kibitz", "kibitz.games", "kibitz.games.backgammon"):
    if _name not in sys.modules:
        _package = types.ModuleType(_name)
        _package.__path__ = [str(ROOT.joinpath(*_name.split(".")))]
        sys.modules[_name] = _package

if __name__ == "__main__":
    if FIT:
        from kibitz.games.backgammon.fitting import main

        main(sys.argv[2:])
    else:
        from kibitz.games.backgammon.training import main

        main()
