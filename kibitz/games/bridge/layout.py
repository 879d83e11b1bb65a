"""How a bridge position shows itself: the four hands in a compass for terminals, a grid of
cards for the page (docs/games.md, "How a game presents itself")."""

from __future__ import annotations

from itertools import zip_longest
from typing import TYPE_CHECKING

from kibitz.games.base import Move
from kibitz.games.bridge.cards import (
    RANKS,
    SEAT_NAMES,
    SEATS,
    SIDES,
    STRAINS,
    SUIT_MASK,
    SUIT_SYMBOLS,
    SUIT_TEXTS,
    SUITS,
    card_text,
)
from kibitz.games.presentation import GRID, NOBODY, Diagram, Gauge, Place, targets_of

if TYPE_CHECKING:
    from kibitz.games.bridge.game import Bridge

COLUMN = 22
"""Where North's and South's hands start, and East's at twice that."""
TRICK_ROW = 16
"""The diagram's row of the current trick, below the 16 rows of the hands."""


def _suit_line(hand: int, suit: int) -> str:
    return f"{SUITS[suit]} {SUIT_TEXTS[hand >> (13 * suit) & SUIT_MASK] or '-'}"


def _hand_lines(state: Bridge, seat: int) -> list[str]:
    """A seat's name (and role), then its cards left suit by suit, or that they are hidden."""
    role = {state.declarer(): " (declarer)", state.dummy(): " (dummy)"}.get(seat, "")
    lines = [SEAT_NAMES[seat] + role]
    if state.start_hands()[seat] is None:
        return [*lines, f"hidden, {_cards_left(state, seat)} cards"]
    hand = state.hand_masks()[seat]
    return lines + [_suit_line(hand, suit) for suit in range(4)]


def _cards_left(state: Bridge, seat: int) -> int:
    return state.tricks_left() - sum(1 for who, _ in state.current_trick() if who == seat)


def render(state: Bridge) -> str:
    """The contract, North on top, West and East beside each other, South below, then the
    current trick, the tricks taken and who is to play (or the result)."""
    head = f"Bridge: {STRAINS[state.strain()]}, declarer {SEAT_NAMES[state.declarer()]}"
    viewer = state.viewer()
    if viewer is not None:
        head += f"; {SEAT_NAMES[viewer]}'s view"
    lines = [head, ""]
    lines += [" " * COLUMN + line for line in _hand_lines(state, 0)]
    for west, east in zip_longest(_hand_lines(state, 3), _hand_lines(state, 1), fillvalue=""):
        lines.append(west.ljust(2 * COLUMN) + east)
    lines += [" " * COLUMN + line for line in _hand_lines(state, 2)]
    trick = ", ".join(f"{SEATS[seat]} {card_text(card)}" for seat, card in state.current_trick())
    lines += ["", f"trick: {trick or '-'}"]
    taken = state.tricks_taken()
    if state.is_terminal():
        lines.append(state.terminal_reason())
    else:
        lines.append(
            f"NS {taken[0]} tricks, EW {taken[1]}, {state.tricks_left()} to play; "
            f"{SEAT_NAMES[state.seat_to_play()]} to play"
        )
    return "\n".join(line.rstrip() for line in lines)


def diagram(state: Bridge, last: Move | None = None) -> Diagram:
    """A grid: a row per seat and suit (N's spades first), a column per rank (ace first), a
    card where a hand the position sees holds it; below, the current trick in order of
    play. A click on a card plays it."""
    places = []
    hands = state.hand_masks()
    for seat in range(4):
        for suit in range(4):
            held = hands[seat] >> (13 * suit) & SUIT_MASK
            for rank in range(13):
                if held >> rank & 1:
                    places.append(
                        Place(
                            card_text(13 * suit + rank),
                            4 * seat + suit,
                            12 - rank,
                            RANKS[rank],
                            seat % 2,
                        )
                    )
    for column, (seat, card) in enumerate(state.current_trick()):
        piece = SUIT_SYMBOLS[card // 13] + RANKS[card % 13]
        places.append(Place(card_text(card), TRICK_ROW, column, piece, seat % 2, label=SEATS[seat]))
    ids = {place.id for place in places}
    shown = card_text(last) if last is not None else ""  # type: ignore[arg-type]
    taken = state.tricks_taken()
    total = state.tricks_left() + len(state.played()) // 4
    return Diagram(
        GRID,
        rows=TRICK_ROW + 1,
        columns=13,
        places=tuple(places),
        targets=targets_of(state.legal_moves(), lambda move: _place_of(move, ids)),
        highlights=(shown,) if shown in ids else (),
        gauges=(
            Gauge(f"{SIDES[0]} tricks", taken[0], total, 0),
            Gauge(f"{SIDES[1]} tricks", taken[1], total, 1),
            Gauge(f"{STRAINS[state.strain()]}: tricks to play", state.tricks_left(), total, NOBODY),
        ),
        column_labels=tuple(RANKS[rank] for rank in range(12, -1, -1)),
        row_labels=(
            *(f"{SEATS[seat]} {SUIT_SYMBOLS[suit]}" for seat in range(4) for suit in range(4)),
            "trick",
        ),
        colors=("#2f6f9f", "#d33f2f"),
    )


def _place_of(move: Move, ids: set[str]) -> str:
    name = card_text(move)  # type: ignore[arg-type]
    return name if name in ids else ""
