"""Which games a match plays: pairings (two engines, round-robin, gauntlet), openings (a file,
seeded random plies, or the start position), each played twice with colours reversed, in
sequential or seeded-random order, and the dice seed of each pair (the same for both games);
in a game of N players, rotation sets instead of pairs: every engine in every seat, with the
same opening and dice (`build_seated`).

Everything here is a pure function of the match's settings and its seed, so that a resumed
match, or a game played on another machine, plays exactly the same schedule.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from kibitz.games import CHANCE, GAMES
from kibitz.match.game import GameTask, Opening
from kibitz.match.seats import seatings
from kibitz.match.spec import SpecError

TOURNAMENTS = ("round-robin", "gauntlet")


def encounters(engines: int, tournament: str = "round-robin") -> list[tuple[int, int]]:
    """The engine pairs that meet: all pairs (round-robin) or the first engine against each
    other one (gauntlet)."""
    if engines < 2:
        raise SpecError("a match needs at least two engines")
    if tournament == "gauntlet":
        return [(0, other) for other in range(1, engines)]
    if tournament != "round-robin":
        raise SpecError(f"--tournament must be one of {', '.join(TOURNAMENTS)}")
    return [(a, b) for a in range(engines) for b in range(a + 1, engines)]


def read_openings(path: str | Path, game: str) -> list[Opening]:
    """One opening a line (blank lines and lines starting with # skipped): a position in the
    game's notation (any the game reads: an EPD line for chess), else moves from the start
    position (Hex: `a1 b2`)."""
    cls = GAMES[game]
    openings = []
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as exc:
        raise SpecError(f"cannot read the openings file {path}: {exc.strerror}") from None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        openings.append(_opening(cls, line, f"{Path(path).name}:{number}"))
    if not openings:
        raise SpecError(f"the openings file {path} holds no opening")
    return openings


def _opening(cls, line: str, label: str) -> Opening:
    try:
        state = cls.from_position(line)
    except ValueError as exc:
        position_error = exc
    else:
        if state.is_terminal():
            raise SpecError(f"{label}: the game is already over in this opening")
        return Opening(position=state.position(), label=label)  # as the game writes it
    state = cls.from_position("")
    try:
        state.play_line(state.split_moves(line))
    except ValueError as moves_error:
        raise SpecError(
            f"{label}: neither a position ({position_error}) nor moves from the start "
            f"({moves_error})"
        ) from None
    if state.is_terminal():
        raise SpecError(f"{label}: the game is already over in this opening")
    return Opening(moves=tuple(state.split_moves(line)), label=label)


def random_opening(game: str, plies: int, seed: str) -> Opening:
    """`plies` random legal moves (dice rolled by their probabilities) from the start,
    seeded; a line that ends the game is drawn again."""
    rng = random.Random(seed)
    cls = GAMES[game]
    for _ in range(1000):
        state = cls.from_position("")
        moves = []
        decisions = 0
        while decisions < plies and not state.is_terminal():
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                move = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                move = rng.choice(state.legal_moves())
                decisions += 1
            moves.append(state.format_move(move))
            state.play(move)
        if not state.is_terminal():
            return Opening(moves=tuple(moves), label=f"random {plies} plies")
    raise SpecError(f"{game}: no random opening of {plies} plies leaves the game undecided")


def seats_of(game: str, openings: Sequence[Opening] = ()) -> int:
    """The number of players of the match's start positions: the openings' (which must all
    agree), else the game's start position's (Chinese checkers: an opening `4` seats 4)."""
    cls = GAMES[game]
    counts = {}
    for opening in openings or (Opening(),):
        state = cls.from_position(opening.position)
        counts.setdefault(state.players, opening.label or "the start position")
    if len(counts) > 1:
        found = ", ".join(f"{count} ({label})" for count, label in sorted(counts.items()))
        raise SpecError(f"the openings are for different numbers of players: {found}")
    return next(iter(counts))


def _openings(
    game: str,
    rounds: int,
    openings: Sequence[Opening],
    random_plies: int,
    order: str,
    seed: int,
) -> list[Opening]:
    """The opening of each round: opening r of the book (cycling; shuffled by `seed` when
    `order` is "random"), or a random opening of `random_plies` plies drawn for that round,
    or the start position."""
    book = list(openings)
    if order == "random":
        random.Random(f"{seed}:order").shuffle(book)
    elif order != "sequential":
        raise SpecError("--openings-order must be sequential or random")
    if book:
        return [book[round_ % len(book)] for round_ in range(rounds)]
    if random_plies:
        return [
            random_opening(game, random_plies, f"{seed}:opening:{round_}")
            for round_ in range(rounds)
        ]
    return [Opening()] * rounds


def _dice_seed(seed: int, encounter: int, round_: int) -> int:
    return random.Random(f"{seed}:dice:{encounter}:{round_}").getrandbits(63)


def build(
    *,
    game: str,
    engines: int,
    tournament: str = "round-robin",
    rounds: int = 1,
    games: int | None = None,
    openings: Sequence[Opening] = (),
    random_plies: int = 0,
    order: str = "sequential",
    seed: int = 1,
) -> list[GameTask]:
    """The games of a two-player match, in the order they start. `rounds` pairs of games
    per encounter (or `games` games, the last pair then perhaps a single game); round r
    plays opening r (`_openings`)."""
    pairs = encounters(engines, tournament)
    per_encounter = games if games is not None else 2 * rounds
    if per_encounter < 1:
        raise SpecError("a match needs at least one game")
    rounds = (per_encounter + 1) // 2
    tasks = []
    for round_, opening in enumerate(_openings(game, rounds, openings, random_plies, order, seed)):
        for index, (a, b) in enumerate(pairs):
            dice_seed = _dice_seed(seed, index, round_)
            for pair_game, players in enumerate(((a, b), (b, a))):
                if 2 * round_ + pair_game >= per_encounter:
                    break
                tasks.append(
                    GameTask(
                        id=len(tasks),
                        encounter=index,
                        round=round_,
                        pair=round_ * len(pairs) + index,
                        pair_game=pair_game,
                        players=players,
                        opening=opening,
                        dice_seed=dice_seed,
                    )
                )
    return tasks


def build_seated(
    *,
    game: str,
    seats: int,
    seating: str = "rotations",
    rounds: int = 1,
    games: int | None = None,
    openings: Sequence[Opening] = (),
    random_plies: int = 0,
    order: str = "sequential",
    seed: int = 1,
) -> list[GameTask]:
    """The games of a match of `seats` engines in a game of as many players, in the order
    they start: `rounds` rotation sets (`seats.seatings`: the N rotations, or the N!
    orders), or `games` games, the last set then perhaps cut short. Every game of set r
    plays opening r (`_openings`) with the same dice; `pair` numbers the set and
    `pair_game` the game in it."""
    orders = seatings(seats, seating)
    total = games if games is not None else len(orders) * rounds
    if total < 1:
        raise SpecError("a match needs at least one game")
    rounds = -(-total // len(orders))
    tasks = []
    for round_, opening in enumerate(_openings(game, rounds, openings, random_plies, order, seed)):
        dice_seed = _dice_seed(seed, 0, round_)
        for index, players in enumerate(orders[: total - round_ * len(orders)]):
            tasks.append(
                GameTask(
                    id=len(tasks),
                    encounter=0,
                    round=round_,
                    pair=round_,
                    pair_game=index,
                    players=players,
                    opening=opening,
                    dice_seed=dice_seed,
                )
            )
    return tasks
