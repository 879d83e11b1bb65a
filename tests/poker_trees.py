"""Walking a poker game's whole tree beside OpenSpiel's (pyspiel), for the tests of
kuhn-poker and leduc-poker: our state and pyspiel's move together, every node is compared
(who is to move, the legal moves, the chance probabilities, the payoffs), and each player's
view is compared with pyspiel's information state string mapped to our view notation by the
test's own reading of that string (`kuhn_view`, `leduc_view`: no code of ours)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pyspiel

from kibitz.games import CHANCE
from kibitz.games.poker.limit import CALL, FOLD, RAISE, LimitPoker

RANKS = "JQK"
LETTERS = "fcr"  # OpenSpiel Leduc's fold 0, call 1, raise 2


def seats(card: str, player: int, to_move: bool) -> str:
    """The cards' part of a view: the mover's card alone, else both seats with '?'."""
    if to_move:
        return card
    return f"{card}?" if player == 0 else f"?{card}"


def kuhn_view(info: str, player: int, to_move: bool) -> str:
    """Our view text of Kuhn's information state string (the card's number, then ``p``
    pass and ``b`` bet): pass is a check, or a fold facing a bet; bet a bet, or a call."""
    card, facing, betting = RANKS[int(info[0])], False, ""
    for letter in info[1:]:
        betting += ("c" if facing else "r") if letter == "b" else ("f" if facing else "c")
        facing = facing or letter == "b"
    return f"{seats(card, player, to_move)}:{betting}"


def leduc_card(number: int) -> str:
    return RANKS[number // 2] + "sh"[number % 2]


def leduc_view(info: str, player: int, to_move: bool) -> str:
    """Our view text of Leduc's information state string ([Private: n], [Round r],
    [Public: n], [Round1: actions], [Round2: actions]); the pot and the money follow from
    the betting (at a showdown the money also tells who won, which a view does not know)."""
    fields = dict(re.findall(r"\[([A-Za-z0-9]+):? ([^\]]*)\]", info))
    cards = seats(leduc_card(int(fields["Private"])), player, to_move)
    if "Public" in fields:
        cards += "/" + leduc_card(int(fields["Public"]))
    rounds = [
        "".join(LETTERS[int(a)] for a in fields[name].split()) for name in ("Round1", "Round2")
    ]
    betting = rounds[0] + ("/" + rounds[1] if fields["Round"] == "2" else "")
    return f"{cards}:{betting}"


@dataclass
class Walk:
    """What walking the two trees found."""

    nodes: int = 0
    terminals: int = 0
    chance_nodes: int = 0
    views: int = 0
    """(node, player) pairs whose view was compared."""
    decisions: set[tuple[int, str, str]] = field(default_factory=set)
    """(player to move, pyspiel's string, our view) at every decision node."""


def our_move(game: str, spiel, action: int) -> int:
    """Our move for pyspiel's `action` at a decision node of `spiel`."""
    if game == "leduc_poker":
        return action
    facing = 1 in spiel.history()[2:]  # Kuhn: a bet was made
    return (CALL if facing else RAISE) if action == 1 else (FOLD if facing else CALL)


def walk(game: str, ours: LimitPoker, view_of: Callable[[str, int, bool], str]) -> Walk:
    """Walk pyspiel's `game` and `ours` (its start) together, asserting at every node."""
    found = Walk()

    def visit(spiel) -> None:
        found.nodes += 1
        assert ours.is_terminal() == spiel.is_terminal(), ours.position()
        if spiel.is_terminal():
            found.terminals += 1
            assert ours.returns() == tuple(spiel.returns()), ours.position()
        elif spiel.is_chance_node():
            found.chance_nodes += 1
            assert ours.to_move() == CHANCE
            assert ours.chance_outcomes() == spiel.chance_outcomes(), ours.position()
        else:
            assert ours.to_move() == spiel.current_player(), ours.position()
        if len(spiel.history()) >= 2:  # both cards dealt: before, pyspiel's strings do not
            for player in (0, 1):  # tell how far the deal went (Kuhn's "2" at both)
                mover = spiel.current_player() == player
                info = spiel.information_state_string(player)
                assert ours.view(player) == view_of(info, player, mover), (info, player)
                found.views += 1
                if mover:
                    found.decisions.add((player, info, ours.view(player)))
        for action in spiel.legal_actions():
            move = action if spiel.is_chance_node() else our_move(game, spiel, action)
            assert move in ours.legal_moves(), (ours.position(), action)
            ours.play(move)
            visit(spiel.child(action))
            ours.undo()

    visit(pyspiel.load_game(game).new_initial_state())
    return found


def count(state: LimitPoker) -> tuple[int, int]:
    """The nodes and terminal nodes of the tree below `state`, by our rules alone."""
    if state.is_terminal():
        return 1, 1
    nodes, terminals = 1, 0
    for move in state.legal_moves():
        state.play(move)
        below = count(state)
        state.undo()
        nodes, terminals = nodes + below[0], terminals + below[1]
    return nodes, terminals


def spiel_count(game: str) -> tuple[int, int]:
    """The same counts from pyspiel."""

    def below(state) -> tuple[int, int]:
        if state.is_terminal():
            return 1, 1
        nodes, terminals = 1, 0
        for action in state.legal_actions():
            child = below(state.child(action))
            nodes, terminals = nodes + child[0], terminals + child[1]
        return nodes, terminals

    return below(pyspiel.load_game(game).new_initial_state())


def every_node(start: LimitPoker) -> Iterator[LimitPoker]:
    """Every node of the tree under `start`, depth first: the one state, moved there (use
    it before asking for the next)."""
    yield start
    for move in start.legal_moves():
        start.play(move)
        yield from every_node(start)
        start.undo()


def every_view(start: LimitPoker) -> set[tuple[int, str]]:
    """(player, view) for both players at every node of the tree under `start`."""
    return {(player, state.view(player)) for state in every_node(start) for player in (0, 1)}


def assert_views_hide_the_other_card(start: LimitPoker, card: str) -> None:
    """At every node under `start`, each player's view names only their own card and the
    public cards (a card is written as the regular expression `card` matches), and read
    from its text alone it draws '?' for the other player's card."""
    game = type(start)
    seen: set[tuple[int, str]] = set()
    for state in every_node(start):
        for player in (0, 1):
            other, text = 1 - player, state.view(player)
            if state.cards[other] < 0:  # not dealt: nothing to hide
                continue
            visible = {game.card_text(dealt) for dealt in state.cards if dealt >= 0}
            visible.discard(game.card_text(state.cards[other]))
            assert set(re.findall(card, text)) == visible, text
            seen.add((other, text))
    for other, text in seen:
        view = game.from_position(text)
        assert f"player {other + 1}: ?" in view.render()
        assert view.diagram().gauges[other].label == f"player {other + 1}: ?"
