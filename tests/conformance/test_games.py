"""Every registered game (plugins included) keeps the Game interface's promises.

Driven by the registry, so a new game is covered the moment it is registered: random
playouts with undo restoring everything, notation round trips for positions and moves,
chance probabilities, clone independence, and a consistency check for each capability the
game declares (docs/architecture.md, "The Game interface").
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import astuple

import pytest

from kibitz.games import CHANCE, GAMES, Game, capabilities_of
from kibitz.games.capabilities import (
    Checks,
    ConstraintProblem,
    EndgameTable,
    EstimateSources,
    Evaluation,
    ExpectedReturn,
    ExpectimaxKernel,
    HashKey,
    HiddenInformation,
    HistoryDraws,
    MoveOrdering,
    MovePriors,
    NoisyMoves,
    NullMove,
    OutcomeChances,
    Playout,
    Presentation,
    Puzzle,
    SolverHooks,
    StaticExchange,
    Symmetry,
)
from kibitz.games.presentation import problems

GAME_CLASSES = [GAMES[name] for name in sorted(GAMES)]
PLAYOUTS = 12
MAX_PLIES = 120
"""Playouts stop here (Nim from a big position would run long)."""

games = pytest.mark.parametrize("game", GAME_CLASSES, ids=lambda game: game.name)


def random_move(state: Game, rng: random.Random):
    moves = state.legal_moves()
    if state.to_move() == CHANCE:
        weights = dict(state.chance_outcomes())
        return rng.choices(moves, [weights[move] for move in moves])[0]
    return rng.choice(moves)


def playouts(game: type[Game], seed: int = 1):
    """Yield (state, moves so far) at every position of seeded random playouts."""
    rng = random.Random(f"{game.name}/{seed}")
    for _ in range(PLAYOUTS):
        state = game.from_position("")
        line = []
        while True:
            yield state, line
            if state.is_terminal() or len(line) >= MAX_PLIES:
                break
            move = random_move(state, rng)
            state.play(move)
            line.append(move)


def snapshot(state: Game) -> tuple:
    key = state.key() if isinstance(state, HashKey) else None
    return state.position(), key, state.to_move(), state.legal_moves(), state.render()


@games
def test_random_playouts_follow_the_rules_and_undo_restores_everything(game):
    for state, line in playouts(game):
        assert state.is_terminal() == (not state.legal_moves())
        if len(line) < MAX_PLIES and not state.is_terminal():
            continue  # the rest is checked once per playout, at its end
        if state.is_terminal():
            returns = state.returns()
            assert len(returns) == game.players
            if game.zero_sum:
                assert sum(returns) == pytest.approx(0)
            assert state.terminal_reason()
        # replay the line from the start, then take it all back
        replay = game.from_position("")
        seen = []
        for move in line:
            seen.append(snapshot(replay))
            mover = replay.to_move()
            assert mover == CHANCE or 0 <= mover < game.players
            assert game.has_chance or mover != CHANCE
            replay.play(move)
        assert snapshot(replay) == snapshot(state)
        for before in reversed(seen):
            replay.undo()
            assert snapshot(replay) == before


@games
def test_chance_outcomes_are_the_legal_moves_and_sum_to_one(game):
    for state, _ in playouts(game):
        if state.to_move() != CHANCE:
            continue
        outcomes = state.chance_outcomes()
        assert sorted(map(repr, (move for move, _ in outcomes))) == sorted(
            map(repr, state.legal_moves())
        )
        assert all(p >= 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)


@games
def test_positions_round_trip_through_their_notation(game):
    assert snapshot(game.from_position("")) == snapshot(game.from_position(game.default_position))
    for state, _ in playouts(game):
        again = game.from_position(state.position())
        assert snapshot(again) == snapshot(state)


@games
def test_the_metadata_for_clients_is_well_formed(game):
    """`notation`, `player_names` and `board_shape` (GameInfo's fields; defaults for a game
    that sets none): one name per player, a shape of positive sizes that the start position
    has, and a notation id without blanks."""
    assert isinstance(game.notation, str) and not any(c.isspace() for c in game.notation)
    names = game.names_of_players()
    assert len(names) == game.players and all(names) and len(set(names)) == len(names)
    assert all(isinstance(size, int) and size > 0 for size in game.board_shape)
    assert game.from_position("").shape() == tuple(game.board_shape)
    for state, _ in playouts(game):
        shape = state.shape()
        assert len(shape) == len(game.board_shape) and all(size > 0 for size in shape)


@games
def test_moves_round_trip_through_their_notation(game):
    for state, _ in playouts(game):
        moves = state.legal_moves()
        texts = [state.format_move(move) for move in moves]
        assert len(set(texts)) == len(texts), f"two moves share a name in {state.position()}"
        for move, text in zip(moves, texts, strict=True):
            assert state.parse_move(text) == move


def replayed(game: type[Game], line: list) -> Game:
    state = game.from_position("")
    for move in line:
        state.play(move)
    return state


@games
def test_a_clone_is_independent_of_its_original(game):
    rng = random.Random(7)
    for position, line in playouts(game):
        if position.is_terminal() or len(line) % 5:
            continue
        state = replayed(game, line)
        before = snapshot(state)
        copy = state.clone()
        assert snapshot(copy) == before
        copy.play(random_move(copy, rng))
        assert snapshot(state) == before
        for _ in range(len(line) + 1):  # the history came along: the clone takes it all back
            copy.undo()
        assert snapshot(copy) == snapshot(game.from_position(""))
        assert snapshot(state) == before
        for _ in line:  # and the original still can
            state.undo()
        assert snapshot(state) == snapshot(game.from_position(""))


@games
def test_moves_have_labels_people_can_tell_apart(game):
    """`move_labels` and `label_line` (SAN for chess, the notation by default): one
    non-empty label per move, different moves labelled differently, the position unchanged."""
    for state, line in playouts(game):
        before = snapshot(state)
        moves = state.legal_moves()
        labels = state.move_labels(moves)
        assert len(labels) == len(moves) and all(labels)
        assert len(set(labels)) == len(labels), f"two moves share a label in {state.position()}"
        if state.is_terminal() or len(line) >= MAX_PLIES:  # the whole line, once a playout
            assert len(replayed(game, []).label_line(line)) == len(line)
        assert snapshot(state) == before


@games
def test_a_game_is_written_down_in_its_record_format(game):
    """`export_record` from the start through a playout's moves: text in `record_format`,
    and the default JSON holds the moves and the result."""
    for state, line in playouts(game):
        if not (state.is_terminal() or len(line) >= MAX_PLIES):
            continue
        start = replayed(game, [])
        texts = start.format_line(line)
        record = start.export_record(texts, ["a", "b"], {"Event": "test"}, ["c"] * len(texts))
        assert record.format == game.record_format and record.text and record.media_type
        if record.format == "json":
            written = json.loads(record.text)
            assert written["moves"] == texts and written["final"] == state.position()
            assert (written["result"] is not None) == state.is_terminal()


# -- capabilities ------------------------------------------------------------------------------


CHECKS: dict = {}


def checks(capability):
    """Register the function below as the consistency check of `capability`."""

    def register(function):
        CHECKS[capability] = function
        return function

    return register


def assert_same_moves(first, second) -> None:
    assert Counter(map(repr, first)) == Counter(map(repr, second))


def decision_nodes(game: type[Game]):
    for state, line in playouts(game):
        if not state.is_terminal() and state.to_move() != CHANCE:
            yield state, line


SAMPLED_EVERY = 7
"""The checks of estimates and tables visit every so many decision nodes (a network's
estimate, one position at a time, is slow)."""


def sampled_decision_nodes(game: type[Game]):
    """Every `SAMPLED_EVERY`-th of `decision_nodes`."""
    return itertools.islice(decision_nodes(game), None, None, SAMPLED_EVERY)


@checks(MoveOrdering)
def ordered_moves_are_the_legal_moves(game):
    for state, _ in decision_nodes(game):
        assert_same_moves(state.ordered_moves(), state.legal_moves())


@checks(NoisyMoves)
def noisy_moves_are_legal(game):
    for state, _ in decision_nodes(game):
        legal = set(map(repr, state.legal_moves()))
        assert set(map(repr, state.noisy_moves())) <= legal


@checks(StaticExchange)
def static_exchange_leaves_the_position_alone(game):
    for state, _ in decision_nodes(game):
        position = state.position()
        for move in state.noisy_moves():
            assert isinstance(state.exchange(move), int)
        assert state.position() == position


@checks(Evaluation)
def evaluation_takes_a_point_of_view(game):
    for state, _ in decision_nodes(game):
        value = state.evaluate()
        assert isinstance(value, int)
        assert state.evaluate(state.to_move()) == value
        if game.players == 2 and game.zero_sum:
            assert state.evaluate(1 - state.to_move()) == -value


@checks(ExpectedReturn)
def expected_returns_stay_within_the_bounds_from_every_point_of_view(game):
    low, high = game.return_bounds
    assert low < high
    for state, _ in playouts(game):
        if state.is_terminal():
            assert all(low <= value <= high for value in state.returns())
            continue
        values = [state.expected_return(player) for player in range(game.players)]
        assert all(isinstance(value, float) and low <= value <= high for value in values)
        if game.players == 2 and game.zero_sum:
            assert values[0] == -values[1]


@checks(OutcomeChances)
def outcome_chances_are_consistent_and_exact_at_the_end(game):
    """Cumulative chances in order from both sides (each side's the other's flipped); at the
    end of a game certain, and a win worth its points (1 single, 2 gammon, 3 backgammon)."""
    for state, _ in playouts(game):
        chances = state.outcome_chances(0)
        assert 0 <= chances.win_backgammon <= chances.win_gammon <= chances.win <= 1
        assert 0 <= chances.loss_backgammon <= chances.loss_gammon <= chances.loss <= 1
        assert astuple(state.outcome_chances(1)) == pytest.approx(astuple(chances.flipped()))
        if state.is_terminal():
            points = 1 + chances.win_gammon + chances.win_backgammon
            points -= 2 * chances.loss + chances.loss_gammon + chances.loss_backgammon
            assert chances.win in (0.0, 1.0) and points == state.returns()[0]


@checks(EstimateSources)
def each_estimate_values_the_same_position_and_a_batch_as_one_at_a_time(game):
    """Each named estimate: a position that is the same but for it (itself when asked
    again, and for the first name, which a position starts with), the original untouched,
    its estimates within the bounds; where it is batched, `values_after` as each move's
    returns or estimate one at a time."""
    names = game.estimate_names
    assert names and len(set(names)) == len(names)
    low, high = game.return_bounds
    for state, _ in sampled_decision_nodes(game):
        assert state.with_estimate(names[0]) is state
        before = snapshot(state)
        for name in names:
            estimated = state.with_estimate(name)
            assert estimated.with_estimate(name) is estimated
            assert snapshot(estimated) == before
            assert low <= estimated.expected_return(0) <= high
            if not estimated.batched():
                continue
            moves = estimated.legal_moves()
            values, estimates = estimated.values_after(moves)
            for move, value, estimate in zip(moves, values, estimates, strict=True):
                estimated.play(move)
                over = estimated.is_terminal()
                single = estimated.returns()[0] if over else estimated.expected_return(0)
                estimated.undo()
                assert estimate is not over and value == pytest.approx(single, abs=1e-9)
        assert snapshot(state) == before


@checks(EndgameTable)
def the_endgame_table_is_taken_or_refused_with_how_to_build_it(game):
    """Without the table: the same position (itself when asked again). With it: the same,
    or where it is not built FileNotFoundError with a message."""
    for state, _ in sampled_decision_nodes(game):
        before = snapshot(state)
        without = state.with_endgame_table(False)
        assert without.with_endgame_table(False) is without and snapshot(without) == before
        try:
            with_table = state.with_endgame_table(True)
        except FileNotFoundError as exc:
            assert str(exc)
        else:
            assert with_table.with_endgame_table(True) is with_table
            assert snapshot(with_table) == before


@checks(ExpectimaxKernel)
def the_expectimax_kernel_lists_the_moves_and_estimates_as_the_game(game):
    """Where the kernel is built: the moves of each decision node in the game's order and
    the estimate of each position the game's, to the bit."""
    kernel = game.expectimax_kernel()
    if kernel is None:
        pytest.skip(f"{game.name}'s expectimax kernel is not built")
    for state, _ in playouts(game):
        if state.is_terminal():
            continue
        assert kernel.estimate(state) == state.expected_return(0)
        if state.to_move() != CHANCE:
            ordered = isinstance(state, MoveOrdering)
            assert kernel.moves(state) == (
                state.ordered_moves() if ordered else state.legal_moves()
            )


@checks(SolverHooks)
def solver_hooks_tell_the_truth(game):
    for state, _ in decision_nodes(game):
        mover = state.to_move()
        wins = state.winning_moves()
        for move in wins:
            state.play(move)
            assert state.is_terminal() and state.returns()[mover] > 0
            state.undo()
        if wins:
            continue
        for move in state.non_losing_moves():
            assert move in state.legal_moves()
            state.play(move)
            if not state.is_terminal():
                assert state.winning_moves() == [], "a non-losing move lets the opponent win"
            state.undo()


@checks(Symmetry)
def mirrored_lines_share_symmetric_keys(game):
    for state, line in playouts(game):
        for move in state.legal_moves():
            assert state.mirror_move(state.mirror_move(move)) == move
        mirror = game.from_position("")
        for move in line:
            mirror.play(state.mirror_move(move))
        key, mirrored = state.symmetric_key()
        mirror_key, mirror_mirrored = mirror.symmetric_key()
        assert key == mirror_key
        if mirrored == mirror_mirrored:  # only a position that is its own mirror image
            assert state.position() == mirror.position()


@checks(Playout)
def playouts_end_games_and_leave_the_position(game):
    rng = random.Random(3)
    for state, _ in playouts(game):
        before = snapshot(state)
        returns = state.playout(rng)
        assert snapshot(state) == before
        assert len(returns) == game.players
        if state.is_terminal():
            assert tuple(returns) == tuple(state.returns())


@checks(MovePriors)
def move_priors_cover_the_legal_moves(game):
    for state, _ in decision_nodes(game):
        priors = state.move_priors()
        assert_same_moves([move for move, _ in priors], state.legal_moves())
        assert all(p >= 0 for _, p in priors)
        assert sum(p for _, p in priors) == pytest.approx(1.0)


@checks(Checks)
def a_finished_game_in_check_is_lost_by_the_side_to_move(game):
    for state, _ in decision_nodes(game):
        assert isinstance(state.in_check(), bool)
    for state, _ in playouts(game):
        if state.is_terminal() and state.in_check() and len(set(state.returns())) > 1:
            assert state.returns()[state.to_move()] == min(state.returns())


@checks(NullMove)
def a_pass_changes_the_side_to_move_and_undo_restores_it(game):
    for state, _ in decision_nodes(game):
        if not state.null_move_allowed():
            continue
        before = snapshot(state)
        mover = state.to_move()
        state.play_null()
        assert state.to_move() == 1 - mover
        state.undo()
        assert snapshot(state) == before


@checks(HistoryDraws)
def plies_count_the_moves_played(game):
    start = game.from_position("").ply()
    for state, line in playouts(game):
        assert state.ply() == start + len(line)
        assert isinstance(state.history_draw(start), bool)
        first, moves = state.start_and_moves()
        replayed = game.from_position(first)
        replayed.play_line(moves)
        assert replayed.position() == state.position() and replayed.ply() == state.ply()


@checks(Puzzle)
def puzzle_heuristics_are_consistent_and_inverses_take_moves_back(game):
    """A puzzle has one player and a goal worth (1.0,); each named heuristic is a whole
    number, 0 at the goal, "" the first name, and consistent along every legal move (h
    before <= the move's cost + h after); costs are positive whole numbers (1 with
    `unit_costs`); a move's inverse, where it has one, is legal after it and takes it back."""
    names = game.heuristic_names
    assert game.players == 1 and names and len(set(names)) == len(names)
    for state, _ in playouts(game):
        values = [state.heuristic(name) for name in names]
        assert all(isinstance(value, int) and value >= 0 for value in values)
        assert state.heuristic() == values[0]
        if state.is_terminal():
            assert values == [0] * len(names) and tuple(state.returns()) == (1.0,)
            continue
        before = snapshot(state)
        for move in state.legal_moves():
            cost = state.move_cost(move)
            assert isinstance(cost, int) and cost > 0 and (cost == 1 or not game.unit_costs)
            state.play(move)
            after = [state.heuristic(name) for name in names]
            assert all(h <= cost + h_after for h, h_after in zip(values, after, strict=True))
            inverse = state.inverse(move)
            if inverse is not None and not state.is_terminal():
                assert inverse in state.legal_moves()
                state.play(inverse)
                assert snapshot(state)[:2] == before[:2]
                state.undo()
            state.undo()
            assert snapshot(state) == before


@checks(ConstraintProblem)
def assignments_keep_the_hard_constraints_and_moves_assign_them(game):
    """One model for every position of a game (the same variables, domains and
    constraints); the assignment breaks no hard constraint and holds values of the domains;
    each legal move is an `assignment_move` and assigns it."""

    def shape(model):
        kinds = [(type(c), c.scope, c.name, c.cost) for c in model.constraints]
        return model.variables, model.domains, kinds

    model = game.from_position("").constraint_model()
    for state, _ in playouts(game):
        assert shape(state.constraint_model()) == shape(model)
        values = state.assignment()
        assert len(values) == len(model.variables) and model.violated(values) is None
        assert all(v is None or v in d for v, d in zip(values, model.domains, strict=True))
        for move in state.legal_moves():
            variable, value = next(
                (variable, value)
                for variable, held in enumerate(values)
                if held is None
                for value in model.domains[variable]
                if state.assignment_move(variable, value) == move
            )
            state.play(move)
            assert state.assignment() == [*values[:variable], value, *values[variable + 1 :]]
            state.undo()


@checks(HiddenInformation)
def views_read_back_and_their_worlds_are_consistent_with_them(game):
    """The playouts are of full states: before the end, every player's view reads back as
    itself (a view of that player, or the full state where nothing is hidden from them); a
    full state samples itself; a view's sampled worlds and listed worlds are full states
    whose view of the observer is the view, the worlds' probabilities summing to 1. (The
    checks above play full states only: a view is never played through nor searched. At
    the end a view need not be readable: in phantom tic-tac-toe the loser cannot know how
    the game ended.)"""
    rng = random.Random(5)
    for state, _ in playouts(game):
        assert not state.is_view() and state.sample(rng).position() == state.position()
        if state.is_terminal():
            continue
        for player in range(game.players):
            text = state.view(player)
            view = game.from_position(text)
            assert view.view(player) == text and view.position() == text
            if not view.is_view():
                continue
            assert view.observer() == player
            worlds = view.worlds() or []
            assert not worlds or sum(p for _, p in worlds) == pytest.approx(1.0)
            for world in [view.sample(rng), *(world for world, _ in worlds)]:
                assert not world.is_view() and world.view(player) == text


@checks(Presentation)
def diagrams_are_well_formed_and_their_clicks_play_legal_moves(game):
    for state, line in playouts(game):
        diagram = state.diagram(line[-1] if line else None)
        assert problems(diagram, game.players) == []
        legal = state.legal_moves()
        targeted = [target.move for target in diagram.targets]
        assert all(move in legal for move in targeted)
        assert len(set(map(repr, targeted))) == len(targeted), "a move with two targets"
        # moves that the same clicks play (chess promotions) are offered by their labels
        by_clicks: dict[tuple[str, str], list] = {}
        for target in diagram.targets:
            for place in target.to_places:
                by_clicks.setdefault((target.from_place, place), []).append(target.move)
        for moves in by_clicks.values():
            if len(moves) > 1:  # one move needs no check; chess labels cost a board a call
                assert len(set(state.move_labels(moves))) == len(moves)


DECLARED = [
    pytest.param(game, capability, id=f"{game.name}-{capability.__name__}")
    for game in GAME_CLASSES
    for capability in capabilities_of(game)
]


@pytest.mark.parametrize(("game", "capability"), DECLARED)
def test_declared_capabilities_are_consistent(game, capability):
    if capability is HashKey:  # checked with every snapshot above
        assert isinstance(game.from_position("").key(), int)
    else:
        CHECKS[capability](game)
