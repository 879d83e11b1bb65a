"""The client commands of `kibitz` (games, engines, analyse, analysis, uci, play,
bridge-table, sessions): talk to a server from a shell. kibitz/cli.py registers them with
`add_commands`."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import partial

from google.protobuf import json_format

from kibitz import argtypes
from kibitz.clients.bridge import double_dummy_table
from kibitz.clients.client import KibitzError, NotFound, ServerUnavailable, Unauthenticated
from kibitz.clients.par import VULNERABILITIES, par
from kibitz.clients.play import CHANCE, play, players_of
from kibitz.clients.render import (
    info_line,
    queued_line,
    result_text,
    root_moves_line,
    sessions_table,
)
from kibitz.clients.sync import SyncClient, SyncSearch
from kibitz.clients.values import Info, Limits, Result
from kibitz.v1 import engine_pb2 as pb
from kibitz.vocabulary import ScoreKind

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


def cmd_games(args: argparse.Namespace, client: SyncClient) -> int:
    games = client.games()
    if args.json:
        print(_list_as_json(games))
        return 0
    width = max((len(game.name) for game in games), default=0)
    indent = " " * width
    for game in games:
        chance = ", chance" if game.has_chance else ""
        players = "1 player" if game.players == 1 else f"{game.players} players"
        print(f"{game.name:<{width}} {game.title} ({players}{chance})")
        print(f"{indent} start: {game.default_position!r}")
        if args.verbose:
            print(f"{indent} {game.notation_help}")
            print(f"{indent} default engine: {game.default_engine or '(none)'}")
            capabilities = ", ".join(game.capabilities) or "(none)"
            print(f"{indent} capabilities: {capabilities}")
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
    chance = client.describe(args.game, args.position, args.moves or ()).to_move == CHANCE
    session = client.open(args.game, args.engine, args.options)
    try:
        search = session.search(
            args.position, args.moves or (), priority=args.priority, **_limits(args)
        )
        try:
            _print_progress(search, args)
        except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM: stop, show what it found
            if isinstance(interrupt, Terminated):
                code = EXIT_TERMINATED
                print("kibitz: terminated: stopping the search", file=sys.stderr)
            else:
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
        print(result_text(result, chance))
        if args.solve and result.score.proven and players_of(client, args.game) == 1:
            _print_solved(client, args, result)
    return code


def _print_solved(client: SyncClient, args: argparse.Namespace, result: Result) -> None:
    """A puzzle's board once its solution is played (a sudoku's filled grid), where the
    search found one."""
    if result.score.kind is not ScoreKind.WIN:
        return
    solved = client.describe(args.game, args.position, [*(args.moves or ()), *result.pv])
    print()
    print("solved:")
    print(solved.board)


def _print_progress(search: SyncSearch, args: argparse.Namespace) -> None:
    for info in search:
        print(_progress(info, args), flush=True)


def _progress(info: Info, args: argparse.Namespace) -> str:
    """An Info as a JSON line (--json) or as text: a line, then the root moves if asked."""
    if args.json:
        return _json_line(pb.SearchResponse(info=info.proto))
    if info.queued and not info.depth:  # the search waited for a slot before it started
        return queued_line(info)
    if info.root_moves:
        return f"{info_line(info)}\n{root_moves_line(info.root_moves)}"
    return info_line(info)


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


def cmd_bridge_table(args: argparse.Namespace, client: SyncClient) -> int:
    table = double_dummy_table(client, args.deal, args.engine)
    found = par(table.tricks, args.vulnerable, args.dealer)
    if args.json:
        answer = {**table.as_json(), "par": {"score": found.score, "contracts": found.contracts}}
        print(json.dumps(answer))
    else:
        print(table.text())
        print(f"\n{found.text()}  ({args.vulnerable} vulnerable, {args.dealer} deals)")
    return 0


def cmd_play(args: argparse.Namespace, client: SyncClient) -> int:
    return play(client, args, Limits.from_keywords(**(_limits(args) or {"movetime": 1.0})))


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


def add_commands(commands: argparse._SubParsersAction, parents: list) -> None:
    """Register the client commands on the CLI's subcommands (`parents`: the client flags,
    so that --server etc. may follow a command too); each runs with a client of --server."""
    games = commands.add_parser("games", help="list the games", parents=parents)
    games.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="also show the notation, the default engine and the capabilities",
    )
    games.add_argument("--json", action="store_true", help="machine-readable output")
    games.set_defaults(handler=partial(_run_client, cmd_games))

    engines = commands.add_parser(
        "engines", help="list the engines and their options", parents=parents
    )
    engines.add_argument("--json", action="store_true", help="machine-readable output")
    engines.set_defaults(handler=partial(_run_client, cmd_engines))

    analyse = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        parents=parents,
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
    analyse.set_defaults(handler=partial(_run_client, cmd_analyse))

    analysis = commands.add_parser(
        "analysis",
        parents=parents,
        help="a JSON-lines analysis engine on stdin/stdout (like KataGo's)",
        description="Read JSON queries, one per line, on stdin and answer each with JSON "
        'lines on stdout: {"id": "q1", "game": "connect4", "moves": ["4453"], '
        '"limits": {"depth": 8}}. Queries run concurrently; {"id": "t", "action": '
        '"terminate", "terminateId": "q1"} cancels one. See docs/protocol.md, "JSON-lines '
        'analysis".',
    )
    analysis.set_defaults(handler=partial(_run_client, cmd_analysis))

    uci = commands.add_parser(
        "uci",
        parents=parents,
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
    uci.set_defaults(handler=partial(_run_client, cmd_uci))

    play = commands.add_parser("play", help="play a game against an engine", parents=parents)
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
    play.set_defaults(handler=partial(_run_client, cmd_play))

    bridge_table = commands.add_parser(
        "bridge-table",
        parents=parents,
        help="a bridge deal's double-dummy table",
        description="The tricks each seat takes as declarer in each strain with best play by "
        "all four hands (20 exact searches of the dds engine), and the par result.",
    )
    bridge_table.add_argument(
        "deal", help="the deal in PBN: 'N:AKQJ.T98.765.432 T98.765.432.AKQJ ...' (4 hands)"
    )
    bridge_table.add_argument("--engine", default="dds", help="the solver (default: dds)")
    bridge_table.add_argument(
        "--vulnerable",
        choices=VULNERABILITIES,
        default="none",
        help="who is vulnerable, for the par result (default: none)",
    )
    bridge_table.add_argument(
        "--dealer", choices=list("NESW"), default="N", help="who deals, for the par (default N)"
    )
    bridge_table.add_argument("--json", action="store_true", help="machine-readable output")
    bridge_table.set_defaults(handler=partial(_run_client, cmd_bridge_table))

    sessions = commands.add_parser(
        "sessions",
        parents=parents,
        help="list your open sessions, or close them",
        description="List your open sessions (those opened with your token, or from your host "
        "when the server requires no tokens), or close them.",
    )
    sessions.add_argument("--json", action="store_true", help="machine-readable output")
    sessions.set_defaults(handler=partial(_run_client, cmd_sessions))
    actions = sessions.add_subparsers(dest="action", metavar="ACTION")
    close = actions.add_parser(
        "close", parents=parents, help="close a session (its search stops), or all of yours"
    )
    target = close.add_mutually_exclusive_group(required=True)
    target.add_argument("id", nargs="?", help="the session's id (see `kibitz sessions`)")
    target.add_argument("--all", action="store_true", help="close every session of yours")
    close.set_defaults(handler=partial(_run_client, cmd_sessions_close))


def _run_client(
    command: Callable[[argparse.Namespace, SyncClient], int], args: argparse.Namespace
) -> int:
    """Run a client command with a SyncClient of --server, --tls-ca and --token; the client's
    errors become one line and an exit code."""
    if hasattr(args, "option"):
        args.options = _option_pairs(args.option or ())
    try:
        client = SyncClient(args.server, tls_ca=args.tls_ca or "", token=args.token or "")
    except ValueError as exc:  # e.g. an unreadable --tls-ca file
        print(f"kibitz: {exc}", file=sys.stderr)
        return EXIT_ERROR
    with client, _sigterm_as_terminated():
        try:
            return command(args, client)
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
