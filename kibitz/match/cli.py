"""`kibitz match`: engines on kibitz servers (or local UCI commands) play each other under
the runner's own rules and clocks (docs/match.md has every flag).

kibitz/cli.py registers the command with `add_commands`; the handler, `run_command`, imports
the runner only when the command runs, so other commands do not pay for it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from collections.abc import Callable
from typing import Any

from kibitz import argtypes
from kibitz.match.seats import SEATINGS
from kibitz.match.spec import (
    DrawRule,
    EngineSpec,
    MoveLimits,
    ResignRule,
    SpecError,
    SprtSpec,
    TimeControl,
)

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130
EXIT_ENGINE_LOST = 3
"""An engine could not be had for a game mid-match (e.g. its server died): the match
stopped, its summary written; `--resume` continues it."""


def _spec(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type from a spec parser (its SpecError becomes argparse's message)."""

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except SpecError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = parse.__qualname__
    return convert


def add_commands(commands: argparse._SubParsersAction, parents: list) -> None:
    """Register `kibitz match` on the CLI's subcommands (`parents`: the client flags)."""
    match = commands.add_parser(
        "match",
        parents=parents,
        help="play engines against each other (a match, SPRT or tournament)",
        description="Play a match between engines on kibitz servers (or local UCI "
        "commands): the runner keeps the board, the clocks and the result; the engines only "
        "propose moves. Example: kibitz match --game connect4 --engine "
        "name=deep,server=HOST1:50051,depth=8 --engine name=shallow,server=HOST2:50051,"
        "depth=2 --games 20. See docs/match.md.",
    )
    match.add_argument("--game", required=True, help="game name (see `kibitz games`)")
    match.add_argument(
        "--engine",
        action="append",
        required=True,
        metavar="KEY=VALUE,...",
        help="an engine (repeatable: two or more, or in a game of N players N, one a seat): "
        "name=, server=HOST:PORT (default: "
        "--server), engine= (an engine on that server), option.NAME=VALUE, cmd= (a local UCI "
        "command, for games written in FEN; takes the rest of the text), tls_ca=, token=, and "
        "its own tc=, movetime=, depth=, nodes=",
    )
    limits = match.add_argument_group("limits (per move; an engine's own override them)")
    limits.add_argument(
        "--tc", type=_spec(TimeControl.parse), help="clock: [MOVES/]SECONDS[+INC], e.g. 10+0.1"
    )
    limits.add_argument("--movetime", type=argtypes.positive_seconds, help="seconds a move")
    limits.add_argument("--depth", type=argtypes.positive_int, help="depth in plies")
    limits.add_argument("--nodes", type=argtypes.positive_int, help="nodes a move")
    limits.add_argument(
        "--timemargin",
        type=argtypes.any_seconds,
        default=0.1,
        help="seconds an engine may overrun its clock or move time before it loses on time "
        "(default 0.1)",
    )
    limits.add_argument(
        "--hang-timeout",
        type=argtypes.positive_seconds,
        default=300.0,
        help="seconds an engine without a time limit may take for a move before it loses "
        "(default 300)",
    )
    games = match.add_argument_group("games and openings")
    count = games.add_mutually_exclusive_group()
    count.add_argument(
        "--games",
        type=argtypes.positive_int,
        help="games per pair of engines (default 2); N seats: games in all (default one "
        "rotation set)",
    )
    count.add_argument(
        "--rounds",
        type=argtypes.positive_int,
        help="game pairs per pair of engines; N seats: rotation sets",
    )
    source = games.add_mutually_exclusive_group()
    source.add_argument(
        "--openings",
        metavar="FILE",
        help="start positions, one a line, in the game's notation (FEN/EPD, move strings, "
        "Position IDs); each is played twice with colours reversed",
    )
    source.add_argument(
        "--random-openings",
        type=argtypes.positive_int,
        metavar="PLIES",
        help="open each game pair with this many seeded random legal plies",
    )
    games.add_argument(
        "--openings-order",
        choices=["sequential", "random"],
        default="sequential",
        help="the openings file in order, or shuffled by --seed",
    )
    games.add_argument(
        "--seed", type=int, default=1, help="seed of openings, order and dice (default 1)"
    )
    games.add_argument(
        "--seating",
        choices=list(SEATINGS),
        default="rotations",
        help="in a game of N players: a rotation set is the N rotations of the seats (each "
        "engine in each seat once) or all N! orders (default rotations)",
    )
    games.add_argument(
        "--tournament",
        choices=["round-robin", "gauntlet"],
        default="round-robin",
        help="with three or more engines: everyone against everyone, or the first against "
        "each other one",
    )
    judge = match.add_argument_group("adjudication")
    judge.add_argument(
        "--draw",
        type=_spec(DrawRule.parse),
        metavar="movenumber=N,movecount=N,score=CENTI",
        help="draw when both scores stay within CENTI of 0 for movecount moves each",
    )
    judge.add_argument(
        "--resign",
        type=_spec(ResignRule.parse),
        metavar="movecount=N,score=CENTI[,twosided=true]",
        help="an engine loses when its score stays at or below -CENTI for movecount moves",
    )
    judge.add_argument(
        "--maxmoves", type=argtypes.positive_int, help="a draw after this many moves each"
    )
    judge.add_argument(
        "--proven",
        action="store_true",
        help="end a game once both engines report the same proven result (exact)",
    )
    run = match.add_argument_group("running")
    run.add_argument(
        "--concurrency", type=argtypes.positive_int, default=1, help="games at once (default 1)"
    )
    run.add_argument(
        "--sprt",
        type=_spec(SprtSpec.parse),
        metavar="elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic]",
        help="a sequential probability ratio test over game pairs; stops when decided",
    )
    run.add_argument("--out", metavar="DIR", help="write games.jsonl, summary.json (and PGN)")
    run.add_argument("--resume", action="store_true", help="continue the match recorded in --out")
    run.add_argument(
        "--replay-failed",
        action="store_true",
        help="replay games lost to an illegal move, crash, disconnect or hang instead of "
        "counting them (up to 3 times each)",
    )
    run.add_argument(
        "--json", action="store_true", help="print the final summary as one JSON object"
    )
    run.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help="play games in this process, or as Ray tasks (pip install 'kibitz[ray]')",
    )
    run.add_argument(
        "--ray-address",
        help="the Ray cluster to join: HOST:PORT, ray://HOST:PORT, 'auto' (the one `ray start` "
        "ran here), or 'local' for a new local instance (default: RAY_ADDRESS, else local)",
    )
    match.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    """The `kibitz match` command."""
    from kibitz.match.engines import MatchError
    from kibitz.match.record import RecordError

    try:
        match, progress = build(args)
    except (SpecError, MatchError, RecordError) as exc:
        print(f"kibitz match: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        summary = asyncio.run(_run(match, progress))
    except MatchError as exc:
        print(f"kibitz match: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if args.json:
        print(json.dumps(summary))
    else:
        print(_summary_text(summary))
    if match.lost is not None:
        resume = "; --resume continues it" if args.out else ""
        print(f"kibitz match: stopped: {match.lost}{resume}", file=sys.stderr)
        return EXIT_ENGINE_LOST
    return EXIT_INTERRUPTED if summary["stopped"] == "interrupted" else 0


def _summary_text(summary: dict[str, Any]) -> str:
    from kibitz.match.report import summary_text

    return summary_text(summary)


async def _run(match: Any, progress: Any) -> dict[str, Any]:
    """Run the match; Ctrl-C or SIGTERM stops it cleanly (the summary covers the games
    finished so far)."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, match.stop)
    try:
        return await match.run()
    finally:
        progress.end()


def build(args: argparse.Namespace) -> tuple[Any, Any]:
    """The Match the command line describes and its Progress (SpecError, MatchError or
    RecordError if it cannot be played)."""
    from kibitz.games import GAMES
    from kibitz.match import schedule
    from kibitz.match.engines import UCI_NOTATION, MatchError
    from kibitz.match.game import Rules
    from kibitz.match.report import Progress
    from kibitz.match.runner import LocalBackend, Match, MatchSettings

    GAMES.load_plugins()
    if args.game not in GAMES:
        raise MatchError(f"unknown game {args.game!r}; games: {', '.join(GAMES)}")
    if GAMES[args.game].players < 2:
        raise MatchError(f"{args.game} is a puzzle: a match needs a game of two or more players")
    engines = [_engine(text, index, args) for index, text in enumerate(args.engine)]
    if len({spec.name for spec in engines}) != len(engines):
        raise SpecError("every --engine needs a name of its own (name=...)")
    for spec in engines:
        if spec.cmd and GAMES[args.game].notation != UCI_NOTATION:
            raise SpecError(
                f"engine {spec.name}: cmd= (a local UCI engine) plays only games whose "
                f"positions are FEN, not {args.game}"
            )
    shared = MoveLimits(tc=args.tc, movetime=args.movetime, depth=args.depth, nodes=args.nodes)
    limits = [shared.merged(spec.limits) for spec in engines]
    for spec, limit in zip(engines, limits, strict=True):
        if not limit.any():
            raise SpecError(
                f"engine {spec.name} has no limit: give --tc, --movetime, --depth or --nodes "
                "(or tc=, movetime=, depth=, nodes= in its --engine)"
            )
    openings = schedule.read_openings(args.openings, args.game) if args.openings else ()
    seats = schedule.seats_of(args.game, openings)
    arranged = dict(
        game=args.game,
        rounds=args.rounds or 1,
        games=args.games,
        openings=openings,
        random_plies=args.random_openings or 0,
        order=args.openings_order,
        seed=args.seed,
    )
    if seats > 2:
        _check_seated(args, seats, len(engines))
        tasks = schedule.build_seated(seats=seats, seating=args.seating, **arranged)
    else:
        tasks = schedule.build(engines=len(engines), tournament=args.tournament, **arranged)
    rules = Rules(
        game=args.game,
        limits=limits,
        timemargin=args.timemargin,
        hang_timeout=args.hang_timeout,
        maxmoves=args.maxmoves or 0,
        draw=args.draw,
        resign=args.resign,
        proven=args.proven,
    )
    settings = MatchSettings(
        game=args.game,
        engines=engines,
        rules=rules,
        tasks=tasks,
        tournament=args.tournament,
        concurrency=args.concurrency,
        sprt=args.sprt,
        replay_failed=args.replay_failed,
        seats=seats,
        seating=args.seating,
    )
    if args.resume and not args.out:
        raise SpecError("--resume needs --out DIR (the match to continue)")
    progress = Progress(sys.stderr, len(tasks), settings.names)
    if args.backend == "ray":
        from kibitz.match.raybackend import RayBackend

        backend = RayBackend(settings, args.ray_address)
    else:
        backend = LocalBackend(settings, on_wait=progress.waiting)
    match = Match(
        settings, out=args.out, resume=args.resume, backend=backend, listener=progress.game
    )
    return match, progress


def _check_seated(args: argparse.Namespace, seats: int, engines: int) -> None:
    """What a match of `seats` seats cannot take (SpecError): another number of engines,
    a gauntlet, an SPRT, or an adjudication rule that judges two players' scores."""
    if engines != seats:
        raise SpecError(
            f"{args.game} with {seats} players needs {seats} engines (one per seat), got {engines}"
        )
    adjudication = " (--maxmoves ends long games)"
    refused = {
        "--tournament gauntlet": (args.tournament == "gauntlet", ""),
        "--sprt": (args.sprt is not None, ""),
        "--draw": (args.draw is not None, adjudication),
        "--resign": (args.resign is not None, adjudication),
        "--proven": (args.proven, adjudication),
    }
    for flag, (given, hint) in refused.items():
        if given:
            raise SpecError(
                f"{flag} is for two-player games; {args.game} here has {seats} players{hint}"
            )


def _engine(text: str, index: int, args: argparse.Namespace) -> EngineSpec:
    spec = EngineSpec.parse(text, default_server=args.server, index=index)
    if spec.cmd:
        return spec
    from dataclasses import replace

    return replace(
        spec,
        tls_ca=spec.tls_ca if spec.tls_ca is not None else args.tls_ca,
        token=spec.token if spec.token is not None else args.token,
    )
