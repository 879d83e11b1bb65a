"""What the workers' forkserver imports once (see worker.py): every worker process then
starts with the worker code and the engines imported and with the plugins registered."""

from kibitz.engines import load_plugins
from kibitz.server import worker  # noqa: F401 - imported for the forkserver's children

load_plugins()
