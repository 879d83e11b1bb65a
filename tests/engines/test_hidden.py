"""The engines for hidden information, `cfr` and `pimc`, in process: on a one-card bluffing
game whose equilibrium is worked out by hand below, and on Kuhn poker against its known
equilibrium family (game value -1/18), NashConv computed independently by enumerating
pure strategies; which engines accept games of hidden information at all."""

from __future__ import annotations

import itertools
import random
import threading
from typing import ClassVar

import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability

from kibitz.engines import ENGINES, Info, Limits, OptionError, SearchContext, StopReason
from kibitz.engines.hidden import CFR, PIMC
from kibitz.games import CHANCE, GAMES, Game, HiddenInformation, Move

PERFECT_INFORMATION_ENGINES = [
    "alphabeta",
    "mcts",
    "expectimax",
    "maxn",
    "paranoid",
    "brs",
    "idastar",
    "astar",
    "csp",
]


class Bluff(Game, HiddenInformation):
    """Player 1 is dealt H or L (evenly) and player 2 nothing; both ante 1. Player 1 checks
    (c: showdown, the high card wins 1) or bets 1 (r); player 2 then calls (c: showdown for
    2) or folds (f: player 1 wins 1). Full states: ``H:r`` (``:`` before the deal); views:
    ``0>H:r`` (player 1's), ``1>?:r`` (player 2's, the card unseen).

    The equilibrium, by indifference: player 2 calls a bet with q such that player 1's
    bluff with L is worth checking's -1: -2q + (1 - q) = -1, q = 2/3; player 1 bluffs with
    p such that player 2's call is worth folding's -1: facing a bet, P(H) = 1/(1 + p), and
    -2/(1 + p) + 2p/(1 + p) = -1, p = 1/3. H always bets (worth 2q + (1 - q) = 5/3 > 1), so
    the game is worth (5/3 - 1)/2 = 1/3 to player 1, and the equilibrium is unique."""

    name: ClassVar[str] = "bluff"
    title: ClassVar[str] = "Bluff"
    has_chance: ClassVar[bool] = True
    default_position: ClassVar[str] = ""
    notation_help: ClassVar[str] = "H:r, 0>H:r, 1>?:r"

    def __init__(self, card: str | None = None, bets: str = "", watcher: int | None = None):
        self.card = card
        self.bets = bets
        self.watcher = watcher

    @classmethod
    def from_position(cls, text: str) -> Bluff:
        watcher = None
        if text[:2] in ("0>", "1>"):
            watcher, text = int(text[0]), text[2:]
        card, _, bets = text.partition(":")
        return cls(None if card in ("", "?") else card, bets, watcher)

    def position(self) -> str:
        return (
            self.view(self.watcher)
            if self.watcher is not None
            else f"{self.card or ''}:{self.bets}"
        )

    def render(self) -> str:
        return self.position()

    def parse_move(self, text: str) -> Move:
        return text

    def format_move(self, move: Move) -> str:
        return str(move)

    def to_move(self) -> int:
        if self.card is None and self.watcher is None:
            return CHANCE
        return {"": 0, "r": 1}.get(self.bets, 0)

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        if self.to_move() == CHANCE:
            return ["H", "L"]
        return ["c", "r"] if self.bets == "" else ["c", "f"]

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return [("H", 0.5), ("L", 0.5)]

    def play(self, move: Move) -> None:
        if self.to_move() == CHANCE:
            self.card = move
        else:
            self.bets += move

    def undo(self) -> None:
        if self.bets:
            self.bets = self.bets[:-1]
        else:
            self.card = None

    def is_terminal(self) -> bool:
        return self.bets in ("c", "rc", "rf")

    def returns(self) -> tuple[float, ...]:
        stake = {"c": 1, "rc": 2, "rf": 1}[self.bets]
        mine = stake if self.bets == "rf" or self.card == "H" else -stake
        return (mine, -mine)

    def is_view(self) -> bool:
        return self.watcher is not None

    def observer(self) -> int:
        if self.watcher is not None:
            return self.watcher
        return max(self.to_move(), 0)

    def view(self, player: int) -> str:
        if self.watcher is not None and player != self.watcher:
            raise ValueError("another player's view of a view")
        card = self.card if player == 0 else "?"
        return f"{player}>{card or ''}:{self.bets}"

    def sample(self, rng: random.Random) -> Game:
        if self.card is not None or self.watcher is None:
            return Bluff(self.card, self.bets)
        return Bluff(rng.choice("HL"), self.bets)

    def worlds(self) -> list[tuple[Game, float]] | None:
        if self.card is not None:
            return [(Bluff(self.card, self.bets), 1.0)]
        return [(Bluff("H", self.bets), 0.5), (Bluff("L", self.bets), 0.5)]


def search(engine, text: str, limits: Limits, game: type[Game] = Bluff, stop=None):
    infos: list[Info] = []
    context = SearchContext(report=infos.append, stop=stop or threading.Event(), info_interval=0)
    result = engine.search(game.from_position(text), limits, context)
    return result, infos


def strategy(result) -> dict[str, float]:
    return {str(root.move): root.probability for root in result.root_moves}


def values(result) -> dict[str, float]:
    return {str(root.move): root.score.expected for root in result.root_moves}


# -- independent NashConv: every pure strategy of the best responder -------------------------


def infosets(game: type[Game]) -> dict[tuple[int, str], list[Move]]:
    """Every information set of `game` with its moves, by a walk from the start."""
    found: dict[tuple[int, str], list[Move]] = {}

    def walk(state: Game) -> None:
        if state.is_terminal():
            return
        mover = state.to_move()
        if mover != CHANCE:
            found[(mover, state.view(mover))] = state.legal_moves()
        for move in state.legal_moves():
            state.play(move)
            walk(state)
            state.undo()

    walk(game.from_position(""))
    return found


def expected(game: type[Game], policy) -> tuple[float, float]:
    """The expected returns when every information set plays `policy(player, view)`, a
    {move: probability}."""

    def walk(state: Game, weight: float) -> list[float]:
        if state.is_terminal():
            return [weight * r for r in state.returns()]
        mover = state.to_move()
        if mover == CHANCE:
            branches = state.chance_outcomes()
        else:
            chosen = policy(mover, state.view(mover))
            branches = [(move, chosen.get(move, 0.0)) for move in state.legal_moves()]
        total = [0.0, 0.0]
        for move, p in branches:
            if p:
                state.play(move)
                total = [a + b for a, b in zip(total, walk(state, weight * p), strict=True)]
                state.undo()
        return total

    return tuple(walk(game.from_position(""), 1.0))


def nash_conv(game: type[Game], policy) -> float:
    """Sum over the players of the best pure response's gain over `policy`."""
    sets = infosets(game)
    on_policy = expected(game, policy)
    gain = 0.0
    for player in (0, 1):
        mine = [key for key in sets if key[0] == player]
        best = max(
            expected(game, deviation(policy, player, dict(zip(mine, choice, strict=True))))[player]
            for choice in itertools.product(*(sets[key] for key in mine))
        )
        gain += best - on_policy[player]
    return gain


def deviation(policy, player: int, pure: dict):
    """`policy` with `player` playing the pure strategy `pure` instead."""
    return lambda p, view: {pure[(p, view)]: 1.0} if p == player else policy(p, view)


def cfr_policy(game: type[Game], engine: CFR, limits: Limits):
    """Each information set's strategy as `cfr` answers its view."""
    table = {}
    for (player, view), _ in infosets(game).items():
        result, _ = search(engine, view, limits, game)
        table[(player, view)] = {root.move: root.probability for root in result.root_moves}
    return lambda player, view: table[(player, view)]


# -- cfr on the bluffing game --------------------------------------------------------------------


def test_cfr_finds_the_bluffing_equilibrium_and_its_value():
    engine = CFR()
    result, infos = search(engine, "0>L:", Limits(depth=2000))
    assert strategy(result) == pytest.approx({"c": 2 / 3, "r": 1 / 3}, abs=2e-3)
    assert result.best_move == "c" and [root.move for root in result.root_moves] == ["c", "r"]
    # L is indifferent at the equilibrium: both moves are worth checking's -1
    assert values(result) == pytest.approx({"c": -1.0, "r": -1.0}, abs=5e-3)
    assert result.stats["game_value"] == pytest.approx(1 / 3, abs=1e-3)
    assert result.stats["iterations"] == 2000 and result.depth == 2000
    # 11 nodes: the deal, and for each card the decision, its check, the bet, call, fold
    assert result.stats["tree_nodes"] == 11 and result.stats["infosets"] == 3
    assert result.nodes == 11 + 2000 * 22 and result.stop_reason == StopReason.DEPTH
    assert result.stats["nash_conv"] < 2e-3
    assert all(root.pv == [root.move] for root in result.root_moves) and result.pv == ["c"]
    assert [info.depth for info in infos] == [2**k for k in range(11)]  # 1, 2, 4, ... 1024
    assert all(info.pv == [info.root_moves[0].move] for info in infos)

    caller, _ = search(engine, "1>?:r", Limits(depth=2000))
    assert strategy(caller) == pytest.approx({"c": 2 / 3, "f": 1 / 3}, abs=2e-3)
    assert caller.nodes == 0  # the kept tables had the 2000 iterations already
    bettor, _ = search(engine, "0>H:", Limits(depth=2000))
    assert strategy(bettor) == pytest.approx({"r": 1.0, "c": 0.0}, abs=2e-3)
    assert values(bettor) == pytest.approx({"r": 5 / 3, "c": 1.0}, abs=5e-3)
    assert bettor.score.expected == pytest.approx(5 / 3, abs=5e-3)


def test_cfr_nash_conv_agrees_with_an_independent_best_response():
    engine = CFR()
    policy = cfr_policy(Bluff, engine, Limits(depth=200))
    result, _ = search(engine, "0>L:", Limits(depth=200))
    assert nash_conv(Bluff, policy) == pytest.approx(result.stats["nash_conv"], abs=1e-12)
    assert 0 < result.stats["nash_conv"] < 0.05


def test_cfr_keeps_its_tables_and_starts_afresh_when_told():
    engine = CFR()
    first, _ = search(engine, "0>L:", Limits(depth=100))
    more, _ = search(engine, "0>L:", Limits(depth=150))
    assert (first.nodes, more.nodes) == (11 + 100 * 22, 50 * 22)
    engine.set_options({"Variant": "cfr+"})  # unchanged: kept
    again, _ = search(engine, "0>L:", Limits(depth=150))
    assert again.nodes == 0 and strategy(again) == strategy(more)
    engine.set_options({"Variant": "cfr"})
    plain, _ = search(engine, "0>L:", Limits(depth=150))
    assert plain.nodes == 11 + 150 * 22 and strategy(plain) != strategy(more)
    engine.new_game()
    fresh, _ = search(engine, "0>L:", Limits(depth=150))
    assert fresh.nodes == plain.nodes and strategy(fresh) == strategy(plain)


def test_cfr_node_limit_counts_the_tree_and_each_iteration():
    result, _ = search(CFR(), "0>L:", Limits(nodes=1000))
    assert result.nodes == 11 + 44 * 22 <= 1000 and result.stop_reason == StopReason.NODES
    assert result.depth == 44


def test_cfr_answers_the_deal_with_each_outcome_and_its_value():
    result, _ = search(CFR(), "", Limits(depth=2000))
    assert strategy(result) == {"H": 0.5, "L": 0.5}
    assert values(result) == pytest.approx({"H": 5 / 3, "L": -1.0}, abs=5e-3)
    assert result.score.expected == pytest.approx(1 / 3, abs=2e-3)


def test_a_view_of_the_player_not_to_move_is_refused():
    with pytest.raises(ValueError, match="a view is searched when its observer is to move"):
        search(CFR(), "0>H:r", Limits(depth=1))


def test_a_stop_answers_at_once_with_a_legal_move():
    stop = threading.Event()
    stop.set()
    for engine in (CFR(), PIMC()):
        result, _ = search(engine, "1>?:r", Limits(infinite=True), stop=stop)
        assert result.stop_reason == StopReason.STOPPED and result.best_move in ("c", "f")
        assert result.nodes == 0


# -- pimc on the bluffing game -------------------------------------------------------------------


def test_pimc_searches_every_listed_world_by_its_probability():
    # player 2 facing a bet: with H (p = 1/2) calling loses 2 and folding 1, with L calling
    # wins 2: calling is worth 0 on average and folding -1; each is best in one world
    result, infos = search(PIMC(), "1>?:r", Limits())
    assert values(result) == {"c": 0.0, "f": -1.0} and result.best_move == "c"
    assert result.stats == {"worlds": 2.0, "votes c": 0.5, "votes f": 0.5}
    assert result.score.expected == 0.0 and result.depth == 2
    # exact search of each world: the node, then call and fold (terminal) below it
    assert result.nodes == 4 and result.pv == ["c"]
    assert infos and all(info.pv == [info.root_moves[0].move] for info in infos)


def test_pimc_plays_as_if_it_would_see_the_cards():
    # the bluff PIMC cannot find: in the only world, player 2 sees L and calls a bet
    result, _ = search(PIMC(), "0>L:", Limits())
    assert values(result) == {"c": -1.0, "r": -2.0} and result.best_move == "c"


def test_pimc_samples_seeded_worlds_and_may_choose_by_votes():
    # one world is fewer than the two the view lists: it is sampled, by the seed
    for seed in range(4):
        options = {"Worlds": 1, "Seed": seed}
        one, _ = search(PIMC(options), "1>?:r", Limits())
        again, _ = search(PIMC(options), "1>?:r", Limits())
        card = Bluff.from_position("1>?:r").sample(random.Random(seed)).card
        expected_values = {"c": -2.0, "f": -1.0} if card == "H" else {"c": 2.0, "f": -1.0}
        assert values(one) == values(again) == expected_values
        assert one.stats == {"worlds": 1.0, f"votes {'f' if card == 'H' else 'c'}": 1.0} | {
            f"votes {'c' if card == 'H' else 'f'}": 0.0
        }
    # equal votes (one world each): the better mean
    voted, _ = search(PIMC({"Choice": "votes"}), "1>?:r", Limits())
    assert voted.best_move == "c" and voted.stats["votes c"] == voted.stats["votes f"]


def test_pimc_checks_its_world_engine():
    PIMC.check_options_for(Bluff, PIMC.default_options() | {"Engine": "mcts"})
    with pytest.raises(OptionError, match="alphabeta cannot search the worlds of bluff"):
        PIMC.check_options_for(Bluff, {"Engine": "alphabeta"})
    result, _ = search(PIMC({"Engine": "mcts", "Worlds": 2}), "1>?:r", Limits(nodes=400))
    assert result.best_move in ("c", "f") and result.nodes <= 400


# -- which engines take games of hidden information ---------------------------------------------


@pytest.mark.parametrize("name", PERFECT_INFORMATION_ENGINES)
def test_perfect_information_engines_refuse_hidden_information(name):
    engine = ENGINES[name]
    assert not engine.supports(Bluff)
    assert "a game of perfect information" in engine.requires.unmet(Bluff)


def test_the_hidden_information_engines_take_it():
    assert CFR.supports(Bluff) and PIMC.supports(Bluff)
    assert not CFR.supports(GAMES["tictactoe"]) and not PIMC.supports(GAMES["tictactoe"])


# -- Kuhn poker ----------------------------------------------------------------------------------

KUHN = GAMES["kuhn-poker"]


def letters(view: str, result) -> dict[str, float]:
    """The strategy of an answer for `view`, by the moves' letters."""
    state = KUHN.from_position(view)
    return {state.format_move(root.move): root.probability for root in result.root_moves}


def letter_values(view: str, result) -> dict[str, float]:
    """The values of an answer for `view`, by the moves' letters."""
    state = KUHN.from_position(view)
    return {state.format_move(root.move): root.score.expected for root in result.root_moves}


def test_cfr_solves_kuhn_poker():
    engine = CFR()
    answers = {}
    for player, view in infosets(KUHN):
        result, _ = search(engine, view, Limits(depth=2000), KUHN)
        answers[view] = letters(view, result)
        # the game's value to the view's player: -1/18 to player 1
        value = -1 / 18 if player == 0 else 1 / 18
        assert result.stats["game_value"] == pytest.approx(value, abs=1e-3)
        assert result.stats["tree_nodes"] == 58 and result.stats["infosets"] == 12
        assert result.best_move == result.root_moves[0].move
        assert result.root_moves[0].probability == max(strategy(result).values())
    assert len(answers) == 12
    # player 1's equilibria: bet J with alpha in [0, 1/3], K with 3 alpha, never Q; call a
    # bet after checking with Q with alpha + 1/3, always with K, never with J
    bets = [answers["J:"]["r"], answers["K:"]["r"] / 3, answers["Q:cr"]["c"] - 1 / 3]
    alpha = (min(bets) + max(bets)) / 2
    assert 0 <= alpha <= 1 / 3 and max(bets) - min(bets) < 2e-3
    family = {
        "J:": {"r": alpha},
        "Q:": {"r": 0.0},
        "K:": {"r": 3 * alpha},
        "J:cr": {"c": 0.0},
        "Q:cr": {"c": alpha + 1 / 3},
        "K:cr": {"c": 1.0},
        # player 2's strategy is unique: after a check bet J with 1/3, never Q, always K;
        # facing a bet call with Q 1/3, never with J, always with K
        "J:c": {"r": 1 / 3},
        "Q:c": {"r": 0.0},
        "K:c": {"r": 1.0},
        "J:r": {"c": 0.0},
        "Q:r": {"c": 1 / 3},
        "K:r": {"c": 1.0},
    }
    for view, wanted in family.items():
        for move, probability in wanted.items():
            assert answers[view][move] == pytest.approx(probability, abs=1e-3), view

    def policy(player: int, view: str) -> dict[Move, float]:
        state = KUHN.from_position(view)
        return {move: answers[view][state.format_move(move)] for move in state.legal_moves()}

    conv = nash_conv(KUHN, policy)
    assert conv <= 0.01 and conv == pytest.approx(result.stats["nash_conv"], abs=1e-9)


def test_pimc_answers_every_kuhn_information_set():
    engine = PIMC()
    for _, view in infosets(KUHN):
        result, _ = search(engine, view, Limits(), KUHN)
        state = KUHN.from_position(view)
        assert {root.move for root in result.root_moves} == set(state.legal_moves())
        assert result.stats["worlds"] == 2  # the two cards the view has not seen, listed
        assert all(root.pv == [root.move] for root in result.root_moves)
    # player 1 with J: in either world player 2 sees J, calls a bet (-2) and a check loses 1
    opening, _ = search(engine, "J:", Limits(), KUHN)
    assert letter_values("J:", opening) == {"c": -1.0, "r": -2.0}
    # player 2 with K facing a bet: a call wins 2 against J and Q, a fold loses 1
    caller, _ = search(engine, "K:r", Limits(), KUHN)
    assert letter_values("K:r", caller) == {"c": 2.0, "f": -1.0}
    assert caller.stats["votes c"] == 1.0 and caller.stats["votes f"] == 0.0


@pytest.mark.parametrize(("game", "iterations"), [("kuhn_poker", 100), ("leduc_poker", 3)])
def test_cfr_plus_matches_openspiel_iteration_for_iteration(game, iterations):
    reference = cfr.CFRPlusSolver(pyspiel.load_game(game))
    for _ in range(iterations):
        reference.evaluate_and_update_policy()
    expected_conv = exploitability.nash_conv(pyspiel.load_game(game), reference.average_policy())
    ours = GAMES[game.replace("_", "-")]
    result, _ = search(CFR(), ours.default_position, Limits(depth=iterations), ours)
    assert result.stats["nash_conv"] == pytest.approx(expected_conv, abs=1e-9)
