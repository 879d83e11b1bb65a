"""The `kibitz` command: run a server, or talk to one from a shell."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence

from google.protobuf import json_format

from kibitz import __version__
from kibitz.clients import argtypes
from kibitz.clients.client import DEFAULT_ADDRESS, KibitzError, ServerUnavailable, default_address
from kibitz.clients.render import info_line, result_text, root_moves_line
from kibitz.clients.sync import SyncClient, SyncSearch
from kibitz.clients.values import Info, Limits
from kibitz.v1 import engine_pb2 as pb

EXIT_ERROR = 1
EXIT_NO_SERVER = 3


def _as_dict(message) -> dict:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def _json_line(message) -> str:
    """One message as one line of JSON (JSON lines), in protobuf's JSON mapping."""
    return json.dumps(_as_dict(message), separators=(",", ":"))


def _as_json(message) -> str:
    return json.dumps(_as_dict(message), indent=2)


def _list_as_json(messages) -> str:
    return json.dumps([_as_dict(m) for m in messages], indent=2)


def _option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"kibitz: --option wants NAME=VALUE, not {pair!r}")
        options[name] = value
    return options


_LIMIT_FLAGS = ("depth", "nodes", "movetime", "multipv", "search_moves", "infinite", "solve")


def _limits(args: argparse.Namespace) -> dict:
    """The search limits given on the command line, as `Limits` keywords."""
    limits = {
        name: getattr(args, name) for name in _LIMIT_FLAGS if getattr(args, name, None) is not None
    }
    if getattr(args, "root_moves", False):
        limits["root_moves"] = True
    return limits


# ---------------------------------------------------------------------------- commands


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    from kibitz.server.app import serve
    from kibitz.server.config import ServerConfig

    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    config = ServerConfig(
        host=args.host,
        port=args.port,
        max_sessions=args.max_sessions,
        idle_timeout=args.idle_timeout,
        info_interval=args.info_interval,
        default_move_time_ms=round(args.default_movetime * 1000),
    )
    if args.max_searches is not None:
        config.max_searches = args.max_searches
    try:
        asyncio.run(serve(config, on_listening=_print_banner))
    except OSError as exc:
        print(f"kibitz: cannot serve on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return 0


def _print_banner(host: str, port: int) -> None:
    print(serve_banner(host, port), file=sys.stderr, flush=True)


_WILDCARDS = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "[::1]", "[::]": "[::1]"}


def serve_banner(host: str, port: int) -> str:
    """How to query a server listening on host:port, with `--server` unless it is the
    default address."""
    address = f"{_WILDCARDS.get(host, host)}:{port}"
    command = _kibitz_command()
    if address != DEFAULT_ADDRESS:
        command += f" --server {address}"
    return (
        f"kibitz is listening on {host}:{port} (Ctrl-C stops it). In another terminal:\n"
        f"  {command} games\n"
        f"  {command} analyse connect4 --moves 4453 --depth 12\n"
        f"  {command} play tictactoe"
    )


def _kibitz_command() -> str:
    """How another terminal calls this kibitz: the script's path when it runs from a
    virtualenv that is not activated (e.g. .venv/bin/kibitz, as scripts/serve.sh runs it),
    else `kibitz`."""
    script = sys.argv[0]
    in_venv = sys.prefix != sys.base_prefix and os.environ.get("VIRTUAL_ENV") != sys.prefix
    if not in_venv or os.path.basename(script) != "kibitz":
        return "kibitz"
    script = os.path.abspath(script)
    if not script.startswith(os.path.abspath(sys.prefix) + os.sep):
        return "kibitz"  # e.g. a pipx shim on PATH
    relative = os.path.relpath(script)
    return script if relative.startswith("..") else relative


def cmd_games(args: argparse.Namespace, client: SyncClient) -> int:
    games = client.games()
    if args.json:
        print(_list_as_json(games))
        return 0
    for game in games:
        chance = ", chance" if game.has_chance else ""
        print(f"{game.name:<12} {game.title} ({game.players} players{chance})")
        print(f"{'':<12} start: {game.default_position!r}")
        if args.verbose:
            print(f"{'':<12} {game.notation_help}")
            print(f"{'':<12} default engine: {game.default_engine or '(none)'}")
            capabilities = ", ".join(game.capabilities) or "(none)"
            print(f"{'':<12} capabilities: {capabilities}")
    return 0


def cmd_engines(args: argparse.Namespace, client: SyncClient) -> int:
    engines = client.engines()
    if args.json:
        print(_list_as_json(engines))
        return 0
    for engine in engines:
        print(f"{engine.name}: {engine.description}")
        print(f"  games: {', '.join(engine.games)}")
        for option in engine.options:
            if option.HasField("min"):
                domain = f" [{option.min}..{option.max}]"
            elif option.choices:
                domain = f" ({'|'.join(option.choices)})"
            else:
                domain = ""
            print(
                f"  option {option.name} ({option.type}{domain}, default {option.default}): "
                f"{option.description}"
            )
    return 0


def cmd_analyse(args: argparse.Namespace, client: SyncClient) -> int:
    session = client.open(args.game, args.engine, args.options)
    try:
        search = session.search(args.position, args.moves or (), **_limits(args))
        try:
            _print_progress(search, args)
        except KeyboardInterrupt:  # Ctrl-C: stop the search and show what it found
            print("kibitz: stopping the search", file=sys.stderr)
            session.stop()
            _print_progress(search, args)
        result = search.wait()
    finally:
        with contextlib.suppress(KibitzError):  # e.g. the server is shutting down
            session.close()
    if args.json:
        print(_json_line(pb.SearchResponse(result=result.proto)), flush=True)
    else:
        print()
        print(result_text(result))
    return 0


def _print_progress(search: SyncSearch, args: argparse.Namespace) -> None:
    for info in search:
        print(_progress(info, args), flush=True)


def _progress(info: Info, args: argparse.Namespace) -> str:
    """An Info as a JSON line (--json) or as text: a line, then the root moves if asked."""
    if args.json:
        return _json_line(pb.SearchResponse(info=info.proto))
    if info.root_moves:
        return f"{info_line(info)}\n{root_moves_line(info.root_moves)}"
    return info_line(info)


def cmd_play(args: argparse.Namespace, client: SyncClient) -> int:
    from kibitz.clients.play import play

    return play(client, args, Limits.from_keywords(**(_limits(args) or {"movetime": 1.0})))


# ---------------------------------------------------------------------------- parser


def _add_search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine", default="", help="engine name (default: the game's, see `kibitz games -v`)"
    )
    parser.add_argument(
        "--option", "-o", action="append", metavar="NAME=VALUE", help="engine option (repeatable)"
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=argtypes.positive_int, help="search to this depth (plies)")
    limit.add_argument(
        "--movetime", type=argtypes.positive_seconds, metavar="S", help="search for S seconds"
    )
    limit.add_argument("--nodes", type=argtypes.positive_int, help="search this many nodes")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kibitz",
        description="A networked game-engine service. Start a server with `kibitz serve`, "
        "then query it with the other commands.",
    )
    parser.add_argument(
        "--server",
        default=default_address(),
        metavar="HOST:PORT",
        help="server address (default: $KIBITZ_SERVER or 127.0.0.1:50051)",
    )
    parser.add_argument("--version", action="version", version=f"kibitz {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    anywhere = argparse.ArgumentParser(add_help=False)  # --server after the command too
    anywhere.add_argument("--server", default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    serve = commands.add_parser("serve", help="run the engine server")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument(
        "--port", type=argtypes.port, default=50051, help="port (default 50051; 0 = any)"
    )
    serve.add_argument(
        "--max-sessions", type=argtypes.positive_int, default=16, help="open sessions (default 16)"
    )
    serve.add_argument(
        "--max-searches",
        type=argtypes.positive_int,
        help="concurrent searches (default: number of CPUs)",
    )
    serve.add_argument(
        "--idle-timeout",
        type=argtypes.any_seconds,
        default=600.0,
        metavar="S",
        help="close sessions idle for S seconds (default 600; 0 = never)",
    )
    serve.add_argument(
        "--info-interval",
        type=argtypes.positive_seconds,
        default=1.0,
        metavar="S",
        help="seconds between progress messages within a long iteration (default 1)",
    )
    serve.add_argument(
        "--default-movetime",
        type=argtypes.positive_seconds,
        default=1.0,
        metavar="S",
        help="move time of a search that sets no limit (default 1)",
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning"])
    serve.set_defaults(handler=cmd_serve, needs_client=False)

    games = commands.add_parser("games", help="list the games", parents=[anywhere])
    games.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="also show the notation, the default engine and the capabilities",
    )
    games.add_argument("--json", action="store_true", help="machine-readable output")
    games.set_defaults(handler=cmd_games)

    engines = commands.add_parser(
        "engines", help="list the engines and their options", parents=[anywhere]
    )
    engines.add_argument("--json", action="store_true", help="machine-readable output")
    engines.set_defaults(handler=cmd_engines)

    analyse = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        parents=[anywhere],
        help="analyse a position",
        description="Search a position and print progress and a score for every move.",
    )
    analyse.add_argument("game", help="game name (see `kibitz games`)")
    analyse.add_argument("position", nargs="?", default="", help="position (default: start)")
    analyse.add_argument(
        "--moves", nargs="+", action="extend", help="moves played from the position"
    )
    _add_search_arguments(analyse)
    analyse.add_argument("--infinite", action="store_true", help="search until Ctrl-C")
    analyse.add_argument(
        "--solve",
        action="store_true",
        help="prove the exact value (search to the end of the game; other limits still apply)",
    )
    analyse.add_argument(
        "--multipv", type=argtypes.positive_int, default=1, help="lines with exact scores"
    )
    analyse.add_argument(
        "--search-moves", nargs="+", metavar="MOVE", help="only consider these moves"
    )
    analyse.add_argument(
        "--root-moves",
        action="store_true",
        help="show every root move's current score with each progress line",
    )
    analyse.add_argument(
        "--json",
        action="store_true",
        help='JSON lines: one per message of the search stream ({"info": ...} for each '
        'progress report, {"result": ...} last), in protobuf\'s JSON mapping',
    )
    analyse.set_defaults(handler=cmd_analyse)

    play = commands.add_parser("play", help="play a game against an engine", parents=[anywhere])
    play.add_argument("game", help="game name (see `kibitz games`)")
    play.add_argument("position", nargs="?", default="", help="position (default: start)")
    _add_search_arguments(play)
    play.add_argument(
        "--you", choices=["first", "second"], default="first", help="which side you play"
    )
    play.set_defaults(handler=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("kibitz: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `kibitz games | head -1`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if hasattr(args, "option"):
        args.options = _option_pairs(args.option or ())
    if not getattr(args, "needs_client", True):
        return args.handler(args)
    handler: Callable[[argparse.Namespace, SyncClient], int] = args.handler
    with SyncClient(args.server) as client:
        try:
            return handler(args, client)
        except ServerUnavailable:
            print(
                f"kibitz: no server answers at {client.address}; start one with `kibitz serve` "
                "(or point --server / KIBITZ_SERVER at a running one)",
                file=sys.stderr,
            )
            return EXIT_NO_SERVER
        except KibitzError as exc:
            print(f"kibitz: {exc.message}", file=sys.stderr)
            return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
