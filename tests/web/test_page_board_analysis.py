"""The analysis beside and on the board, in real headless Chromium (issue 29, as lichess's
analysis board does it): the evaluation bar, the best moves' arrows and rings, the heat map
of an MCTS engine's visits, and the arrow keys that walk the board's places.

Waits are on page conditions (the page marks its state in data- attributes), never sleeps.
One test takes the screenshot docs/web.md shows (`KIBITZ_SCREENSHOTS=docs/images` refreshes
it, see docs/web.md)."""

from __future__ import annotations

import pytest
from test_page import MATE_IN_ONE, analyse, focused, load, pick, wait_for_plies

QUEEN_UP = "4k3/8/8/8/8/8/8/3QK3 {} - - 0 1"  # White a queen ahead, {} to move
OPEN_CENTRE = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"  # exd5, Nxe5


def analysed(page, kind: str = "depth", value: float = 3) -> None:
    """Analyse the board's position to the limit and wait until it is done."""
    analyse(page, kind, value)
    page.wait_for_selector("#analysis-panel[data-state='done']")


def share(page) -> float:
    """The first player's share of the evaluation bar, as drawn: the fill's height."""
    return page.evaluate(
        """() => {
            const track = document.querySelector("#eval-bar .eval-track");
            const fill = track.querySelector(".eval-fill");
            return fill.getBoundingClientRect().height / track.clientHeight;
        }"""
    )


def centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def inside(point: tuple[float, float], page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    x, y = point
    return box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"]


# ---------------------------------------------------------------------------- the bar


def test_a_proven_win_fills_the_bar_for_the_winner_and_a_ring_marks_the_winning_cell(page):
    pick(page, "tictactoe")
    assert page.is_hidden("#eval-bar")  # nothing analysed: no bar
    load(page, "xx./oo./... x")  # x wins at c3
    analysed(page)
    assert page.inner_text("#eval-text") == page.inner_text("#stat-score") == "win in 1"
    assert page.get_attribute("#eval-bar", "data-share") == "1.0000"
    assert share(page) == pytest.approx(1.0, abs=0.01)
    assert page.get_attribute("#eval-bar", "aria-valuenow") == "100"
    assert page.get_attribute("#eval-bar", "aria-valuetext").startswith("win in 1 for x")
    ring = page.locator("#board .overlay circle.best.rank-0")  # one place: a ring, no arrow
    assert ring.get_attribute("data-to") == "c3"
    assert inside(centre(page, "#board .overlay .rank-0"), page, "#board [data-place='c3']")

    load(page, "xx./oo./x.. o")  # o to move wins at c2: the bar is x's, so empty
    assert page.is_hidden("#eval-bar")  # another position: the analysis is gone, bar and all
    assert page.locator("#board .overlay *").count() == 0
    analysed(page)
    assert page.get_attribute("#eval-bar", "data-share") == "0.0000"
    assert share(page) == pytest.approx(0.0, abs=0.01)
    assert page.get_attribute("#board .overlay .rank-0", "data-to") == "c2"


def test_connect_four_marks_where_the_disc_lands(page):
    pick(page, "connect4")
    load(page, "121212")  # x wins in column 1, on top of its three discs
    analysed(page, "depth", 4)
    assert page.get_attribute("#eval-bar", "data-share") == "1.0000"
    assert page.get_attribute("#board .overlay .rank-0", "data-to") == "1.3"
    page.click("#board [data-move='2']")  # another position: no bar, no marks
    wait_for_plies(page, 1)
    assert page.is_hidden("#eval-bar")
    assert page.get_attribute("#board", "data-arrows") == "0"


def test_a_material_advantage_leans_the_bar_to_that_side_whoever_is_to_move(page):
    pick(page, "chess")
    for side in ("w", "b"):
        load(page, QUEEN_UP.format(side))
        analysed(page, "depth", 2)
        text = page.inner_text("#eval-text")
        assert text.startswith("+" if side == "w" else "-"), text  # from the side to move
        assert float(page.get_attribute("#eval-bar", "data-share")) > 0.9
        assert share(page) > 0.9
    page.keyboard.press("f")  # flipped, White's share grows from the top, White's side
    page.wait_for_selector("#board[data-flipped='yes']")
    track = page.locator("#eval-bar .eval-track").bounding_box()
    fill = page.locator("#eval-bar .eval-fill").bounding_box()
    assert fill["y"] == pytest.approx(track["y"], abs=2)
    page.keyboard.press("f")
    page.wait_for_selector("#board[data-flipped='no']")
    fill = page.locator("#eval-bar .eval-fill").bounding_box()
    assert fill["y"] + fill["height"] == pytest.approx(track["y"] + track["height"], abs=2)


# ---------------------------------------------------------------------------- arrows


def test_the_best_move_is_an_arrow_from_its_square_to_its_square(page, screenshots):
    pick(page, "chess")
    load(page, MATE_IN_ONE)
    analysed(page, "depth", 2)
    assert page.get_attribute("#analysis-panel", "data-best") == "a1a8"
    assert page.get_attribute("#eval-bar", "data-share") == "1.0000"  # mate for White
    best = page.locator("#board .overlay path.best.rank-0")
    assert best.get_attribute("data-from") == "a1" and best.get_attribute("data-to") == "a8"
    assert best.get_attribute("data-move-label") == "Ra8#"
    arrow = best.bounding_box()  # drawn up the a-file, from a1 to a8
    a1 = page.locator("#board [data-place='a1']").bounding_box()
    a8 = page.locator("#board [data-place='a8']").bounding_box()
    assert a1["x"] <= arrow["x"] and arrow["x"] + arrow["width"] <= a1["x"] + a1["width"]
    assert a8["y"] <= arrow["y"] <= a8["y"] + a8["height"]
    assert a1["y"] <= arrow["y"] + arrow["height"] <= a1["y"] + a1["height"]
    assert page.get_attribute("#board", "data-arrows") == "3"  # and the next two, fainter
    opacities = [
        float(page.get_attribute(f"#board .overlay .rank-{rank}", "opacity")) for rank in range(3)
    ]
    assert opacities[0] > opacities[1] >= opacities[2]

    page.keyboard.press("a")  # the arrows off, and on again
    page.wait_for_selector("#board[data-arrows='0']")
    assert page.get_attribute("#arrows-toggle", "aria-pressed") == "false"
    page.click("#arrows-toggle")
    page.wait_for_selector("#board[data-arrows='3']")
    page.click("#board [data-place='a1']")  # the arrows take no clicks: the squares do
    page.click("#board [data-place='a8']")
    wait_for_plies(page, 1)
    assert page.get_attribute("#board", "data-arrows") == "0"

    load(page, OPEN_CENTRE)  # the screenshot: three different moves, the bar in between
    analysed(page, "depth", 4)
    arrows = page.locator("#board .overlay .best")
    ends = arrows.evaluate_all("as => as.map(a => `${a.dataset.from}-${a.dataset.to}`)")
    rows = page.locator("#root-moves tbody tr").evaluate_all("rs => rs.map(r => r.dataset.move)")
    assert sorted(ends) == sorted(f"{move[:2]}-{move[2:4]}" for move in rows[:3])
    assert 0.5 < float(page.get_attribute("#eval-bar", "data-share")) < 1
    page.screenshot(path=str(screenshots / "analysis-eval-bar.png"))


# ---------------------------------------------------------------------------- heat map


def test_the_heat_map_shades_each_move_by_its_share_of_the_visits(page):
    pick(page, "hex", "hex")
    load(page, "3")
    analysed(page, "nodes", 3000)  # Hex's default engine: MCTS
    assert page.is_visible("#heat-toggle") and page.is_hidden("#heat-legend")
    assert page.locator("#board .overlay .heat").count() == 0
    page.click("#analysis-panel h2")
    page.keyboard.press("h")
    page.wait_for_selector("#board[data-heat='yes']")
    cells = page.locator("#board .overlay .heat")
    assert cells.count() == 9  # every cell of the empty 3x3 board was visited
    shares = [float(share) for share in cells.evaluate_all("cs => cs.map(c => c.dataset.share)")]
    assert sum(shares) == pytest.approx(1.0, abs=0.01)
    opacity = cells.evaluate_all("cs => cs.map(c => Number(c.getAttribute('fill-opacity')))")
    most = max(range(9), key=lambda index: shares[index])
    assert opacity[most] == max(opacity) and min(opacity) < max(opacity)
    rows = page.locator("#root-moves tbody tr")
    visits = [int(text) for text in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert shares[most] * sum(int(v) for v in visits) == pytest.approx(max(visits), rel=0.01)
    legend = page.inner_text("#heat-legend")
    assert "share of the search's visits" in legend
    assert cells.nth(most).get_attribute("data-heat-place") in legend
    page.click("#heat-toggle")
    page.wait_for_selector("#board[data-heat='no']")
    assert page.is_hidden("#heat-legend")


def test_no_heat_map_without_visits(page):
    pick(page, "tictactoe")  # alphabeta: no visits
    analysed(page, "depth", 2)
    assert page.is_hidden("#heat-toggle")
    page.click("#analysis-panel h2")
    page.keyboard.press("h")
    assert page.get_attribute("#board", "data-heat") == "no"


# ---------------------------------------------------------------------------- keys


def tab_stops(page) -> list[str]:
    """The board's places in the Tab order."""
    return page.locator("#board [data-place][tabindex='0']").evaluate_all(
        "places => places.map(p => p.dataset.place)"
    )


def walk(page, *steps: str) -> None:
    """Press each step's key ("ArrowUp e5"); the focus, and the board's one tab stop, go to
    its place."""
    for step in steps:
        key, place = step.split()
        page.keyboard.press(key)
        assert focused(page) == f"place:{place}"
        assert tab_stops(page) == [place]


def test_arrow_keys_walk_the_squares_and_the_board_is_one_tab_stop(page):
    pick(page, "chess")
    page.click("#board [data-place='e2']")
    page.click("#board [data-place='e4']")
    wait_for_plies(page, 1)  # a move to go back to: on the board the arrows must not
    assert tab_stops(page) == ["e4"]  # the place clicked last
    page.keyboard.press("ArrowLeft")  # focused by a click, the arrows still walk the line
    wait_for_plies(page, 0)
    page.keyboard.press("ArrowRight")
    wait_for_plies(page, 1)
    page.keyboard.press("Tab")  # the keyboard's focus on the board (its one tab stop) ...
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "place:e4"
    walk(page, "ArrowUp e5", "ArrowRight f5", "ArrowDown f4", "ArrowLeft e4")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert focused(page) == "place:c2"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # the edge: it stays
    assert focused(page) == "place:a2"
    assert page.get_attribute("#moves", "data-count") == "1"  # ... the arrows walk the squares

    page.keyboard.press("Tab")  # one tab stop: Tab leaves the board, Shift+Tab comes back
    assert not focused(page).startswith("place:")
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "place:a2"

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")  # b3 ... to b7, Black's pawn
    for _ in range(4):
        page.keyboard.press("ArrowUp")
    assert focused(page) == "place:b7"
    page.keyboard.press("Enter")  # Enter selects like a click
    page.wait_for_selector("#board [data-place='b7'].selected")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert focused(page) == "place:b5"
    page.keyboard.press("Space")
    wait_for_plies(page, 2)
    assert page.locator("#moves li .move").all_inner_texts() == ["e4", "b5"]
    assert focused(page) == "place:b5"  # the board redrawn, the focus kept

    page.keyboard.press("f")  # flipped: up goes to the row drawn above, rank 4
    page.wait_for_selector("#board[data-flipped='yes']")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")  # and right to the file drawn right of b: a
    assert focused(page) == "place:a4"


def test_arrow_keys_walk_a_hex_board(page):
    pick(page, "hex", "hex")
    load(page, "3")
    page.focus("#legal")
    page.keyboard.press("Shift+Tab")  # back to the board by the keyboard: its one tab stop
    assert focused(page) == "place:a1"
    walk(page, "ArrowRight b1", "ArrowDown b2", "ArrowRight c2", "ArrowUp c1")
    page.keyboard.press("Enter")
    wait_for_plies(page, 1)
    assert page.locator("#moves li .move").all_inner_texts() == ["c1"]


def test_a_puzzles_solution_is_found_and_played_on_the_board(page):
    pick(page, "sliding-puzzle")
    load(page, "3,1,2,4,0,5,6,7,8")  # the blank goes left, then up
    tiles = page.eval_on_selector_all("#board .place", "places => places.length")
    assert tiles == 9
    page.check("#solve")
    analyse(page, "infinite")
    page.wait_for_selector("#analysis-panel[data-state='done']")
    assert page.inner_text("#stat-score") == "solved in 2 moves"
    assert page.inner_text("#pv") == "L U"
    page.click("#play-line")  # the solution, a move at a time
    wait_for_plies(page, 2)
    page.wait_for_selector("#status[data-over='yes']")
    assert page.locator("#moves .move").all_inner_texts() == ["L", "U"]
    assert page.input_value("#position-text") == "0,1,2,3,4,5,6,7,8"


def test_a_sudoku_is_drawn_solved_and_filled_in_on_the_board(page):
    pick(page, "sudoku")
    load(page, "12.4341.2143432.")  # a 4x4 grid, three cells to fill
    cells = page.eval_on_selector_all("#board .place", "places => places.length")
    assert cells == 16
    lines = page.eval_on_selector_all(
        "#board .block-line",
        "lines => lines.map(l => [l.x1, l.y1, l.x2, l.y2].map(v => v.baseVal.value))",
    )
    # the 2x2 boxes (cells of 10): lines across at rows 0, 2 and 4, down at columns 0, 2
    # and 4, after the row labels' margin of 4
    across = sorted(y1 for _, y1, _, y2 in lines if y1 == y2)
    down = sorted(x1 for x1, _, x2, _ in lines if x1 == x2)
    assert (len(lines), across, down) == (6, [0, 20, 40], [4, 24, 44])
    page.check("#solve")
    analyse(page, "infinite")
    page.wait_for_selector("#analysis-panel[data-state='done']")
    assert page.inner_text("#stat-score") == "solved in 3 assignments"
    assert sorted(page.inner_text("#pv").split()) == ["r1c3=3", "r2c4=2", "r4c4=1"]
    page.click("#play-line")  # the grid filled in, a digit at a time
    wait_for_plies(page, 3)
    page.wait_for_selector("#status[data-over='yes']")
    assert page.input_value("#position-text") == "1234341221434321"
