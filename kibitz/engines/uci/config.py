"""The engine config of `kibitz serve --config FILE`: a TOML file naming external UCI engines.

    [engines.stockfish]
    command = "/usr/games/stockfish"     # the program; a relative path is the config's
    args = []                            # its arguments
    game = "chess"                       # the one game it plays (a registered game)
    options = { Threads = 1, Hash = 16 } # defaults for its own UCI options
    fixed = ["Threads"]                  # options clients may not change (optional)
    description = "Stockfish from Debian" # optional; else the engine's `id name`

`read_config` checks the file's form and names; the engine itself is asked for its options
at server start (`engine.probe`), which makes a `UciDefinition`: plain data that the server
passes to its worker processes, where the same engine classes are made from it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kibitz.engines.base import Engine, OptionSpec
from kibitz.games import GAMES, quoted

ENGINE_KEYS = frozenset(("command", "args", "game", "options", "fixed", "description"))
NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


class ConfigError(ValueError):
    """A bad engine config or an engine that does not start: one line for `kibitz serve`."""


@dataclass(frozen=True)
class EngineEntry:
    """One `[engines.NAME]` table, checked for form but not yet started."""

    name: str
    argv: tuple[str, ...]
    """The command and its arguments."""
    game: str
    options: dict[str, Any]
    """The config's values for the engine's options, by the names written there."""
    fixed: tuple[str, ...]
    description: str
    where: str
    """How messages name it: "engine config FILE: [engines.NAME]"."""


@dataclass(frozen=True)
class UciDefinition:
    """Everything needed to make the engine class of one configured engine, in its worker
    processes too: the entry plus what the engine declared at start-up."""

    name: str
    argv: tuple[str, ...]
    game: str
    description: str
    option_specs: tuple[OptionSpec, ...]
    """Its options, their defaults the config's values where it sets them."""
    engine_defaults: tuple[tuple[str, Any], ...]
    """(name, value) of each option as a freshly started engine has it."""
    fixed: frozenset[str]
    """Options clients may not change: the config's `fixed` and every string option."""

    def engine_class(self) -> type[Engine]:
        """The Engine class this definition makes (an `EngineDefinition`)."""
        from kibitz.engines.uci.engine import engine_class  # it imports this module

        return engine_class(self)


def read_config(path: str) -> list[EngineEntry]:
    """The engines of a config file; ConfigError for an unreadable file, bad TOML, an
    unknown key or game, a bad name or a value of the wrong type."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise ConfigError(f"cannot read the engine config {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"the engine config {path} is not UTF-8 text") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the engine config {path} is not valid TOML: {exc}") from None
    unknown = set(document) - {"engines"}
    if unknown:
        raise ConfigError(
            f"engine config {path}: unknown key {quoted(sorted(unknown)[0])} "
            "(expected [engines.NAME] tables)"
        )
    engines = document.get("engines")
    if not isinstance(engines, dict) or not engines:
        raise ConfigError(f"engine config {path}: no engines (expected [engines.NAME] tables)")
    base = Path(path).resolve().parent
    return [
        _entry(name, table, f"engine config {path}: [engines.{name}]", base)
        for name, table in engines.items()
    ]


def _entry(name: str, table: Any, where: str, base: Path) -> EngineEntry:
    if not NAME.match(name):
        raise ConfigError(
            f"{where}: an engine name is a lower-case word (letters, digits, - and _)"
        )
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table of command, args, game, options")
    unknown = sorted(set(table) - ENGINE_KEYS)
    if unknown:
        raise ConfigError(
            f"{where}: unknown key {quoted(unknown[0])} (keys: {', '.join(sorted(ENGINE_KEYS))})"
        )
    command = _typed(table, "command", str, where, required=True)
    if not command.strip():
        raise ConfigError(f"{where}: command is empty")
    if "/" in command and not Path(command).is_absolute():
        command = str(base / command)
    args = _typed(table, "args", list, where, default=[])
    if not all(isinstance(arg, str) for arg in args):
        raise ConfigError(f"{where}: args must be a list of strings")
    game = _typed(table, "game", str, where, required=True)
    if game not in GAMES:
        raise ConfigError(
            f"{where}: unknown game {quoted(game)} (games: {', '.join(sorted(GAMES))})"
        )
    options = _typed(table, "options", dict, where, default={})
    for option, value in options.items():
        if not isinstance(value, bool | int | str):
            raise ConfigError(
                f"{where}: option {quoted(option)}: expected a number, true/false or a string"
            )
    fixed = _typed(table, "fixed", list, where, default=[])
    if not all(isinstance(option, str) for option in fixed):
        raise ConfigError(f"{where}: fixed must be a list of option names")
    description = _typed(table, "description", str, where, default="")
    return EngineEntry(name, (command, *args), game, options, tuple(fixed), description, where)


def _typed(
    table: dict, key: str, kind: type, where: str, *, required: bool = False, default: Any = None
) -> Any:
    if key not in table:
        if required:
            raise ConfigError(f"{where}: {key} is missing")
        return default
    value = table[key]
    if not isinstance(value, kind):
        raise ConfigError(f"{where}: {key} must be a {_KIND_NAMES[kind]}")
    return value


_KIND_NAMES = {str: "string", list: "list", dict: "table"}
