"""The `pimc` engine: Perfect-Information Monte Carlo, as GIB plays bridge (Ginsberg 2001;
docs/engines.md, "Hidden information: cfr and pimc").

A view is never searched itself: `pimc` draws full states consistent with it (`sample`, or
every one of them with its probability where `worlds()` lists few enough), searches each
as a game of perfect information, and answers each of the observer's moves with its mean
value over the worlds and the number of worlds in which it was the best (its votes).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.base import Engine, OptionError, OptionSpec, SearchContext
from kibitz.engines.dds.engine import DoubleDummy
from kibitz.engines.driver import (
    SearchDriver,
    root_candidates,
    terminal_result,
    unsearched_result,
)
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.hidden import common
from kibitz.engines.hidden.common import Line
from kibitz.engines.hidden.tree import Interrupted, normalised
from kibitz.engines.mcts import MCTS
from kibitz.engines.types import Limits, Result, Score
from kibitz.games import CHANCE, Game, HiddenInformation, Move
from kibitz.vocabulary import ScoreKind, StopReason

INNER: dict[str, type[Engine]] = {
    "dds": DoubleDummy,
    "alphabeta": AlphaBeta,
    "expectimax": Expectimax,
    "mcts": MCTS,
}
"""The perfect-information engines a world can be searched with, besides `exact`."""
WORLD_NODES = 1000
"""A world's node budget when the search has no node limit (engines other than exact and
dds)."""
EXACT_INNER = (DoubleDummy,)
"""The engines that solve a world exactly, and quickly: no node budget of their own."""
POLL_NODES = 1024
"""Nodes of the exact search between two polls of the stop signal and the clock."""
PROVEN = {ScoreKind.WIN: 1.0, ScoreKind.LOSS: -1.0, ScoreKind.DRAW: 0.0}
"""The value of a proven score (engines that score wins and losses, not returns)."""


class PIMC(common.HiddenEngine):
    """Perfect-Information Monte Carlo; see the module docstring."""

    name: ClassVar[str] = "pimc"
    description: ClassVar[str] = (
        "Perfect-Information Monte Carlo (GIB) for games of hidden information: samples "
        "full states consistent with the view (every one, by its probability, where the "
        "game lists few), searches each as if its cards were face up, and answers each move "
        "with its mean value over the worlds and its votes (the worlds where it was best). "
        "Knows nothing of strategy fusion: it assumes it will know the cards later."
    )
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "Worlds",
            "spin",
            100,
            "Worlds to sample and search (an infinite search samples on until stopped). "
            "Where the game lists the view's worlds and they are no more, each is searched "
            "once, weighted by its probability.",
            min=1,
            max=1_000_000,
        ),
        OptionSpec("Seed", "spin", 0, "Seed of the sampling of worlds.", min=0, max=2**31 - 1),
        OptionSpec(
            "Engine",
            "combo",
            "auto",
            "What searches each world: exact = expectiminimax to the end of the game on the "
            "returns (small games: it has no depth limit); dds, alphabeta, expectimax, mcts "
            "= that engine with its default options, where it can search the game's worlds "
            "(dds: bridge's deals, double dummy, exactly; alphabeta: games without chance "
            "events; it scores wins and losses, not their size); auto = dds where it can, "
            "else alphabeta where it can, else exact in games with chance events (poker's "
            "deals), else mcts.",
            choices=("auto", "exact", *INNER),
        ),
        OptionSpec(
            "Choice",
            "combo",
            "mean",
            "The best move: mean = the best mean value over the worlds; votes = the most "
            "votes (GIB's), ties to the better mean.",
            choices=("mean", "votes"),
        ),
    )

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        """The tables of the engine that searches the worlds (auto: alphabeta's, at most)."""
        name = str(options["Engine"])
        inner = INNER.get("alphabeta" if name == "auto" else name)
        return inner.memory_mb(inner.default_options()) if inner else 0

    @classmethod
    def check_options_for(cls, game_cls: type[Game], options: Mapping[str, Any]) -> None:
        chosen = str(options["Engine"])
        if chosen in INNER:
            unmet = _inner_unmet(INNER[chosen], game_cls)
            if unmet:
                raise OptionError(
                    f"option Engine: {chosen} cannot search the worlds of {game_cls.name}: "
                    f"it needs {'; '.join(unmet)}"
                )

    def new_game(self) -> None:
        """Nothing is kept between searches."""

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        assert isinstance(state, HiddenInformation)
        player = common.answered_player(state)
        chance = state.to_move() == CHANCE
        odds = dict(state.chance_outcomes()) if chance else {}
        candidates = root_candidates(list(odds) or state.legal_moves(), limits.search_moves)
        unstarted = driver.unstarted()
        if unstarted is not None:
            return unsearched_result(
                candidates[0], Score.from_expected(0.0), driver.elapsed(), unstarted
            )
        tally = _Tally(candidates)
        searcher = _WorldSearch(self.options, type(state), player, candidates, driver, limits)
        worlds = _worlds(state, self.options, candidates, chance, limits.infinite)

        def answer() -> tuple[list[Line], float]:
            return tally.lines(odds, self.options["Choice"])

        next_info = 1
        for world, weight, first in worlds:
            reason = searcher.stop_reason(tally.worlds)
            if reason is not None:
                break
            try:
                values = searcher.values(world, first)
            except Interrupted:
                searcher.elapsed = driver.elapsed()
                reason = driver.stop_reason(searcher.nodes, searcher.elapsed)
                reason = reason or StopReason.STOPPED
                break
            tally.add(values, weight)
            if tally.worlds >= next_info or driver.info_due(driver.elapsed()):
                next_info = max(next_info, tally.worlds) * 2
                lines, value = answer()
                driver.report(common.info(driver, lines, value, tally.worlds, searcher.nodes))
        else:  # every world searched (the last may have spent the node limit)
            limit = driver.node_limit
            done = limit is not None and searcher.nodes >= limit
            reason = StopReason.NODES if done else StopReason.DEPTH
        if not tally.worlds:  # stopped before a world was searched: the first move, unvalued
            line = Line(candidates[0], 0.0)
            driver.report(common.info(driver, [line], 0.0, 0, searcher.nodes, searcher.elapsed))
            return common.result(driver, [line], 0.0, 0, searcher.nodes, reason, {})
        lines, value = answer()
        stats = {"worlds": float(tally.worlds)}
        if not chance:
            stats |= {f"votes {state.format_move(m)}": v for m, v in tally.votes.items()}
        return common.result(driver, lines, value, tally.worlds, searcher.nodes, reason, stats)


def _inner_unmet(engine: type[Engine], game: type[Game]) -> list[str]:
    """What `engine` lacks to search the worlds of `game` (full states: no hidden part)."""
    return replace(engine.requires, hidden=True).unmet(game)


def _automatic(game: type[Game]) -> str:
    """The Engine option auto's choice for `game`: dds where it can search the worlds (it
    solves bridge's deals exactly), else alphabeta where it can; else exact where the game
    has chance events (its worlds are deals of cards, small as poker's), else mcts."""
    for name in ("dds", "alphabeta"):
        if not _inner_unmet(INNER[name], game):
            return name
    return "exact" if game.has_chance else "mcts"


def _worlds(
    state: Game, options: Mapping[str, Any], candidates: list[Move], chance: bool, infinite: bool
) -> Iterator[tuple[Game, float, Move | None]]:
    """(world, weight, root move) to search in turn: the root move is the world's chance
    outcome at a chance root (the outcomes in turn), else None."""
    assert isinstance(state, HiddenInformation)
    count = int(options["Worlds"])
    listed = None if chance or infinite else state.worlds()
    if listed is not None and len(listed) <= count:
        for world, probability in listed:
            yield world, probability, None
        return
    rng = random.Random(int(options["Seed"]))
    index = 0
    while infinite or index < count:
        if chance:
            outcome = candidates[index % len(candidates)]
            world = state.clone()
            world.play(outcome)
            yield _resolved(world, rng), 1.0, outcome
        else:
            yield state.sample(rng), 1.0, None
        index += 1


def _resolved(world: Game, rng: random.Random) -> Game:
    """`world` with its chance events drawn by their probabilities up to a decision."""
    while not world.is_terminal() and world.to_move() == CHANCE:
        moves, weights = zip(*world.chance_outcomes(), strict=True)
        world.play(rng.choices(moves, weights)[0])
    return world


class _WorldSearch:
    """The searches of the worlds: each move's value to `player` in one world."""

    def __init__(
        self,
        options: Mapping[str, Any],
        game: type[Game],
        player: int,
        candidates: list[Move],
        driver: SearchDriver,
        limits: Limits,
    ) -> None:
        chosen = str(options["Engine"])
        if chosen == "auto":
            chosen = _automatic(game)
        self.inner = INNER[chosen]() if chosen in INNER else None
        self.player = player
        self.candidates = candidates
        self.driver = driver
        self.limits = limits
        self.nodes = 0
        self.elapsed = driver.began
        """The latest reading of the search's clock."""
        self._most = 0
        """The most nodes a world has taken (to foresee whether the next fits the limit)."""

    def stop_reason(self, searched: int) -> StopReason | None:
        """Why not to search another world, if not."""
        driver = self.driver
        elapsed = self.elapsed = driver.elapsed()
        reason = driver.stop_reason(self.nodes, elapsed, first_step=searched == 0)
        if reason is None and searched:
            limit = driver.node_limit
            if limit is not None and self.nodes + self._most > limit:
                reason = StopReason.NODES
            elif driver.target_passed(elapsed):
                reason = StopReason.TIME
        return reason

    def cut(self) -> bool:
        """Whether a world's search must end now (a stop, or the hard deadline)."""
        driver = self.driver
        self.elapsed = driver.elapsed()
        return driver.context.stop.is_set() or driver.time.hard_passed(self.elapsed)

    def values(self, world: Game, first: Move | None) -> dict[Move, float]:
        """Each root move's value to the player in `world`; where `first` is given (a chance
        root), only that one's, worth the world's value."""
        before = self.nodes
        if first is None:
            found = self._mover_values(world, self.candidates)
        elif world.is_terminal():
            found = {first: world.returns()[self.player]}
        else:
            mine = self._mover_values(world, world.legal_moves())
            best = max(mine.values(), default=None)
            found = {}
            if best is not None:
                found[first] = best if world.to_move() == self.player else -best
        self._most = max(self._most, self.nodes - before)
        return found

    def _mover_values(self, world: Game, moves: list[Move]) -> dict[Move, float]:
        """The value of each of `moves` in `world` to the player to move there."""
        if self.inner is not None:
            return self._inner_values(world, moves)
        counter = _Counter(self)
        mover = world.to_move()
        values = {}
        for move in moves:
            world.play(move)
            values[move] = _exact(world, mover, counter)
            world.undo()
        return values

    def _inner_values(self, world: Game, moves: list[Move]) -> dict[Move, float]:
        limits = self.limits
        nodes = None if isinstance(self.inner, EXACT_INNER) else WORLD_NODES
        if self.driver.node_limit is not None:
            nodes = max(1, self.driver.node_limit - self.nodes)
        inner_limits = Limits(
            depth=None if limits.infinite else limits.depth,
            nodes=nodes,
            search_moves=list(moves),
            multipv=len(moves),
        )
        # the world's engine keeps time on its own clock: only `cut` reads the search's
        context = SearchContext(stop=_Cut(self.cut), info_interval=0)
        assert self.inner is not None
        result = self.inner.search(world, inner_limits, context)
        self.nodes += result.nodes
        if result.stop_reason == StopReason.STOPPED:
            raise Interrupted
        values = {}
        for root in result.root_moves:
            if root.score.visits == 0:
                continue
            values[root.move] = _score_value(root.score)
        return values


class _Cut:
    """A stop signal raised by a function."""

    def __init__(self, cut: Callable[[], bool]) -> None:
        self.is_set = cut


class _Counter:
    """The exact search's node count and polls."""

    def __init__(self, search: _WorldSearch) -> None:
        self.search = search

    def visit(self) -> None:
        search = self.search
        search.nodes += 1
        limit = search.driver.node_limit
        if (limit is not None and search.nodes > limit) or (
            search.nodes % POLL_NODES == 0 and search.cut()
        ):
            raise Interrupted


def _exact(state: Game, player: int, counter: _Counter) -> float:
    """`player`'s value of `state` by expectiminimax to the end of the game (two players,
    zero-sum: the other player minimises it)."""
    counter.visit()
    if state.is_terminal():
        return state.returns()[player]
    mover = state.to_move()
    if mover == CHANCE:
        weighted = state.chance_outcomes()
    else:
        weighted = [(move, 1.0) for move in state.legal_moves()]
    values = []
    for move, _ in weighted:
        state.play(move)
        values.append(_exact(state, player, counter))
        state.undo()
    if mover == CHANCE:
        return sum(p * v for (_, p), v in zip(weighted, values, strict=True))
    return max(values) if mover == player else min(values)


def _score_value(score: Score) -> float:
    """A score of a world's search as a value in the game's units (a proven win 1)."""
    if score.expected is not None:
        return score.expected
    if score.kind in PROVEN:
        return PROVEN[score.kind]
    return score.value / 100


class _Tally:
    """Each root move's weighted values and votes over the worlds searched so far."""

    def __init__(self, moves: list[Move]) -> None:
        self.moves = moves
        self.sums: dict[Move, float] = {}
        self.weights: dict[Move, float] = {}
        self.votes: dict[Move, float] = {move: 0.0 for move in moves}
        self.worlds = 0

    def add(self, values: dict[Move, float], weight: float) -> None:
        self.worlds += 1
        for move, value in values.items():
            self.sums[move] = self.sums.get(move, 0.0) + weight * value
            self.weights[move] = self.weights.get(move, 0.0) + weight
        if values:
            best = max(self.moves, key=lambda m: values.get(m, float("-inf")))
            self.votes[best] += weight

    def lines(self, odds: dict[Move, float], choice: str) -> tuple[list[Line], float]:
        """The moves valued so far, best first, and the position's value."""
        means = {m: self.sums[m] / self.weights[m] for m in self.moves if self.weights.get(m)}
        lines = [Line(m, means[m], odds.get(m)) for m in self.moves if m in means]
        if odds:  # a chance root: the likeliest outcome first, the value their average
            lines.sort(key=lambda line: -(line.probability or 0.0))
            weights = normalised([line.probability or 0.0 for line in lines])
            return lines, sum(w * line.value for w, line in zip(weights, lines, strict=True))
        if choice == "votes":
            lines.sort(key=lambda line: (-self.votes[line.move], -line.value))
        else:
            lines.sort(key=lambda line: -line.value)
        return lines, lines[0].value
