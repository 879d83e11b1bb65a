"""What the workers' forkserver imports once (see worker.py): every worker process then
starts with the worker code and the engines imported and with the plugins registered.

A worker searches on one core, so numpy's BLAS (the backgammon network's small matrices)
gets one thread there: more would only spin against the other workers. Set before numpy
is imported, unless the operator set them."""

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from kibitz.engines import load_plugins  # noqa: E402 - after the threads' setting
from kibitz.server import worker  # noqa: E402,F401 - imported for the forkserver's children

load_plugins()
