"""The constraint puzzles beside sudoku (kibitz/games/csp): n-queens, map colouring, the
zebra puzzle, cryptarithms and the timetable. For each: its notation and errors, move counts
against a plain implementation written here, and known answers found by plain brute force
here (not the engine) and reached through the game's own moves: 92 eight-queens
solutions, 18 colourings of Australia, the zebra puzzle's one solution, the 7 solutions of
TWO+TWO=FOUR, the default timetable's best cost."""

from __future__ import annotations

import itertools

import pytest
from perft import perft

from kibitz.games import GAMES, IllegalMoveError, NotationError
from kibitz.games.csp.cryptarithm import Cryptarithm
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.csp.map_colouring import MapColouring
from kibitz.games.csp.model import Binary
from kibitz.games.csp.n_queens import NQueens, file_name, queens_model
from kibitz.games.csp.timetable import Timetable
from kibitz.games.csp.zebra import Zebra
from kibitz.games.presentation import GRID


def complete_assignments(state: ConstraintGame) -> list[list[int]]:
    """Every solution reached by the game's own moves, assigning the first unassigned
    variable each time (no search of the engine's)."""
    if state.is_terminal():
        return [state.assignment()] if state.returns() == (1.0,) else []
    first = state.unassigned()[0]
    found = []
    for move in [move for move in state.legal_moves() if move[0] == first]:
        state.play(move)
        found += complete_assignments(state)
        state.undo()
    return found


def test_the_puzzles_are_registered():
    for name, game in [
        ("n-queens", NQueens),
        ("map-colouring", MapColouring),
        ("zebra", Zebra),
        ("cryptarithm", Cryptarithm),
        ("timetable", Timetable),
    ]:
        assert GAMES[name] is game


# -- n-queens -----------------------------------------------------------------------------------


def plain_free(size: int, queens: dict[int, int]) -> dict[int, list[int]]:
    """Each file without a queen and the ranks no queen attacks."""
    return {
        file: [
            rank
            for rank in range(1, size + 1)
            if all(rank != r and abs(rank - r) != abs(file - f) for f, r in queens.items())
        ]
        for file in range(size)
        if file not in queens
    }


def plain_queen_moves(size: int, queens: dict[int, int]) -> int:
    free = plain_free(size, queens)
    return 0 if any(not ranks for ranks in free.values()) else sum(map(len, free.values()))


def plain_queen_perft(size: int, queens: dict[int, int], depth: int) -> int:
    if depth == 0:
        return 1
    free = plain_free(size, queens)
    if any(not ranks for ranks in free.values()):
        return 0
    return sum(
        plain_queen_perft(size, {**queens, file: rank}, depth - 1)
        for file, ranks in free.items()
        for rank in ranks
    )


def plain_queen_solutions(size: int) -> int:
    return sum(
        all(abs(ranks[a] - ranks[b]) != b - a for a in range(size) for b in range(a + 1, size))
        for ranks in itertools.permutations(range(size))
    )


def test_queens_positions_read_and_write_back():
    assert NQueens.from_position("").position() == "8"
    state = NQueens.from_position(" 8 : c5 , a1 ")
    assert state.position() == "8:a1,c5" and state.assignment()[:3] == [1, None, 5]
    assert NQueens.from_position("8:a=1 c=5").position() == "8:a1,c5"
    assert NQueens.from_position("1").shape() == (1, 1)
    big = NQueens.from_position("64:bl64")
    assert big.shape() == (64, 64) and big.constraint_model().variables[26] == "aa"
    assert [file_name(i) for i in (0, 25, 26, 51, 52, 63)] == ["a", "z", "aa", "az", "ba", "bl"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "a board of 0: the size is from 1 to 64"),
        ("65", "a board of 65: the size is from 1 to 64"),
        ("8x8", r"'8x8' is not an n-queens position"),
        ("8:a1,b2", r"the givens clash: b2 clashes with a1 \(same diagonal\)"),
        ("8:a1,c1", r"the givens clash: c1 clashes with a1 \(same row\)"),
        ("8:a1,a3", r"the givens clash: a already holds 1"),
        ("8:i1", r"no file 'i' on a board of 8: files a to h"),
        ("8:a9", r"rank '9' is off the board \(1 to 8\)"),
    ],
)
def test_bad_queens_positions_are_refused_naming_the_culprit(text, message):
    with pytest.raises(NotationError, match=message):
        NQueens.read_position(text)


def test_a_queen_that_is_attacked_is_refused_naming_the_attacker():
    state = NQueens.from_position("8:a1,c5")
    with pytest.raises(IllegalMoveError, match=r"^d4 clashes with a1 \(same diagonal\)$"):
        state.read_move("d4")
    with pytest.raises(IllegalMoveError, match=r"^h5 clashes with c5 \(same row\)$"):
        state.read_move("h=5")
    with pytest.raises(NotationError, match="is not a queen's square"):
        state.read_move("d")
    assert state.parse_move("D7") == (3, 7) and state.format_move((3, 7)) == "d7"


@pytest.mark.parametrize(
    ("position", "count"),
    [("8", 64), ("8:a1", 42), ("8:a1,c5", 24), ("4:b1", 6), ("3:b2", 0), ("1", 1)],
)
def test_queen_move_counts_match_a_plain_count(position, count):
    state = NQueens.from_position(position)
    size = state.shape()[0]
    queens = {f: r for f, r in enumerate(state.assignment()) if r is not None}
    assert len(state.legal_moves()) == count == plain_queen_moves(size, queens)


@pytest.mark.parametrize(("size", "depth", "count"), [(6, 3, 5976), (8, 2, 2576)])
def test_queen_perft_matches_a_plain_implementation(size, depth, count):
    state = NQueens.from_position(str(size))
    assert perft(state, depth) == count == plain_queen_perft(size, {}, depth)


@pytest.mark.parametrize(("size", "count"), [(4, 2), (6, 4), (8, 92)])
def test_the_queens_puzzles_have_their_published_numbers_of_solutions(size, count):
    found = complete_assignments(NQueens.from_position(str(size)))
    assert len(found) == count == plain_queen_solutions(size)
    assert [rank - 1 for rank in found[0]] in map(list, itertools.permutations(range(size)))


@pytest.mark.parametrize("size", [1, 5, 9])
def test_the_queens_diagonal_supports_are_their_relation(size):
    """`Binary.supports` is the relation said faster: for every pair of files, side and
    rank, the ranks it allows are those the relation does."""
    model = queens_model(size)
    ranks = range(1, size + 1)
    board = sum(1 << rank for rank in ranks)
    diagonals = [constraint for constraint in model.constraints if isinstance(constraint, Binary)]
    assert len(diagonals) == size * (size - 1) // 2
    for diagonal in diagonals:
        for side, rank in itertools.product((0, 1), ranks):
            pairs = ((rank, other) if side == 0 else (other, rank) for other in ranks)
            allowed = sum(1 << pair[1 - side] for pair in pairs if diagonal.relation(*pair))
            assert diagonal.supports(side, rank) & board == allowed


def test_the_queens_board_is_drawn():
    state = NQueens.from_position("4:a2,b4")
    assert state.render() == "4 . Q . .\n3 . . . .\n2 Q . . .\n1 . . . .\n  a b c d"
    diagram = state.diagram((1, 4))
    assert (diagram.kind, diagram.rows, diagram.columns, diagram.checkered) == (GRID, 4, 4, True)
    queens = {(p.id, p.row, p.column) for p in diagram.places if p.piece == "♛"}
    assert queens == {("a2", 2, 0), ("b4", 0, 1)}
    assert diagram.highlights == ("b4",) and diagram.row_labels == ("4", "3", "2", "1")
    assert {t.move: t.to_places for t in diagram.targets} == {
        (2, 1): ("c1",),
        (3, 1): ("d1",),
        (3, 3): ("d3",),
    }


# -- map colouring ------------------------------------------------------------------------------

AUSTRALIA = ["WA", "NT", "SA", "Q", "NSW", "V", "T"]
AUSTRALIA_BORDERS = [
    ("WA", "NT"),
    ("WA", "SA"),
    ("NT", "SA"),
    ("NT", "Q"),
    ("SA", "Q"),
    ("SA", "NSW"),
    ("SA", "V"),
    ("Q", "NSW"),
    ("NSW", "V"),
]


def plain_colour_options(colours: dict[str, int]) -> dict[str, list[int]]:
    return {
        region: [
            colour
            for colour in range(3)
            if all(
                colours.get(b if a == region else a) != colour
                for a, b in AUSTRALIA_BORDERS
                if region in (a, b)
            )
        ]
        for region in AUSTRALIA
        if region not in colours
    }


def plain_colour_perft(colours: dict[str, int], depth: int) -> int:
    if depth == 0:
        return 1
    options = plain_colour_options(colours)
    if any(not values for values in options.values()):
        return 0
    return sum(
        plain_colour_perft({**colours, region: colour}, depth - 1)
        for region, values in options.items()
        for colour in values
    )


def test_australia_reads_named_or_written_out():
    state = MapColouring.from_position("")
    assert state.position() == "australia" and list(state.constraint_model().variables) == AUSTRALIA
    borders = [c.name for c in state.constraint_model().constraints]
    assert borders == [f"{a}-{b}" for a, b in AUSTRALIA_BORDERS]
    written = "WA-NT WA-SA NT-SA NT-Q SA-Q SA-NSW SA-V Q-NSW NSW-V T / red green blue"
    again = MapColouring.from_position(f" {written} ;NT=blue ")
    assert again.position() == f"{written}; NT=blue"
    assert again.constraint_model().variables == state.constraint_model().variables
    state.play_text("WA=red")
    assert state.position() == "australia; WA=red"
    assert MapColouring.from_position("Australia; SA=green WA=red").position() == (
        "australia; WA=red SA=green"
    )
    lone = MapColouring.from_position("C A-B / one two")
    assert lone.constraint_model().variables == ("C", "A", "B") and len(lone.legal_moves()) == 6


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("europe", r"'europe' is no map: expected australia, or borders such as WA-NT"),
        ("A-B-C / red", r"'A-B-C': a region is a name \(letters, digits\), a border two names"),
        ("A-A / red", r"'A-A': a region has no border with itself"),
        ("A-B / red red", r"a map needs 1 to 16 different colours after /"),
        ("A-B / ", r"a map needs 1 to 16 different colours after /"),
        ("/ red", r"a map needs at least one region before /"),
        ("A-B / red gr%en", r"colour 'gr%en' is not a name"),
        ("australia; WA=red SA=red", r"the givens clash: SA=red clashes with WA=red \(WA-SA\)"),
        ("australia; WA=pink", r"'pink' is not a value of WA \(red, green, blue\)"),
        ("australia; Tas=red", r"no variable 'Tas' in this puzzle"),
    ],
)
def test_bad_maps_are_refused_naming_the_culprit(text, message):
    with pytest.raises(NotationError, match=message):
        MapColouring.read_position(text)


def test_a_colour_a_neighbour_has_is_refused_naming_the_border():
    state = MapColouring.from_position("australia; WA=red")
    with pytest.raises(IllegalMoveError, match=r"^SA=red clashes with WA=red \(WA-SA\)$"):
        state.read_move("SA=red")


@pytest.mark.parametrize(
    ("position", "count"),
    [("australia", 21), ("australia; WA=red", 16), ("australia; WA=red NT=green", 12)],
)
def test_colouring_move_counts_match_a_plain_count(position, count):
    state = MapColouring.from_position(position)
    colours = {AUSTRALIA[v]: c for v, c in enumerate(state.assignment()) if c is not None}
    assert (
        len(state.legal_moves()) == count == sum(map(len, plain_colour_options(colours).values()))
    )


def test_colouring_perft_matches_a_plain_implementation():
    assert perft(MapColouring.from_position(""), 3) == 3546 == plain_colour_perft({}, 3)


def test_australia_has_18_colourings_in_three_colours():
    plain = [
        colours
        for colours in itertools.product(range(3), repeat=7)
        if all(
            colours[AUSTRALIA.index(a)] != colours[AUSTRALIA.index(b)] for a, b in AUSTRALIA_BORDERS
        )
    ]
    found = complete_assignments(MapColouring.from_position(""))
    assert len(plain) == 18 and sorted(map(tuple, found)) == sorted(plain)


def test_the_map_is_drawn_as_a_grid_of_regions_and_colours():
    state = MapColouring.from_position("australia; WA=red")
    diagram = state.diagram()
    assert (diagram.kind, diagram.rows, diagram.columns) == (GRID, 7, 3)
    assert diagram.column_labels == ("red", "green", "blue") and diagram.row_labels[0] == "WA"
    assert [p.id for p in diagram.places if p.piece] == ["0/0"]
    assert {t.move for t in diagram.targets} == set(state.legal_moves())


# -- zebra --------------------------------------------------------------------------------------

NATIONS = ["Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese"]
COLOURS = ["red", "green", "ivory", "yellow", "blue"]
DRINKS = ["coffee", "tea", "milk", "orange-juice", "water"]
SMOKES = ["Old-Gold", "Kools", "Chesterfields", "Lucky-Strike", "Parliaments"]
PETS = ["dog", "snails", "fox", "horse", "zebra"]


def plain_zebra() -> list[dict[str, int]]:
    """Every solution of the puzzle as printed (Wikipedia's "Zebra Puzzle"), by brute force
    over each kind's permutations, checking each clue as soon as its kind is placed."""
    found = []
    houses = range(1, 6)

    def next_to(a: int, b: int) -> bool:
        return abs(a - b) == 1

    for nation in itertools.permutations(houses):
        n = dict(zip(NATIONS, nation, strict=True))
        if n["Norwegian"] != 1:  # 10
            continue
        for colour in itertools.permutations(houses):
            c = dict(zip(COLOURS, colour, strict=True))
            if not (
                n["Englishman"] == c["red"]  # 2
                and c["green"] == c["ivory"] + 1  # 6
                and next_to(n["Norwegian"], c["blue"])  # 15
            ):
                continue
            for drink in itertools.permutations(houses):
                d = dict(zip(DRINKS, drink, strict=True))
                if not (
                    d["coffee"] == c["green"] and n["Ukrainian"] == d["tea"] and d["milk"] == 3
                ):
                    continue  # 4, 5, 9
                for smoke in itertools.permutations(houses):
                    s = dict(zip(SMOKES, smoke, strict=True))
                    if not (
                        s["Kools"] == c["yellow"]  # 8
                        and s["Lucky-Strike"] == d["orange-juice"]  # 13
                        and n["Japanese"] == s["Parliaments"]  # 14
                    ):
                        continue
                    for pet in itertools.permutations(houses):
                        p = dict(zip(PETS, pet, strict=True))
                        if (
                            n["Spaniard"] == p["dog"]  # 3
                            and s["Old-Gold"] == p["snails"]  # 7
                            and next_to(s["Chesterfields"], p["fox"])  # 11
                            and next_to(s["Kools"], p["horse"])  # 12
                        ):
                            found.append({**n, **c, **d, **s, **p})
    return found


def test_the_zebra_puzzle_has_one_solution_the_japanese_owns_the_zebra():
    (plain,) = plain_zebra()
    owner = next(nation for nation in NATIONS if plain[nation] == plain["zebra"])
    drinker = next(nation for nation in NATIONS if plain[nation] == plain["water"])
    assert (owner, drinker) == ("Japanese", "Norwegian")
    state = Zebra.from_position("")
    model = state.constraint_model()
    assert list(model.variables) == NATIONS + COLOURS + DRINKS + SMOKES + PETS
    values = [plain[name] for name in model.variables]
    assert all(c.satisfied([values[v] for v in c.scope]) for c in model.constraints)
    assert [c.name for c in model.constraints[5:]] == [f"clue {n}" for n in range(2, 16)]
    assert complete_assignments(state) == [values]  # unique through the game's moves too
    for variable, house in enumerate(values):
        state.play((variable, house))
    assert state.returns() == (1.0,)
    assert state.render() == "\n".join(
        [
            "house        1          2              3           4             5",
            "nationality  Norwegian  Ukrainian      Englishman  Spaniard      Japanese",
            "colour       yellow     blue           red         ivory         green",
            "drink        water      tea            milk        orange-juice  coffee",
            "smoke        Kools      Chesterfields  Old-Gold    Lucky-Strike  Parliaments",
            "pet          fox        horse          snails      dog           zebra",
        ]
    )


def plain_zebra_options(placed: dict[str, int]) -> int:
    """Legal moves by the plain clues: a house per unplaced attribute that no placed
    attribute of its kind holds and no clue on two placed attributes forbids."""
    kinds = [NATIONS, COLOURS, DRINKS, SMOKES, PETS]
    pairs = [
        ("Englishman", "red", "="),
        ("Spaniard", "dog", "="),
        ("coffee", "green", "="),
        ("Ukrainian", "tea", "="),
        ("ivory", "green", "+1"),
        ("Old-Gold", "snails", "="),
        ("Kools", "yellow", "="),
        ("Chesterfields", "fox", "next"),
        ("Kools", "horse", "next"),
        ("Lucky-Strike", "orange-juice", "="),
        ("Japanese", "Parliaments", "="),
        ("Norwegian", "blue", "next"),
    ]
    fixed = {"milk": 3, "Norwegian": 1}

    def holds(a: int, b: int, how: str) -> bool:
        return a == b if how == "=" else b == a + 1 if how == "+1" else abs(a - b) == 1

    count = 0
    for kind in kinds:
        for name in kind:
            if name in placed:
                continue
            for house in range(1, 6):
                trial = {**placed, name: house}
                if any(trial.get(other) == house for other in kind if other != name):
                    continue
                if name in fixed and fixed[name] != house:
                    continue
                if all(
                    holds(trial[a], trial[b], how)
                    for a, b, how in pairs
                    if name in (a, b) and a in trial and b in trial
                ):
                    count += 1
    return count


@pytest.mark.parametrize(
    ("position", "count"),
    [("-", 117), ("Norwegian=1 milk=3", 103), ("Spaniard=4 red=3 Kools=1", 77)],
)
def test_zebra_move_counts_match_a_plain_count(position, count):
    state = Zebra.from_position(position)
    model = state.constraint_model()
    placed = {model.variables[v]: h for v, h in enumerate(state.assignment()) if h is not None}
    assert len(state.legal_moves()) == count == plain_zebra_options(placed)
    assert state.position() == position


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("Norwegian=2", NotationError, r"the givens clash: Norwegian=2 breaks clue 10"),
        ("Norwegian=1 Englishman=1", NotationError, r"clashes with Norwegian=1 \(one nation"),
        ("red=2 Englishman=3", NotationError, r"Englishman=3 clashes with red=2 \(clue 2\)"),
        ("cat=1", NotationError, r"no variable 'cat' in this puzzle"),
        ("zebra=6", NotationError, r"'6' is not a value of zebra \(1, 2, 3, 4, 5\)"),
    ],
)
def test_bad_zebra_positions_are_refused_naming_the_clue(text, error, message):
    with pytest.raises(error, match=message):
        Zebra.read_position(text)


def test_a_zebra_move_against_a_clue_names_it():
    state = Zebra.from_position("ivory=4")
    with pytest.raises(IllegalMoveError, match=r"^green=3 clashes with ivory=4 \(clue 6\)$"):
        state.read_move("green=3")
    diagram = state.diagram()
    assert (diagram.rows, diagram.columns, diagram.row_labels[0]) == (25, 5, "Englishman")


# -- cryptarithms -------------------------------------------------------------------------------


def plain_cryptarithm(left: list[str], right: list[str]) -> list[dict[str, int]]:
    """Every solution by brute force over the digits of the letters."""
    letters = list(dict.fromkeys("".join(left + right)))
    leading = [letters.index(word[0]) for word in left + right if len(word) > 1]
    found = []
    for digits in itertools.permutations(range(10), len(letters)):
        if any(digits[index] == 0 for index in leading):
            continue

        def number(word: str, digits: tuple[int, ...] = digits) -> int:
            value = 0
            for letter in word:
                value = value * 10 + digits[letters.index(letter)]
            return value

        if sum(map(number, left)) == sum(map(number, right)):
            found.append(dict(zip(letters, digits, strict=True)))
    return found


def test_two_plus_two_is_four_has_seven_solutions_and_the_game_takes_each():
    plain = plain_cryptarithm(["TWO", "TWO"], ["FOUR"])
    assert len(plain) == 7
    state = Cryptarithm.from_position("TWO+TWO=FOUR")
    model = state.constraint_model()
    assert model.variables == ("T", "W", "O", "F", "U", "R")
    for solution in plain:
        line = [f"{letter}={digit}" for letter, digit in solution.items()]
        state.play_line(line)
        assert state.is_terminal() and state.returns() == (1.0,)
        for _ in line:
            state.undo()
    # the sum weighs each letter by its place values, FOUR's negated: only these solve it
    (total,) = [c for c in model.constraints if c.name == "the sum"]
    assert (total.scope, total.coefficients, total.total) == (
        (0, 1, 2, 3, 4, 5),
        (200, 20, 2 - 100, -1000, -10, -1),
        0,
    )
    assert [len(domain) for domain in model.domains] == [9, 10, 10, 9, 10, 10]


def test_send_more_money():
    state = Cryptarithm.from_position("")
    assert state.position() == "SEND+MORE=MONEY" and len(state.legal_moves()) == 78
    state.play_line(["S=9", "E=5", "N=6", "D=7", "M=1", "O=0", "R=8"])
    assert state.legal_moves() == [(7, 2)]  # Y=2: 9567 + 1085 = 10652
    with pytest.raises(IllegalMoveError, match=r"^Y=3 breaks the sum$"):
        state.read_move("Y=3")
    assert state.render() == "   SEND   9567\n+  MORE   1085\n= MONEY  1065."
    state.play_text("Y=2")
    assert state.terminal_reason() == "solved"


@pytest.mark.parametrize(
    ("position", "count"),
    [
        ("SEND+MORE=MONEY", 78),
        ("TWO+TWO=FOUR", 58),
        ("TWO+TWO=FOUR; F=1", 44),
        ("A+A=B", 20),  # one-letter words may be 0
        ("SEND+MORE=MONEY; M=1 S=9 E=5", 35),
    ],
)
def test_cryptarithm_move_counts(position, count):
    state = Cryptarithm.from_position(position)
    plain = 0
    assigned = {d for d in state.assignment() if d is not None}
    for variable, digit in enumerate(state.assignment()):
        if digit is None:
            plain += sum(d not in assigned for d in state.constraint_model().domains[variable])
    assert len(state.legal_moves()) == count == plain


def test_cryptarithm_positions_read_and_write_back():
    state = Cryptarithm.from_position(" send + more = money ;M=1")
    assert state.position() == "SEND+MORE=MONEY; M=1"
    assert Cryptarithm.from_position("A+B+C=DE+F").position() == "A+B+C=DE+F"
    model = Cryptarithm.from_position("AB+B=CA").constraint_model()
    (total,) = [c for c in model.constraints if c.name == "the sum"]
    # 10A + B + B - 10C - A = 9A + 2B - 10C
    assert dict(zip(total.scope, total.coefficients, strict=True)) == {0: 9, 1: 2, 2: -10}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("SEND+MORE", r"'SEND\+MORE' is no sum of words: expected one ="),
        ("A=B=C", r"is no sum of words: expected one ="),
        ("SEND+=MONEY", r"an empty word: a word is letters A-Z"),
        ("SEND+M0RE=MONEY", r"'M0RE': a word is letters A-Z"),
        ("ABCDEF+GHIJK=A", r"11 letters: a cryptarithm has at most 10"),
        ("A" * 21 + "=B", r"a word has at most 20 letters"),
        ("TWO+TWO=FOUR; T=0", r"'0' is not a value of T \(1, 2, 3, 4, 5, 6, 7, 8, 9\)"),
        ("TWO+TWO=FOUR; T=1 F=1", r"the givens clash: F=1 clashes with T=1 \(different"),
    ],
)
def test_bad_cryptarithms_are_refused_naming_the_culprit(text, message):
    with pytest.raises(NotationError, match=message):
        Cryptarithm.read_position(text)


# -- timetable ----------------------------------------------------------------------------------

LESSONS = [
    ("7a", "Ann", "maths"),
    ("7a", "Ann", "maths"),
    ("7a", "Bob", "english"),
    ("7b", "Ann", "maths"),
    ("7b", "Bob", "english"),
    ("7b", "Bob", "english"),
    ("7b", "Cy", "art"),
]
SLOTS = [("Mon", 1), ("Mon", 2), ("Tue", 1), ("Tue", 2)]
ROOMS = ["R1", "R2"]
AVOID = {
    ("Ann", ("Mon", 1)): 3,
    ("Ann", ("Tue", 1)): 2,
    ("Bob", ("Tue", 2)): 2,
    ("Cy", ("Mon", 2)): 1,
}
SPREAD = 2
"""The default timetable, written out here."""


def plain_timetables() -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """(cost, each lesson's (slot, room)) of every timetable that keeps the hard rules."""
    places = [(slot, room) for slot in range(4) for room in range(2)]
    found = []
    for chosen in itertools.permutations(places, len(LESSONS)):  # a room holds one lesson
        clash = any(
            chosen[a][0] == chosen[b][0]
            and (LESSONS[a][0] == LESSONS[b][0] or LESSONS[a][1] == LESSONS[b][1])
            for a in range(len(LESSONS))
            for b in range(a + 1, len(LESSONS))
        )
        if clash:
            continue
        cost = sum(AVOID.get((LESSONS[a][1], SLOTS[chosen[a][0]]), 0) for a in range(len(LESSONS)))
        cost += SPREAD * sum(
            LESSONS[a][0::2] == LESSONS[b][0::2]
            and SLOTS[chosen[a][0]][0] == SLOTS[chosen[b][0]][0]
            for a in range(len(LESSONS))
            for b in range(a + 1, len(LESSONS))
        )
        found.append((cost, chosen))
    return found


def test_the_default_timetable_costs_2_at_best():
    plain = plain_timetables()
    best_cost, best = min(plain)
    assert best_cost == 2 and len(plain) == 3072
    state = Timetable.from_position("")
    found = complete_assignments(state)
    assert len(found) == len(plain)
    model = state.constraint_model()
    assert min(model.cost(values) for values in found) == best_cost
    assert sorted(model.cost(values) for values in found) == sorted(cost for cost, _ in plain)
    for variable, (slot, room) in enumerate(best):
        state.play((variable, slot * 2 + room))
    assert state.returns() == (1.0,) and state.cost() == 2


def test_timetable_positions_read_and_write_back():
    state = Timetable.from_position("")
    assert state.position() == Timetable.default_position
    assert state.constraint_model().variables == (
        "7a-maths1",
        "7a-maths2",
        "7a-english",
        "7b-maths",
        "7b-english1",
        "7b-english2",
        "7b-art",
    )
    state.play_text("7a-maths1=Mon1/R2")
    assert state.position() == f"{Timetable.default_position}; placed 7a-maths1=Mon1/R2"
    assert state.cost() == 3 and state.evaluate() == -100 * (6 + 3)
    again = Timetable.from_position(state.position())
    assert again.key() == state.key() and again.cost() == 3
    small = Timetable.from_position("lessons 1/T/x; rooms A; periods 3; days D")
    assert small.position() == "days D; periods 3; rooms A; lessons 1/T/x"
    assert [small.format_move(move) for move in small.legal_moves()] == [
        "1-x=D1/A",
        "1-x=D2/A",
        "1-x=D3/A",
    ]


@pytest.mark.parametrize(
    ("placed", "count"),
    [("", 56), ("7a-maths1=Mon1/R1", 39), ("7a-maths1=Mon1/R1 7b-art=Mon2/R2", 24)],
)
def test_timetable_move_counts_match_a_plain_count(placed, count):
    position = Timetable.default_position + (f"; placed {placed}" if placed else "")
    state = Timetable.from_position(position)
    taken = {v: value for v, value in enumerate(state.assignment()) if value is not None}
    plain = sum(
        all(
            value != held
            and not (
                value // 2 == held // 2
                and (
                    LESSONS[lesson][0] == LESSONS[other][0]
                    or LESSONS[lesson][1] == LESSONS[other][1]
                )
            )
            for other, held in taken.items()
        )
        for lesson in range(len(LESSONS))
        if lesson not in taken
        for value in range(8)
    )
    assert len(state.legal_moves()) == count == plain


def test_timetable_clashes_name_the_teacher_class_or_room():
    state = Timetable.from_position("")
    state.play_text("7a-maths1=Mon1/R1")
    for move, message in [
        ("7b-maths=Mon1/R2", r"^7b-maths=Mon1/R2 clashes with 7a-maths1=Mon1/R1 \(teacher Ann\)$"),
        ("7a-english=Mon1/R2", r"clashes with 7a-maths1=Mon1/R1 \(class 7a\)$"),
        ("7b-art=Mon1/R1", r"clashes with 7a-maths1=Mon1/R1 \(one lesson a room\)$"),
    ]:
        with pytest.raises(IllegalMoveError, match=message):
            state.read_move(move)
    assert "Mon1  7a-maths1" in state.render() and state.render().endswith("cost 3")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("days Mon; periods 2; rooms R1", r"a timetable needs the sections lessons"),
        ("days Mon; days Tue", r"the section days comes twice"),
        ("weeks 2", r"'weeks' is no section of a timetable"),
        ("days Mon; periods 0; rooms R; lessons a/b/c", r"periods: one number from 1 to 12"),
        ("days Mon; periods 1; rooms R R; lessons a/b/c", r"rooms: 1 to 20 different names"),
        ("days Mon; periods 1; rooms R; lessons a/b", r"lesson 'a/b' is not class/teacher/subject"),
        (
            "days Mon; periods 1; rooms R; lessons a/b/c; avoid x@Mon1:2",
            r"wish 'x@Mon1:2': a teacher of a lesson, a slot \(Mon1, ...\)",
        ),
        ("days Mon; periods 1; rooms R; lessons a/b/c; avoid b@Mon1", r"is not teacher@slot"),
        ("days Mon; periods 1; rooms R; lessons a/b/c; spread x", r"spread: one number"),
        (
            "days Mon; periods 1; rooms R; lessons a/b/c a/d/e; placed a-c=Mon1/R a-e=Mon1/R",
            r"the givens clash: a-e=Mon1/R clashes with a-c=Mon1/R \(one lesson a room\)",
        ),
    ],
)
def test_bad_timetables_are_refused_naming_the_culprit(text, message):
    with pytest.raises(NotationError, match=message):
        Timetable.read_position(text)
