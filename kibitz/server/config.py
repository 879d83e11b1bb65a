"""The settings of one server. Each that `kibitz serve` takes is declared once, here: its
default, its flag and its help (`setting`); `add_flags` makes the flags from them for
`kibitz serve` (kibitz/server/cli.py) and its child form (kibitz/server/child.py), and
`config_from` reads them back (docs/production.md explains what each limit protects)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Collection
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from typing import Any

from kibitz import argtypes


def default_memory_mb() -> int:
    """Half of the machine's memory, in MB (4096 where it cannot be read)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4096
    return max(256, total // 2 // (1 << 20))


def cpu_count() -> int:
    return os.cpu_count() or 1


def one_of(*choices: str) -> Callable[[str], str]:
    """A flag's text that must be one of `choices` (an argparse type)."""

    def parse(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"must be {' or '.join(choices)}, not {text!r}")
        return text

    return parse


@dataclass(frozen=True)
class Flag:
    """How a setting is given to `kibitz serve`."""

    help: str
    """What it does, with its unit; `{default}` stands for its default (in the flag's unit)."""
    name: str
    """The flag, e.g. `--max-sessions`."""
    parse: Callable[[str], Any] = str
    """The flag's text to a value (an argparse type: a bad value is one clear line)."""
    metavar: str | None = None
    scale: int = 1
    """Units of the setting in one of the flag's: 1000 for seconds given, milliseconds kept."""

    def value(self, given: Any) -> Any:
        """The setting's value for the flag's."""
        return given if self.scale == 1 else round(given * self.scale)

    def shown(self, default: Any) -> str:
        """The setting's default as the flag's help writes it (3600.0 s: 3600)."""
        if self.scale != 1:
            default /= self.scale
        return f"{default:g}" if isinstance(default, float) else str(default)


def setting(
    default: Any = MISSING,
    *,
    factory: Callable[[], Any] | None = None,
    help: str,
    flag: str = "",
    parse: Callable[[str], Any] = str,
    metavar: str | None = None,
    scale: int = 1,
) -> Any:
    """A field of ServerConfig that is also a `kibitz serve` flag (by default its name, with
    dashes); `factory` for a default that depends on the machine."""
    metadata = {"flag": Flag(help, flag, parse, metavar, scale)}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def flag_of(setting_field: Field) -> Flag | None:
    """The flag of a ServerConfig field (its name filled in), or None for one without."""
    flag = setting_field.metadata.get("flag")
    if flag is None or flag.name:
        return flag
    return replace(flag, name="--" + setting_field.name.replace("_", "-"))


def default_of(setting_field: Field) -> Any:
    """A field's default (a machine-dependent one computed now)."""
    if setting_field.default_factory is not MISSING:
        return setting_field.default_factory()
    return setting_field.default


@dataclass
class ServerConfig:
    """Tunable limits of one server: the `kibitz serve` flags, in the order its help lists
    them, then the timings no flag sets."""

    host: str = setting("127.0.0.1", help="address to bind (default {default})")
    port: int = setting(50051, parse=argtypes.port, help="port (default {default}; 0 = any)")
    tls_cert: str | None = setting(
        None,
        metavar="FILE",
        help="serve over TLS with this PEM certificate chain (with --tls-key), so that nobody "
        "on the way can read or alter the traffic; clients then pass --tls-ca",
    )
    tls_key: str | None = setting(None, metavar="FILE", help="the PEM private key of --tls-cert")
    auth_tokens: str | None = setting(
        None,
        metavar="FILE",
        help="require a token on every call, from a file of 'NAME TOKEN' lines (clients pass "
        "--token or set KIBITZ_TOKEN); sessions are then private to their token's NAME",
    )
    engine_config: str | None = setting(
        None,
        flag="--config",
        metavar="FILE",
        help="host the external UCI engines this TOML file names ([engines.NAME] tables: "
        "command, args, game, options); each is started once at start to read its options, "
        "see docs/uci.md",
    )
    max_sessions: int = setting(
        16, parse=argtypes.positive_int, metavar="N", help="open sessions (default {default})"
    )
    max_sessions_per_client: int = setting(
        8,
        parse=argtypes.positive_int,
        metavar="N",
        help="open sessions one client (a token's name; without tokens, a host) may hold, so "
        "that no client takes every session (default {default})",
    )
    max_searches: int = setting(
        factory=cpu_count,
        parse=argtypes.positive_int,
        metavar="N",
        help="concurrent searches (default: number of CPUs); more wait in a queue",
    )
    max_queued: int = setting(
        64,
        parse=argtypes.count,
        metavar="N",
        help="searches that may wait for a free search slot; more are refused at once, so that "
        "a flood of requests cannot pile up (default {default})",
    )
    max_memory_mb: int = setting(
        factory=default_memory_mb,
        flag="--max-memory",
        parse=argtypes.positive_int,
        metavar="MB",
        help="memory the engines' tables of all sessions and analyses may take together (plus "
        "a share per worker process); what does not fit is refused, so that the machine does "
        "not run out (default: half of this machine's memory, {default} MB)",
    )
    max_search_time: float = setting(
        3600.0,
        parse=argtypes.positive_seconds,
        metavar="S",
        help="stop a search without a time limit of its own (--infinite, depth, nodes, solve) "
        "after S seconds, so that a forgotten one cannot hold a search slot (default {default})",
    )
    spare_workers: int = setting(
        1,
        parse=argtypes.count,
        metavar="N",
        help="worker processes kept started ahead of need, so that a new session or analysis "
        "does not wait for one to start (default {default})",
    )
    worker_nice: int = setting(
        0,
        parse=argtypes.integer(0, 19),
        metavar="N",
        help="run the worker processes (and the engine processes they start) N steps nicer "
        "than the server, so that on a machine saturated by searches the server's event loop, "
        "which sends the answers, is not queued behind them; on a machine shared with other "
        "work the searches then get less CPU than it (default {default}: as the server)",
    )
    idle_timeout: float = setting(
        600.0,
        parse=argtypes.any_seconds,
        metavar="S",
        help="close sessions idle for S seconds (default {default}; 0 = never)",
    )
    expired_answers: str = setting(
        "server",
        parse=one_of("server", "worker"),
        metavar="{server,worker}",
        help="who answers a search whose time ran out while it waited in the queue: the server "
        "itself, at once, where its engine can run there (as a tiny analysis can), or the "
        "search's worker process (which must first get a CPU); either answers the engine's "
        "move without searching, 0 nodes (default {default})",
    )
    info_interval: float = setting(
        1.0,
        parse=argtypes.positive_seconds,
        metavar="S",
        help="seconds between progress messages within a long iteration (default {default})",
    )
    default_move_time_ms: int = setting(
        1000,
        flag="--default-movetime",
        parse=argtypes.positive_seconds,
        metavar="S",
        scale=1000,
        help="move time of a search that sets no limit (default {default})",
    )
    move_overhead_ms: int = setting(
        0,
        flag="--move-overhead",
        parse=argtypes.any_seconds,
        metavar="S",
        scale=1000,
        help="time kept back from each search's move time and clock for the answer's way to "
        "its client, as UCI engines' Move Overhead: on a loaded machine or a slow network, "
        "answers then arrive by their deadline (default {default})",
    )
    deadline_margin: float = 0.25
    """Seconds past a search's time limit after which the server itself stops it."""
    kill_grace: float = 2.0
    """Seconds after that stop before a worker that has not answered is killed."""
    heartbeat_timeout: float = 5.0
    """Seconds of silence after which a busy worker counts as frozen and is killed."""
    spare_idle_timeout: float = 300.0
    """Seconds after which an idle spare worker beyond `spare_workers` is stopped."""


FLAGS: tuple[tuple[Field, Flag], ...] = tuple(
    (each, flag) for each in fields(ServerConfig) if (flag := flag_of(each)) is not None
)
"""The settings `kibitz serve` takes, in its help's order, with their flags."""


def add_flags(parser: argparse.ArgumentParser, leave_out: Collection[str] = ()) -> None:
    """The flags of the server's settings (`--port`, `--config`, ...), for `config_from`;
    not those of the settings named in `leave_out`."""
    for setting, flag in FLAGS:
        if setting.name in leave_out:
            continue
        parser.add_argument(
            flag.name,
            dest=setting.name,
            type=flag.parse,
            metavar=flag.metavar,
            help=flag.help.format(default=flag.shown(default_of(setting))),
        )


def given_flags(args: argparse.Namespace, leave_out: Collection[str] = ()) -> list[str]:
    """The settings' flags given on a command line, but those of the settings named in
    `leave_out`, as arguments for another `kibitz serve`."""
    given = []
    for setting, flag in FLAGS:
        value = getattr(args, setting.name, None)
        if value is not None and setting.name not in leave_out:
            given += [flag.name, str(value)]
    return given


def config_from(args: argparse.Namespace) -> ServerConfig:
    """The ServerConfig of `kibitz serve`'s flags: the settings given, else their defaults."""
    given = {
        setting.name: flag.value(getattr(args, setting.name))
        for setting, flag in FLAGS
        if getattr(args, setting.name, None) is not None
    }
    return ServerConfig(**given)
