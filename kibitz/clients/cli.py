"""The `kibitz` command: run a server, or talk to one from a shell."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from google.protobuf import json_format

from kibitz.clients.client import KibitzError, ServerUnavailable, default_address
from kibitz.clients.render import info_line, result_text
from kibitz.clients.sync import SyncClient

EXIT_ERROR = 1
EXIT_NO_SERVER = 3


def _as_json(message) -> str:
    return json.dumps(
        json_format.MessageToDict(message, always_print_fields_with_no_presence=True), indent=2
    )


def _option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"kibitz: --option wants NAME=VALUE, not {pair!r}")
        options[name] = value
    return options


def _limits(args: argparse.Namespace) -> dict:
    """Search limits given on the command line, as `make_limits` keywords."""
    limits = {
        name: getattr(args, name)
        for name in ("depth", "nodes", "movetime", "multipv", "search_moves", "infinite", "solve")
        if getattr(args, name, None)
    }
    return limits


# ---------------------------------------------------------------------------- commands


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from kibitz.server.app import serve
    from kibitz.server.service import ServerConfig

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
        asyncio.run(serve(config))
    except OSError as exc:
        print(f"kibitz: cannot serve on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return 0


def cmd_games(args: argparse.Namespace, client: SyncClient) -> int:
    games = client.games()
    if args.json:
        print(json.dumps([json.loads(_as_json(g)) for g in games], indent=2))
        return 0
    for game in games:
        chance = ", chance" if game.has_chance else ""
        print(f"{game.name:<12} {game.title} ({game.players} players{chance})")
        print(f"{'':<12} start: {game.default_position!r}")
        if args.verbose:
            print(f"{'':<12} {game.notation_help}")
    return 0


def cmd_engines(args: argparse.Namespace, client: SyncClient) -> int:
    engines = client.engines()
    if args.json:
        print(json.dumps([json.loads(_as_json(e)) for e in engines], indent=2))
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
    search = client.analyze(
        args.game,
        args.position,
        tuple(args.moves or ()),
        engine=args.engine,
        options=args.options,
        **_limits(args),
    )
    try:
        for info in search:
            if not args.json:
                print(info_line(info), flush=True)
    except KeyboardInterrupt:
        search.cancel()
        print("kibitz: interrupted", file=sys.stderr)
        return EXIT_ERROR
    result = search.result
    if args.json:
        print(_as_json(result))
    else:
        print()
        print(result_text(result))
    return 0


def cmd_play(args: argparse.Namespace, client: SyncClient) -> int:
    from kibitz.clients.play import play

    return play(client, args, _limits(args) or {"movetime": 1.0})


# ---------------------------------------------------------------------------- parser


def _add_search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", default="", help="engine name (default: alphabeta)")
    parser.add_argument(
        "--option", "-o", action="append", metavar="NAME=VALUE", help="engine option (repeatable)"
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int, help="search to this depth (plies)")
    limit.add_argument("--movetime", type=float, metavar="S", help="search for S seconds")
    limit.add_argument("--nodes", type=int, help="search this many nodes")


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
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the engine server")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=50051, help="port (default 50051; 0 = any)")
    serve.add_argument("--max-sessions", type=int, default=16, help="open sessions (default 16)")
    serve.add_argument(
        "--max-searches", type=int, help="concurrent searches (default: number of CPUs)"
    )
    serve.add_argument(
        "--idle-timeout",
        type=float,
        default=600.0,
        metavar="S",
        help="close sessions idle for S seconds (default 600; 0 = never)",
    )
    serve.add_argument(
        "--info-interval",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds between progress messages within a long iteration (default 1)",
    )
    serve.add_argument(
        "--default-movetime",
        type=float,
        default=1.0,
        metavar="S",
        help="move time of a search that sets no limit (default 1)",
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning"])
    serve.set_defaults(handler=cmd_serve, needs_client=False)

    games = commands.add_parser("games", help="list the games")
    games.add_argument("--verbose", "-v", action="store_true", help="show notation help")
    games.add_argument("--json", action="store_true", help="machine-readable output")
    games.set_defaults(handler=cmd_games)

    engines = commands.add_parser("engines", help="list the engines and their options")
    engines.add_argument("--json", action="store_true", help="machine-readable output")
    engines.set_defaults(handler=cmd_engines)

    for name in ("analyse", "analyze"):
        analyse = commands.add_parser(
            name,
            help="analyse a position" if name == "analyse" else argparse.SUPPRESS,
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
        analyse.add_argument("--multipv", type=int, default=1, help="lines with exact scores")
        analyse.add_argument(
            "--search-moves", nargs="+", metavar="MOVE", help="only consider these moves"
        )
        analyse.add_argument("--json", action="store_true", help="print the result as JSON")
        analyse.set_defaults(handler=cmd_analyse)

    play = commands.add_parser("play", help="play a game against an engine")
    play.add_argument("game", help="game name (see `kibitz games`)")
    play.add_argument("position", nargs="?", default="", help="position (default: start)")
    _add_search_arguments(play)
    play.add_argument(
        "--you", choices=["first", "second"], default="first", help="which side you play"
    )
    play.set_defaults(handler=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
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
