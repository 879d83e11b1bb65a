"""The `kibitz` command: run a server, or talk to one from a shell."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence

from google.protobuf import json_format

from kibitz import __version__
from kibitz.clients import argtypes
from kibitz.clients.client import (
    DEFAULT_ADDRESS,
    KibitzError,
    NotFound,
    ServerUnavailable,
    Unauthenticated,
    default_address,
    default_tls_ca,
    default_token,
)
from kibitz.clients.display import Display, display_for
from kibitz.clients.render import (
    info_line,
    queued_line,
    result_text,
    root_moves_line,
    sessions_table,
)
from kibitz.clients.sync import SyncClient, SyncSearch
from kibitz.clients.values import Info, Limits
from kibitz.match import cli as match_cli  # the one import of the match runner
from kibitz.v1 import engine_pb2 as pb

EXIT_ERROR = 1
EXIT_NO_SERVER = 3
EXIT_TERMINATED = 128 + signal.SIGTERM  # 143, as a shell reports a process SIGTERM ended


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C's KeyboardInterrupt, so that the same
    cleanup runs (a search is stopped, the session closed) before kibitz exits with 143."""


def _on_sigterm(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends kibitz at once
    raise Terminated


@contextlib.contextmanager
def _sigterm_as_terminated() -> Iterator[None]:
    """Within the block, SIGTERM raises Terminated (only the main thread can handle it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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
        max_sessions_per_client=args.max_sessions_per_client,
        max_queued=args.max_queued,
        max_search_time=args.max_search_time,
        idle_timeout=args.idle_timeout,
        info_interval=args.info_interval,
        default_move_time_ms=round(args.default_movetime * 1000),
        spare_workers=args.spare_workers,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        auth_tokens=args.auth_tokens,
        engine_config=args.config,
    )
    if args.max_searches is not None:
        config.max_searches = args.max_searches
    if args.max_memory is not None:
        config.max_memory_mb = args.max_memory
    listening = False

    def on_listening(host: str, port: int) -> None:
        nonlocal listening
        listening = True
        banner = serve_banner(host, port, tls_cert=args.tls_cert, auth_tokens=args.auth_tokens)
        print(banner, file=sys.stderr, flush=True)

    try:
        asyncio.run(serve(config, on_listening=on_listening))
    except OSError as exc:
        print(f"kibitz: cannot serve on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except ValueError as exc:  # Server(...): a bad TLS, token or engine config file
        if listening:
            raise
        print(f"kibitz: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return 0


_WILDCARDS = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "[::1]", "[::]": "[::1]"}


def serve_banner(
    host: str, port: int, *, tls_cert: str | None = None, auth_tokens: str | None = None
) -> str:
    """How to query a server listening on host:port: with `--server` unless it is the
    default address, `--tls-ca` when it speaks TLS and `--token` when it requires tokens."""
    address = f"{_WILDCARDS.get(host, host)}:{port}"
    command = _kibitz_command()
    if address != DEFAULT_ADDRESS:
        command += f" --server {address}"
    if tls_cert:
        command += f" --tls-ca {shlex.quote(tls_cert)}"
    if auth_tokens:
        command += " --token TOKEN"
    secured = " and ".join(
        what for what, used in (("TLS", tls_cert), ("tokens", auth_tokens)) if used
    )
    lines = [
        f"kibitz is listening on {host}:{port}"
        f"{f' with {secured}' if secured else ''} (Ctrl-C stops it). In another terminal:",
        f"  {command} games",
        f"  {command} analyse connect4 --moves 4453 --depth 12",
        f"  {command} play tictactoe",
    ]
    if auth_tokens:
        lines.append(
            f"TOKEN: one of the tokens in {auth_tokens} (or set KIBITZ_TOKEN and leave out "
            "--token)."
        )
    if tls_cert:
        lines.append(
            "--tls-ca: the certificate itself when it is self-signed, else the certificate of "
            "the CA that signed it (or set KIBITZ_TLS_CA)."
        )
    return "\n".join(lines)


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
    code = 0
    session = client.open(args.game, args.engine, args.options)
    try:
        search = session.search(
            args.position, args.moves or (), priority=args.priority, **_limits(args)
        )
        display = display_for(args.game, args.position, args.moves or ())
        try:
            _print_progress(search, args, display)
        except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM: stop, show what it found
            if isinstance(interrupt, Terminated):
                code = EXIT_TERMINATED
                print("kibitz: terminated: stopping the search", file=sys.stderr)
            else:
                print("kibitz: stopping the search", file=sys.stderr)
            session.stop()
            _print_progress(search, args, display)
        result = search.wait()
    finally:
        with contextlib.suppress(KibitzError):  # e.g. the server is shutting down
            session.close()
    if args.json:
        print(_json_line(pb.SearchResponse(result=result.proto)), flush=True)
    else:
        print()
        print(result_text(result, display=display))
    return code


def _print_progress(search: SyncSearch, args: argparse.Namespace, display: Display) -> None:
    for info in search:
        print(_progress(info, args, display), flush=True)


def _progress(info: Info, args: argparse.Namespace, display: Display) -> str:
    """An Info as a JSON line (--json) or as text: a line, then the root moves if asked."""
    if args.json:
        return _json_line(pb.SearchResponse(info=info.proto))
    if info.queued and not info.depth:  # the search waited for a slot before it started
        return queued_line(info)
    if info.root_moves:
        return f"{info_line(info, display)}\n{root_moves_line(info.root_moves, display)}"
    return info_line(info, display)


def cmd_analysis(args: argparse.Namespace, client: SyncClient) -> int:
    from kibitz.clients import analysis

    return client.run(lambda async_client: analysis.serve(async_client, sys.stdin, sys.stdout))


def cmd_uci(args: argparse.Namespace, client: SyncClient) -> int:
    from kibitz.clients.uci import UciBridge

    bridge = UciBridge(args.game, args.engine, args.options, sys.stdout)
    try:
        return client.run(lambda async_client: bridge.serve(async_client, sys.stdin))
    except ServerUnavailable as exc:  # only the first call: later errors are info strings
        print(f"kibitz: {_unavailable(client, exc)}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: answer the search, close the session
        client.run(lambda _: bridge.abort())
        raise


def cmd_sessions(args: argparse.Namespace, client: SyncClient) -> int:
    sessions = client.sessions()
    if args.json:
        print(_list_as_json(sessions))
    elif sessions:
        print(sessions_table(sessions))
    else:
        print("no open sessions")
    return 0


def cmd_sessions_close(args: argparse.Namespace, client: SyncClient) -> int:
    if not args.all:
        client.session(args.id).close()
        print(f"closed {args.id}")
        return 0
    sessions = client.sessions()
    for session in sessions:
        with contextlib.suppress(NotFound):  # it expired, or was closed meanwhile
            client.session(session.id).close()
            print(f"closed {session.id}")
    if not sessions:
        print("no open sessions")
    return 0


def cmd_play(args: argparse.Namespace, client: SyncClient) -> int:
    from kibitz.clients.play import play

    return play(client, args, Limits.from_keywords(**(_limits(args) or {"movetime": 1.0})))


def cmd_web(args: argparse.Namespace) -> int:
    from kibitz.web.gateway import run_web

    addresses = [args.server, *(args.also_server or ())]
    return run_web(
        addresses,
        args.host,
        args.port,
        tls_ca=args.tls_ca,
        token=args.token,
        match_dir=args.match,
        allowed_hosts=args.allow_host or (),
    )


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


def _add_serve_command(commands: argparse._SubParsersAction) -> None:
    from kibitz.server.config import default_memory_mb  # only the defaults: no server started

    serve = commands.add_parser(
        "serve",
        help="run the engine server",
        description="Run the engine server. Its limits protect a server that others share; "
        "docs/production.md explains each.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument(
        "--port", type=argtypes.port, default=50051, help="port (default 50051; 0 = any)"
    )
    serve.add_argument(
        "--tls-cert",
        metavar="FILE",
        help="serve over TLS with this PEM certificate chain (with --tls-key), so that nobody on "
        "the way can read or alter the traffic; clients then pass --tls-ca",
    )
    serve.add_argument("--tls-key", metavar="FILE", help="the PEM private key of --tls-cert")
    serve.add_argument(
        "--auth-tokens",
        metavar="FILE",
        help="require a token on every call, from a file of 'NAME TOKEN' lines (clients pass "
        "--token or set KIBITZ_TOKEN); sessions are then private to their token's NAME",
    )
    serve.add_argument(
        "--config",
        metavar="FILE",
        help="host the external UCI engines this TOML file names ([engines.NAME] tables: "
        "command, args, game, options); each is started once at start to read its options, "
        "see docs/uci.md",
    )
    serve.add_argument(
        "--max-sessions",
        type=argtypes.positive_int,
        default=16,
        metavar="N",
        help="open sessions (default 16)",
    )
    serve.add_argument(
        "--max-sessions-per-client",
        type=argtypes.positive_int,
        default=8,
        metavar="N",
        help="open sessions one client (a token's name; without tokens, a host) may hold, so "
        "that no client takes every session (default 8)",
    )
    serve.add_argument(
        "--max-searches",
        type=argtypes.positive_int,
        metavar="N",
        help="concurrent searches (default: number of CPUs); more wait in a queue",
    )
    serve.add_argument(
        "--max-queued",
        type=argtypes.count,
        default=64,
        metavar="N",
        help="searches that may wait for a free search slot; more are refused at once, so that "
        "a flood of requests cannot pile up (default 64)",
    )
    serve.add_argument(
        "--max-memory",
        type=argtypes.positive_int,
        metavar="MB",
        help="memory the engines' tables of all sessions and analyses may take together (plus "
        "a share per worker process); what does not fit is refused, so that the machine does "
        f"not run out (default: half of this machine's memory, {default_memory_mb()} MB)",
    )
    serve.add_argument(
        "--max-search-time",
        type=argtypes.positive_seconds,
        default=3600.0,
        metavar="S",
        help="stop a search without a time limit of its own (--infinite, depth, nodes, solve) "
        "after S seconds, so that a forgotten one cannot hold a search slot (default 3600)",
    )
    serve.add_argument(
        "--spare-workers",
        type=argtypes.count,
        default=1,
        metavar="N",
        help="worker processes kept started ahead of need, so that a new session or analysis "
        "does not wait for one to start (default 1)",
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
    parser.add_argument(
        "--tls-ca",
        default=default_tls_ca(),
        metavar="FILE",
        help="speak TLS, trusting the certificates in this PEM file: the server's own when it "
        "is self-signed, else its CA's (default: $KIBITZ_TLS_CA; without it, no TLS)",
    )
    parser.add_argument(
        "--token",
        default=default_token(),
        help="your token for a server that requires one (--auth-tokens) (default: "
        "$KIBITZ_TOKEN; prefer it: other users of this machine can see --token in the process "
        "list)",
    )
    parser.add_argument("--version", action="version", version=f"kibitz {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    anywhere = argparse.ArgumentParser(add_help=False)  # --server etc. after the command too
    for flag in ("--server", "--tls-ca", "--token"):
        anywhere.add_argument(flag, default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    _add_serve_command(commands)

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
        "--priority",
        type=argtypes.integer(-(2**31), 2**31 - 1),
        default=0,
        metavar="N",
        help="when every search slot of the server is busy, searches with a higher priority "
        "leave the queue first (default 0)",
    )
    analyse.add_argument(
        "--json",
        action="store_true",
        help='JSON lines: one per message of the search stream ({"info": ...} for each '
        'progress report, {"result": ...} last), in protobuf\'s JSON mapping',
    )
    analyse.set_defaults(handler=cmd_analyse)

    analysis = commands.add_parser(
        "analysis",
        parents=[anywhere],
        help="a JSON-lines analysis engine on stdin/stdout (like KataGo's)",
        description="Read JSON queries, one per line, on stdin and answer each with JSON "
        'lines on stdout: {"id": "q1", "game": "connect4", "moves": ["4453"], '
        '"limits": {"depth": 8}}. Queries run concurrently; {"id": "t", "action": '
        '"terminate", "terminateId": "q1"} cancels one. See docs/protocol.md, "JSON-lines '
        'analysis".',
    )
    analysis.set_defaults(handler=cmd_analysis)

    uci = commands.add_parser(
        "uci",
        parents=[anywhere],
        help="a UCI engine on stdin/stdout that forwards to one session on the server",
        description="Speak UCI on stdin/stdout, as a chess GUI expects of an engine, and "
        "search on the server: kibitz --server HOST:PORT uci --game chess --engine alphabeta. "
        "Other games speak UCI in their own notation. See docs/uci.md.",
    )
    uci.add_argument("--game", default="chess", help="game name (default: chess)")
    uci.add_argument(
        "--engine", default="", help="engine name (default: the game's, see `kibitz games -v`)"
    )
    uci.add_argument(
        "--option", "-o", action="append", metavar="NAME=VALUE", help="engine option (repeatable)"
    )
    uci.set_defaults(handler=cmd_uci)

    play = commands.add_parser("play", help="play a game against an engine", parents=[anywhere])
    play.add_argument("game", help="game name (see `kibitz games`)")
    play.add_argument("position", nargs="?", default="", help="position (default: start)")
    _add_search_arguments(play)
    play.add_argument(
        "--you", choices=["first", "second"], default="first", help="which side you play"
    )
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the dice (games with chance), to replay a game (default: random)",
    )
    play.set_defaults(handler=cmd_play)

    web = commands.add_parser(
        "web",
        parents=[anywhere],
        help="serve the web page: analyse and play every game in a browser",
        description="Serve a web page and its HTTP gateway (a client of --server, like the "
        "other commands): analyse positions, play against engines, watch engine against "
        "engine. See docs/web.md.",
    )
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    web.add_argument(
        "--port", type=argtypes.port, default=8080, help="port (default 8080; 0 = any)"
    )
    web.add_argument(
        "--also-server",
        action="append",
        metavar="HOST:PORT",
        help="another kibitz server the page may use, e.g. for engine against engine across "
        "two servers (repeatable; same --tls-ca and --token)",
    )
    web.add_argument(
        "--match",
        metavar="DIR",
        help="a match's --out directory (kibitz match): the page shows its games as they are "
        "played",
    )
    web.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="a host name the page may also be opened by, e.g. behind a proxy or by the "
        "machine's name (repeatable; NAME or NAME:PORT; default: the --host address, "
        "localhost, 127.0.0.1 and [::1] only)",
    )
    web.set_defaults(handler=cmd_web, needs_client=False)

    sessions = commands.add_parser(
        "sessions",
        parents=[anywhere],
        help="list your open sessions, or close them",
        description="List your open sessions (those opened with your token, or from your host "
        "when the server requires no tokens), or close them.",
    )
    sessions.add_argument("--json", action="store_true", help="machine-readable output")
    sessions.set_defaults(handler=cmd_sessions)
    actions = sessions.add_subparsers(dest="action", metavar="ACTION")
    close = actions.add_parser(
        "close", parents=[anywhere], help="close a session (its search stops), or all of yours"
    )
    target = close.add_mutually_exclusive_group(required=True)
    target.add_argument("id", nargs="?", help="the session's id (see `kibitz sessions`)")
    target.add_argument("--all", action="store_true", help="close every session of yours")
    close.set_defaults(handler=cmd_sessions_close)
    match_cli.add_parser(commands, parents=[anywhere])  # `kibitz match`: kibitz/match/cli.py
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except Terminated:  # SIGTERM, after the cleanup on the way here
        print("kibitz: terminated", file=sys.stderr)
        return EXIT_TERMINATED
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
    try:
        client = SyncClient(args.server, tls_ca=args.tls_ca or "", token=args.token or "")
    except ValueError as exc:  # e.g. an unreadable --tls-ca file
        print(f"kibitz: {exc}", file=sys.stderr)
        return EXIT_ERROR
    with client, _sigterm_as_terminated():
        try:
            return handler(args, client)
        except ServerUnavailable as exc:
            print(f"kibitz: {_unavailable(client, exc)}", file=sys.stderr)
            return EXIT_NO_SERVER
        except Unauthenticated:
            print(f"kibitz: {_unauthenticated(client)}", file=sys.stderr)
            return EXIT_ERROR
        except KibitzError as exc:
            print(f"kibitz: {exc.message}", file=sys.stderr)
            return EXIT_ERROR


def _unavailable(client: SyncClient, error: ServerUnavailable) -> str:
    """Why nothing answers, in one line: no server, or TLS on one side only, or a
    certificate the client does not trust."""
    address = client.address
    detail = error.message
    if client.tls_ca is not None:
        if "WRONG_VERSION_NUMBER" in detail:
            return (
                f"the server at {address} does not speak TLS: leave out --tls-ca (and unset "
                "KIBITZ_TLS_CA)"
            )
        if "handshake" in detail.lower() or "peer name" in detail.lower():
            return (
                f"the TLS handshake with {address} failed: its certificate is not one that "
                f"{client.tls_ca} vouches for, or does not name {address.rsplit(':', 1)[0]} "
                "(--tls-ca / KIBITZ_TLS_CA names the certificates to trust)"
            )
    if client.tls_ca is None and "Socket closed" in detail:  # something listens: TLS?
        return (
            f"the server at {address} closed the connection at once; if it speaks TLS, pass "
            "--tls-ca FILE or set KIBITZ_TLS_CA"
        )
    return (
        f"no server answers at {address}; start one with `kibitz serve` (or point --server / "
        "KIBITZ_SERVER at a running one)"
    )


def _unauthenticated(client: SyncClient) -> str:
    if client.authenticated:
        return (
            f"the server at {client.address} does not accept this token (check --token / "
            "KIBITZ_TOKEN)"
        )
    return (
        f"the server at {client.address} requires a token: pass --token TOKEN or set KIBITZ_TOKEN"
    )


if __name__ == "__main__":
    sys.exit(main())
