"""The page's tree of moves (issue 29, as lichess's analysis board keeps it), in real headless
Chromium through a real gateway and real servers, driven by key presses and clicks: a
variation explored and left for the main line again, promoted and deleted; a PGN with a
variation, comments, clock times and evaluations imported whole; the tree exported with its
variations and the page's evaluations, and a game on a clock with its times. The gateway's
`/api/import` and the tree export are checked over HTTP too."""

from __future__ import annotations

import re

import httpx
from test_page import (
    MATE_IN_ONE,
    analyse,
    analysis_matches_board,
    download,
    focused,
    load,
    pick,
    type_move,
    wait_for_plies,
)

PGN = """[Event "club night"]
[White "Ann"]
[Black "Bob"]

1. e4 { [%eval 0.35] [%clk 0:04:59] the king's pawn } e5 (1... c5 { the Sicilian }
2. Nf3 d6) 2. Nf3 { [%eval #4] } *
"""


def main_line(page) -> list[str]:
    """The moves of the list's main line (its items that are no variation)."""
    return page.locator("#moves > li:not(.variation) .move").all_inner_texts()


def variations(page) -> list[str]:
    """Each variation of the list as its text, e.g. "(1...c5 2.Nf3)"."""
    return [
        " ".join(text.split()) for text in page.locator("#moves > li.variation").all_inner_texts()
    ]


def current(page) -> str:
    return page.inner_text("#moves .move.current")


def wait_for_board(page, fen_start: str) -> None:
    """Waits until the position box shows a position starting with `fen_start`."""
    page.wait_for_function(
        "start => document.getElementById('position-text').value.startsWith(start)",
        arg=fen_start,
    )


def test_a_variation_is_explored_and_left_for_the_main_line(page, screenshots):
    pick(page, "chess")
    for move in ("e4", "e5", "Nf3"):
        type_move(page, move)
    page.focus("#moves")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    wait_for_plies(page, 1)
    type_move(page, "c5")  # another move after 1. e4: a variation, the main line kept
    assert main_line(page) == ["e4", "e5", "Nf3"]
    assert variations(page) == ["(1...c5)"]
    assert current(page) == "c5"
    wait_for_board(page, "rnbqkbnr/pp1ppppp/8/2p5/4P3/")
    type_move(page, "Nf3")  # the variation goes on
    assert variations(page) == ["(1...c5 2.Nf3)"]

    analyse(page, "depth", 2)  # the analysis of the variation's position, and only of it
    page.wait_for_selector("#analysis-panel[data-state='done']")
    assert analysis_matches_board(page)
    page.screenshot(path=str(screenshots / "web-variation.png"))
    page.focus("#moves")
    page.keyboard.press("ArrowLeft")  # back along the variation
    wait_for_plies(page, 2)
    assert current(page) == "c5"
    page.keyboard.press("Shift+ArrowUp")  # the move before it from the same position: e5
    page.wait_for_function(
        "() => document.querySelector('#moves .move.current').textContent === 'e5'"
    )
    wait_for_board(page, "rnbqkbnr/pppp1ppp/8/4p3/4P3/")
    assert not analysis_matches_board(page)  # nothing of the variation's analysis is left
    page.keyboard.press("End")  # the main line's end
    wait_for_plies(page, 3)
    assert current(page) == "Nf3" and main_line(page) == ["e4", "e5", "Nf3"]
    page.keyboard.press("Shift+ArrowDown")  # at a move without siblings: nothing changes
    assert current(page) == "Nf3"

    page.click("#moves .variation .move >> text=c5")  # a click on a move goes there
    wait_for_plies(page, 2)
    wait_for_board(page, "rnbqkbnr/pp1ppppp/8/2p5/4P3/")
    assert page.is_disabled("#delete-node") is False and page.is_disabled("#promote") is False
    page.click("#promote")  # the variation becomes the main line, the old one a variation
    page.wait_for_function(
        "() => document.querySelector('#moves > li.variation') "
        "&& document.querySelector('#moves > li.variation').innerText.includes('e5')"
    )
    assert main_line(page) == ["e4", "c5", "Nf3"]
    assert variations(page) == ["(1...e5 2.Nf3)"]
    assert page.is_disabled("#promote")  # on the main line now

    page.locator("#moves .variation .move >> text=e5").focus()  # focused, Enter goes there
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('#moves .move.current').textContent === 'e5'"
    )
    assert page.evaluate("document.activeElement.textContent") == "e5"  # the focus stays
    page.click("#delete-node")  # e5 and what follows it go; the board goes back to 1. e4
    wait_for_plies(page, 1)
    assert variations(page) == [] and main_line(page) == ["e4", "c5", "Nf3"]
    assert current(page) == "e4"


def test_a_pgn_with_a_variation_and_comments_is_imported_whole(page):
    pick(page, "chess")
    page.click("#import-open")
    assert focused(page) == "import-text"
    page.keyboard.insert_text(PGN)
    page.keyboard.press("Enter")  # a new line in the box, not a move
    page.click("#import-load")
    page.wait_for_selector("#import-box", state="hidden")
    wait_for_plies(page, 0)
    assert main_line(page) == ["e4", "e5", "Nf3"]
    assert variations(page) == ["(1...c5 the Sicilian 2.Nf3 d6)"]
    assert "the king's pawn" in page.inner_text("#moves > li:first-child .comment")
    assert page.get_attribute("#graph", "data-points") == "2"  # its evaluations, on the graph
    assert focused(page) == "moves"
    page.keyboard.press("ArrowRight")  # the arrows walk the imported game
    wait_for_plies(page, 1)
    page.click("#moves .variation .move >> text=d6")
    wait_for_plies(page, 4)
    wait_for_board(page, "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/")

    page.click("#import-open")  # an illegal move: said plainly, the tree kept
    page.fill("#import-text", "1. e4 e5 2. Qxf7")
    page.click("#import-load")
    page.wait_for_selector("#error:not([hidden])")
    assert "move 2. Qxf7 is illegal here" in page.inner_text("#error-text")
    assert main_line(page) == ["e4", "e5", "Nf3"] and current(page) == "d6"


def test_the_tree_is_exported_with_its_variations_and_evaluations(page):
    pick(page, "chess")
    page.click("#import-open")
    page.fill("#import-text", PGN)
    page.click("#import-load")
    page.wait_for_selector("#import-box", state="hidden")  # shown, at its start
    page.focus("#moves")
    page.keyboard.press("End")
    wait_for_plies(page, 3)
    analyse(page, "depth", 2)  # the page's evaluation of 2. Nf3's position replaces #4
    page.wait_for_selector("#analysis-panel[data-state='done']")
    score = page.inner_text("#stat-score")
    pgn = download(page, "#export-tree")
    assert "1. e4 { the king's pawn [%eval 0.35] [%clk 0:04:59] } 1... e5" in pgn
    assert "( 1... c5 { the Sicilian } 2. Nf3 d6 )" in pgn
    assert "[%eval #4]" not in pgn and "2. Nf3 { [%eval " in pgn
    value = float(pgn.split("2. Nf3 { [%eval ")[1].split("]")[0])
    black = float(score.replace("+", ""))  # Black to move: the score is Black's
    assert abs(value + black) < 0.011


def test_a_game_on_a_clock_is_exported_with_its_times(page):
    pick(page, "chess")
    load(page, MATE_IN_ONE)
    page.click("#modes [data-mode='play']")
    page.select_option("#play-limit", "clock")
    page.fill("#play-minutes", "3")
    page.fill("#play-increment", "2")
    page.click("#play-start")
    page.wait_for_selector("#play-panel[data-state='human']")
    type_move(page, "Ra8#")
    page.wait_for_selector("#play-panel[data-state='over']")
    pgn = download(page, "#play-download")
    # three minutes, less the time taken, plus the increment of 2 s
    assert re.search(r"1\. Ra8# \{ \[%clk 0:0[23]:\d\d(\.\d+)?\] \}", pgn), pgn
    assert '[Result "1-0"]' in pgn and '[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]' in pgn


def test_the_gateway_imports_and_exports_trees(gateway):
    with httpx.Client(base_url=gateway.url, timeout=30) as http:
        tree = http.post("/api/import", json={"game": "chess", "text": PGN}).json()
        assert tree["headers"]["White"] == "Ann"
        first, sicilian = tree["nodes"][0], tree["nodes"][3]
        assert (first["label"], first["clockMs"], first["evalCenti"]) == ("e4", "299000", 35)
        assert (sicilian["parent"], sicilian["label"], sicilian["comment"]) == (
            0,
            "c5",
            "the Sicilian",
        )
        assert tree["nodes"][2]["evalPlies"] == 8  # White mates in 4 moves, Black to move
        body = {"game": "chess", "position": tree["position"], "nodes": tree["nodes"]}
        pgn = http.post("/api/export", json=body).text
        assert "( 1... c5 { the Sicilian } 2. Nf3 d6 ) 2. Nf3 { [%eval #4] } *" in pgn
        record = http.post(
            "/api/export",
            json={
                "game": "connect4",
                "nodes": [
                    {"parent": -1, "move": "4", "evalCenti": 20},
                    {"parent": -1, "move": "3"},
                ],
            },
        ).json()
        assert record["moves"] == ["4"] and len(record["nodes"]) == 2
        bad = http.post("/api/import", json={"game": "chess", "text": "1. e4 e5 2. Qxf7"})
        assert bad.status_code == 400 and bad.json()["code"] == "INVALID_ARGUMENT"
        assert "move 2. Qxf7 is illegal here" in bad.json()["error"]
        wrong = http.post("/api/export", json={"game": "chess", "nodes": [{"parent": "x"}]})
        assert wrong.status_code == 400 and wrong.json()["code"] == "BAD_REQUEST"
