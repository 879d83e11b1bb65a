"""The double-dummy solver (kibitz/engines/dds): hand-worked endings, a brute-force minimax,
DDS itself through endplay, the compiled kernel node for node against the Python reference,
and DDS's published tables of list100."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from benchmarks.bridge import list100
from kibitz.engines.dds import KernelSolver, solver
from kibitz.engines.dds.solver import Solver, parse_hands

needs_kernel = pytest.mark.skipif(KernelSolver is None, reason="the dds kernel was not built")

Trick = tuple[tuple[int, int], ...]


def card(text: str) -> int:
    return solver.SUITS.index(text[0]) * 13 + solver.RANKS.index(text[1])


def random_position(rng: random.Random, tricks: int, played: int) -> tuple[list[int], int, Trick]:
    """A seeded deal of `tricks` cards a hand, then `played` random legal cards of its first
    trick: (hands, seat to play, the trick's cards)."""
    cards = rng.sample(range(52), 4 * tricks)
    hands = [sum(1 << c for c in cards[seat * tricks : (seat + 1) * tricks]) for seat in range(4)]
    seat = rng.randrange(4)
    trick: list[tuple[int, int]] = []
    for _ in range(played):
        follow = [c for c in range(52) if hands[seat] >> c & 1]
        if trick:
            suited = [c for c in follow if c // 13 == trick[0][1] // 13]
            follow = suited or follow
        chosen = rng.choice(follow)
        hands[seat] &= ~(1 << chosen)
        trick.append((seat, chosen))
        seat = (seat + 1) % 4
    return hands, seat, tuple(trick)


def brute_force(hands: list[int], strain: int, seat: int, trick: Trick, side: int) -> int:
    """Plain minimax, no pruning and no merging: the tricks `side` takes of the remaining ones
    (the current one included), `seat` to play."""
    if len(trick) == 4:
        winner, best = trick[0]
        for other_seat, other in trick[1:]:
            same_suit = other // 13 == best // 13
            if (same_suit and other > best) or (other // 13 == strain and not same_suit):
                winner, best = other_seat, other
        won = int(winner % 2 == side)
        return won + (brute_force(hands, strain, winner, (), side) if any(hands) else 0)
    cards = [c for c in range(52) if hands[seat] >> c & 1]
    if trick:
        cards = [c for c in cards if c // 13 == trick[0][1] // 13] or cards
    values = []
    for c in cards:
        hands[seat] &= ~(1 << c)
        values.append(brute_force(hands, strain, (seat + 1) % 4, (*trick, (seat, c)), side))
        hands[seat] |= 1 << c
    return max(values) if seat % 2 == side else min(values)


# -- hand-worked endings ----------------------------------------------------------------


def test_one_trick_ending_goes_to_the_ace() -> None:
    hands = parse_hands("N:A... K... 2... 3...")
    assert solver.solve(hands, solver.NO_TRUMP, 0) == 1
    assert solver.solve(hands, solver.NO_TRUMP, 1) == 0  # E leads: N's ace still wins
    assert solver.solve(hands, 0, 2) == 1  # spades trump changes nothing


def test_the_finesse_works_only_when_the_king_is_onside() -> None:
    onside = parse_hands("N:AQ... 65... 32... K4...")  # W has the king, S leads towards AQ
    offside = parse_hands("N:AQ... K4... 32... 65...")
    assert solver.solve(onside, solver.NO_TRUMP, 2) == 2
    assert solver.solve(offside, solver.NO_TRUMP, 2) == 1
    assert solver.solve_cards(offside, solver.NO_TRUMP, 2) == {card("S3"): 1, card("S2"): 1}


def test_a_ruff_beats_the_ace_only_in_a_trump_contract() -> None:
    # N leads the spade ace; E is void in spades and holds the only trump.
    hands = parse_hands("N:A.2.. .3.2. 2.4.. 3.5..")
    assert solver.solve(hands, solver.NO_TRUMP, 0) == 1
    assert solver.solve(hands, 2, 0) == 0  # diamonds trump: E ruffs, and the hearts fall
    values = solver.solve_cards(hands, 2, 0)
    assert values == {card("SA"): 0, card("H2"): 0}


def test_the_opponents_trumps_cap_the_leaders_side_without_a_search() -> None:
    # Hearts trump: N's top spades are all ruffed, E holds every trump. The later-tricks
    # bound (E's three trumps take three tricks) fails both searches (targets 2, then 1) at
    # the root: one node each.
    hands = parse_hands("N:AKQ... .AKQ.. ..432. ...432")
    hearts = Solver(1)
    assert hearts.solve(hands, 0) == 0
    assert hearts.nodes == 2
    assert solver.solve(hands, solver.NO_TRUMP, 0) == 3


def test_a_mid_trick_position_counts_the_current_trick() -> None:
    # N has led the spade 2; E must follow with the ace and wins this trick, then S's heart
    # ace takes the last one.
    hands = parse_hands("N:.2.. A.3.. 4.A.. 3.4..")
    trick = ((0, card("S2")),)
    assert solver.solve(hands, solver.NO_TRUMP, 1, trick) == 1
    assert solver.solve_cards(hands, solver.NO_TRUMP, 1, trick) == {card("SA"): 1}


def test_bad_positions_are_refused_with_the_culprit_named() -> None:
    hands = parse_hands("N:A... K... 2... 3...")
    with pytest.raises(ValueError, match="SA is both in a hand and on the table"):
        solver.solve(hands, 0, 1, ((0, card("SA")),))
    with pytest.raises(ValueError, match="hand N has 2 cards, not 1"):
        solver.solve(parse_hands("N:AQ... K... 2... 3..."), 0, 1)
    with pytest.raises(ValueError, match=r"trick card 0 is not \(seat 0"):
        solver.solve(parse_hands("N:... K... 2... 3..."), 0, 1, ((2, card("SA")),))
    with pytest.raises(ValueError, match="twice"):
        solver.solve([1, 1, 2, 4], 0, 0)
    with pytest.raises(ValueError, match="strain 5"):
        Solver(5)
    with pytest.raises(ValueError, match="not a PBN deal"):
        parse_hands("Q:A... K... 2... 3...")


# -- brute force and DDS -----------------------------------------------------------------


def test_the_solver_equals_a_brute_force_minimax() -> None:
    rng = random.Random(35)
    for _ in range(60):
        hands, seat, trick = random_position(rng, rng.randint(1, 3), rng.randint(0, 3))
        strain = rng.randrange(5)
        values = solver.solve_cards(hands, strain, seat, trick)
        for c, value in values.items():
            after = list(hands)
            after[seat] &= ~(1 << c)
            side = seat % 2
            assert value == brute_force(after, strain, (seat + 1) % 4, (*trick, (seat, c)), side)
        assert solver.solve(hands, strain, seat, trick) == max(values.values())
        assert len(values) == len(
            [c for c in range(52) if hands[seat] >> c & 1]
            if not trick or not solver.holding(hands[seat], trick[0][1] // 13)
            else [c for c in range(52) if hands[seat] >> c & 1 and c // 13 == trick[0][1] // 13]
        )


endplay = pytest.importorskip("endplay")


def dds_cards(hands: Sequence[int], strain: int, seat: int, trick: Trick) -> dict[int, int]:
    """DDS's SolveBoard (every card, solutions=3) through endplay."""
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player

    texts = []
    for hand in hands:
        suits = [
            "".join(solver.RANKS[r] for r in range(12, -1, -1) if solver.holding(hand, s) >> r & 1)
            for s in range(4)
        ]
        texts.append(".".join(suits))
    for played_seat, played in trick:  # endplay plays the trick's cards from the hands
        texts[played_seat] = ".".join(
            "".join(
                solver.RANKS[r]
                for r in range(12, -1, -1)
                if (solver.holding(hands[played_seat] | 1 << played, s) >> r) & 1
            )
            for s in range(4)
        )
    deal = Deal("N:" + " ".join(texts))
    deal.trump = Denom(strain)
    deal.first = Player(trick[0][0] if trick else seat)
    for _, played in trick:
        deal.play(Card(solver.card_text(played)))
    return {c.suit.value * 13 + c.rank.bit_length() - 3: v for c, v in solve_board(deal)}


def test_every_card_agrees_with_dds_on_random_endings() -> None:
    rng = random.Random(367)
    for _ in range(40):
        hands, seat, trick = random_position(rng, rng.randint(2, 5), rng.randint(0, 3))
        strain = rng.randrange(5)
        assert solver.solve_cards(hands, strain, seat, trick) == dds_cards(
            hands, strain, seat, trick
        )


@needs_kernel
def test_the_kernel_agrees_with_dds_on_full_deals() -> None:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    for seed in (2000, 2006, 2007):  # three deals of modest search sizes (under a second)
        rng = random.Random(seed)
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * seat : 13 * seat + 13]) for seat in range(4)]
        pbn = "N:" + " ".join(
            ".".join(
                "".join(solver.RANKS[r] for r in range(12, -1, -1) if solver.holding(h, s) >> r & 1)
                for s in range(4)
            )
            for h in hands
        )
        assert solver.dd_table(hands, KernelSolver) == calc_dd_table(Deal(pbn)).to_list()


# -- the kernel, node for node -----------------------------------------------------------


@needs_kernel
def test_the_kernel_is_the_python_search_node_for_node() -> None:
    rng = random.Random(52)
    for _ in range(40):
        hands, seat, trick = random_position(rng, rng.randint(2, 6), rng.randint(0, 3))
        strain = rng.randrange(5)
        python, kernel = Solver(strain), KernelSolver(strain)
        assert kernel.solve_cards(hands, seat, trick) == python.solve_cards(hands, seat, trick)
        assert kernel.nodes == python.nodes > 0
        assert kernel.table_size == python.table_size
        assert kernel.solve(hands, seat, trick) == python.solve(hands, seat, trick)
        assert kernel.nodes == python.nodes


@needs_kernel
def test_a_guess_orders_the_searches_not_the_answer() -> None:
    rng = random.Random(35)
    for _ in range(12):
        hands, seat, trick = random_position(rng, rng.randint(2, 5), rng.randint(0, 3))
        strain = rng.randrange(5)
        answer = Solver(strain).solve(hands, seat, trick)
        for guess in range(-1, hands[seat].bit_count() + 3):
            python, kernel = Solver(strain), KernelSolver(strain)
            assert python.solve(hands, seat, trick, guess) == answer
            assert kernel.solve(hands, seat, trick, guess) == answer
            assert kernel.nodes == python.nodes > 0


@needs_kernel
def test_the_kernel_refuses_what_the_python_solver_refuses() -> None:
    with pytest.raises(ValueError, match="twice"):
        KernelSolver(4).solve([1, 1, 2, 4], 0)
    with pytest.raises(ValueError, match="strain 7"):
        KernelSolver(7)


# -- DDS's published tables ----------------------------------------------------------------


@needs_kernel
@pytest.mark.parametrize("number", [5, 15, 17, 20])  # four of the quicker deals
def test_list100_tables_equal_the_published_ones(number: int) -> None:
    pbn, published = list100()[number]
    assert solver.dd_table(parse_hands(pbn), KernelSolver) == published


def test_list100_is_read_whole() -> None:
    deals = list100()
    assert len(deals) == 100
    assert deals[0][0].startswith("N:QJ6.K652.J85.T98 ")
    assert deals[0][1] == [[5, 8, 5, 8], [6, 6, 6, 6], [5, 7, 5, 7], [7, 5, 7, 5], [6, 6, 6, 6]]
