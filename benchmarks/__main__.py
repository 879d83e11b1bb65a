"""`python -m benchmarks`: the service (round trips and load, benchmarks/load.py), Monte
Carlo tree search (benchmarks/montecarlo.py), expectiminimax on Pig (benchmarks/expectimax.py),
backgammon against GNU Backgammon (benchmarks/backgammon.py), chess next to Sunfish and
Stockfish (benchmarks/chess.py), sliding puzzles (benchmarks/puzzles.py), constraint
satisfaction next to python-constraint2 and OR-Tools (benchmarks/csp.py), three players and
more on Chinese checkers (benchmarks/multiplayer.py), hidden information next to OpenSpiel
(benchmarks/hidden.py), double-dummy bridge next to DDS (benchmarks/bridge.py), GIB-style
bridge play (benchmarks/bridge_play.py), then Connect Four solving.

Everything runs under ``if __name__ == "__main__"``: the Connect Four peers start their child
processes from a forkserver, which re-imports this module in every child.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import sys
import time

from kibitz import argtypes


def parse_args(argv: list[str]) -> argparse.Namespace:
    from benchmarks import load  # here, not at the top: see the docstring

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="kibitz benchmarks: the service over loopback (round trips, then 16 and 64 "
        "clients searching at once), Monte Carlo tree search next to OpenSpiel's (simulations "
        "per second, matches), expectiminimax next to OpenSpiel's on Pig, backgammon against "
        "GNU Backgammon (agreement, games, speed), chess next to Sunfish and Stockfish (nodes "
        "per second, Win At Chess, matches), sliding puzzles, constraint satisfaction next "
        "to python-constraint2 and OR-Tools CP-SAT (sudoku sets, counting, zebra), three "
        "players and more on Chinese checkers (depth, round robins, OpenSpiel's MCTS), hidden "
        "information (NashConv on Kuhn and Leduc poker, phantom tic-tac-toe matches with "
        "OpenSpiel's ISMCTS), double-dummy bridge tables next to DDS, GIB-style bridge play "
        "(pimc as declarer and defender), then Connect Four "
        "solving on Pons's test sets next to easyAI "
        "and OpenSpiel (see benchmarks/README.md).",
    )
    parser.add_argument(
        "--quick", action="store_true", help="small samples and short caps: a smoke run"
    )
    parser.add_argument(
        "--sets",
        type=lambda text: [name.strip() for name in text.split(",") if name.strip()],
        help="Connect Four sets to run, comma-separated (default: all six), e.g. L3_R1,L2_R1",
    )
    parser.add_argument(
        "--per-set",
        type=argtypes.positive_int,
        metavar="N",
        help="positions sampled per set for kibitz (peers: at most their default, at most N)",
    )
    parser.add_argument(
        "--peer-per-set",
        type=argtypes.count,
        metavar="N",
        help="positions per set for each peer (a spread subset of kibitz's sample; 0 = none)",
    )
    parser.add_argument(
        "--cap",
        type=argtypes.positive_seconds,
        metavar="S",
        help="peer time cap per position, seconds (default: 12x our mean time on the set, 2-300 s)",
    )
    parser.add_argument(
        "--our-cap",
        type=argtypes.positive_seconds,
        metavar="S",
        help="kibitz's time cap per position, seconds (default 300; a capped position is "
        "not exact)",
    )
    parser.add_argument("--no-peers", action="store_true", help="Connect Four without peers")
    parser.add_argument(
        "--load-seconds",
        type=argtypes.positive_seconds,
        metavar="S",
        help=f"wall time of the load for each number of clients, seconds (default "
        f"{load.LOAD_SECONDS:g}, --quick {load.QUICK_LOAD_SECONDS:g})",
    )
    parser.add_argument(
        "--no-load",
        "--no-service",
        dest="no_load",
        action="store_true",
        help="skip the service benchmark (round trips and load)",
    )
    parser.add_argument(
        "--no-connect4", action="store_true", help="skip the Connect Four benchmark"
    )
    parser.add_argument("--no-mcts", action="store_true", help="skip the Monte Carlo benchmark")
    parser.add_argument(
        "--mcts-games",
        type=argtypes.positive_int,
        metavar="N",
        help="games per Monte Carlo pairing (default 100, --quick 4)",
    )
    parser.add_argument(
        "--mcts-playouts",
        type=argtypes.positive_int,
        default=1000,
        metavar="N",
        help="playouts per move in the matches against OpenSpiel's MCTS (default 1000)",
    )
    parser.add_argument(
        "--no-cluster",
        action="store_true",
        help="skip the service through `kibitz cluster` (nginx's hop, the load on 1-3 servers)",
    )
    parser.add_argument("--no-expectimax", action="store_true", help="skip expectiminimax on Pig")
    parser.add_argument(
        "--no-backgammon", action="store_true", help="skip the backgammon benchmark"
    )
    parser.add_argument("--no-chess", action="store_true", help="skip the chess benchmark")
    parser.add_argument(
        "--no-puzzles",
        action="store_true",
        help="skip the sliding puzzles (Korf's 100 with IDA*, the 8-puzzle with A*)",
    )
    parser.add_argument(
        "--no-csp",
        action="store_true",
        help="skip constraint satisfaction (sudoku sets, counting, zebra, ablation)",
    )
    parser.add_argument(
        "--no-multiplayer",
        action="store_true",
        help="skip three players and more (Chinese checkers: depth, round robins, OpenSpiel)",
    )
    parser.add_argument(
        "--no-hidden",
        action="store_true",
        help="skip hidden information (NashConv on Kuhn and Leduc, phantom tic-tac-toe matches)",
    )
    parser.add_argument(
        "--no-bridge",
        action="store_true",
        help="skip double-dummy bridge (list100's tables next to DDS through endplay)",
    )
    parser.add_argument(
        "--no-bridge-play",
        action="store_true",
        help="skip GIB-style bridge play (pimc as declarer and defender on random deals)",
    )
    parser.add_argument(
        "--chess-pairs",
        type=argtypes.positive_int,
        metavar="N",
        help="pairs of games (one opening, colours swapped) per chess match at 10+0.1 "
        "(default 50, --quick 2)",
    )
    parser.add_argument(
        "--chess-ladder",
        type=lambda text: tuple(argtypes.positive_int(elo) for elo in text.split(",")),
        metavar="ELO,...",
        help="Stockfish's UCI_Elo rungs, one chess match each, with kibitz's rating fitted "
        "over all of them (default 1350,1600,1800,2000,2200, --quick 1350,1600)",
    )
    parser.add_argument(
        "--backgammon-pairs",
        type=argtypes.positive_int,
        metavar="N",
        help="pairs of games (common dice, colours swapped) per backgammon pairing "
        "(default 100, --quick 2)",
    )
    return parser.parse_args(argv)


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    start = time.perf_counter()
    if not args.no_load:
        from benchmarks import load

        load.run(quick=args.quick, load_seconds=args.load_seconds, cluster=not args.no_cluster)
    if not args.no_mcts:
        from benchmarks import montecarlo

        montecarlo.run(games=args.mcts_games, playouts=args.mcts_playouts, quick=args.quick)
    if not args.no_expectimax:
        from benchmarks import expectimax

        expectimax.run(quick=args.quick)
        print()
    if not args.no_backgammon:
        from benchmarks import backgammon

        backgammon.run(pairs=args.backgammon_pairs, quick=args.quick)
        print()
    if not args.no_chess:
        from benchmarks import chess

        chess.run(quick=args.quick, pairs=args.chess_pairs, ladder=args.chess_ladder)
        print()
    if not args.no_puzzles:
        from benchmarks import puzzles

        puzzles.run(quick=args.quick)
        print()
    if not args.no_csp:
        from benchmarks import csp

        csp.run(quick=args.quick)
        print()
    if not args.no_multiplayer:
        from benchmarks import multiplayer

        multiplayer.run(quick=args.quick)
        print()
    if not args.no_hidden:
        from benchmarks import hidden

        hidden.run(quick=args.quick)
        print()
    if not args.no_bridge:
        from benchmarks import bridge

        bridge.run(quick=args.quick)
        print()
    if not args.no_bridge_play:
        from benchmarks import bridge_play

        bridge_play.run(quick=args.quick)
        print()
    if not args.no_connect4:
        from benchmarks import connect4

        connect4.run(
            sets=args.sets,
            per_set=args.per_set,
            peer_per_set=args.peer_per_set,
            our_cap=args.our_cap,
            peer_cap=args.cap,
            use_peers=not args.no_peers,
            quick=args.quick,
        )
    command = shlex.join(["python", "-m", "benchmarks", *argv])
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"\n$ {command}   ({now}, {time.perf_counter() - start:.0f} s in all)")


if __name__ == "__main__":
    main(sys.argv[1:])
