"""The `uci` engine family: external engines that speak UCI, named in the server's config
(`kibitz serve --config FILE`), one engine class per configured engine.

`read_config(path)` reads the config, `probe(entry)` starts an engine once to learn its
options (the server does both at start, through `kibitz.engines.load_engine_config`);
`engine_class(definition)` makes its Engine class (the server and every worker process make
the same classes from the same definitions).
docs/uci.md describes the config, the mapping of limits and scores, and failures.
"""

from kibitz.engines.uci.config import ConfigError, UciDefinition, read_config
from kibitz.engines.uci.engine import UciEngine, engine_class, probe

__all__ = [
    "ConfigError",
    "UciDefinition",
    "UciEngine",
    "engine_class",
    "probe",
    "read_config",
]
