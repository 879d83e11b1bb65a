"""The page's accessibility, checked in real headless Chromium (issue 29): axe-core's WCAG 2
A and AA rules (`axe-playwright-python`, which bundles axe-core) on the page in every state a
person meets it in (fresh, each game of the server, an analysis with its root-move table,
a game against the engine, engine against engine, a match), and the keyboard: Tab alone
reaches every visible control, each with a focus indicator one can see.

Waits are on page conditions (the page marks its state in data- attributes), never sleeps."""

from __future__ import annotations

import json
import subprocess

import pytest
from gateways import RunningGateway
from servers import KIBITZ
from test_page import analyse, pick, play_to_the_end

from kibitz.match.record import Record

axe_playwright = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python (dev)"
)

# WCAG 2.0, 2.1 and 2.2, levels A and AA: what issue 29 asks for.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_SCRIPT = axe_playwright.Axe().axe_script

GAMES = {"chess", "connect4", "backgammon", "hex", "nim", "pig", "tictactoe"}


def violations(page, state: str) -> list[str]:
    """axe's WCAG A/AA violations on the page as it is now, one line each: the rule, its
    impact and the first nodes' selectors (the assertion message says what to fix).

    axe-core goes into the page once (`Axe.run` would inject its 550 kB again on each call);
    a page the test navigates away from gets it again."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
    results = page.evaluate("options => axe.run(document, options)", options)
    lines = []
    for violation in results["violations"]:
        nodes = violation["nodes"]
        targets = "; ".join(" ".join(node["target"]) for node in nodes[:4])
        more = f" (+{len(nodes) - 4} more)" if len(nodes) > 4 else ""
        lines.append(
            f"{state}: {violation['id']} ({violation['impact']}) on {targets}{more}: "
            f"{violation['help']}"
        )
    return lines


def assert_accessible(page, state: str) -> None:
    found = violations(page, state)
    assert not found, "\n".join(found)


# ---------------------------------------------------------------------------- axe


def test_axe_finds_nothing_on_a_fresh_page_and_on_every_game(page):
    assert_accessible(page, "fresh page")
    games = page.eval_on_selector_all("#game option", "options => options.map(o => o.value)")
    assert set(games) >= GAMES, games
    found = []
    for game in games:
        pick(page, game, kind=None)
        found += violations(page, game)
    assert not found, "\n".join(found)


def test_axe_finds_nothing_with_an_analysis_on_screen(page):
    pick(page, "connect4", kind=None)
    analyse(page, "depth", 6)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    page.wait_for_selector("#root-moves tbody tr >> nth=6")
    assert_accessible(page, "connect4 analysed")
    assert page.get_attribute("#root-moves", "aria-label") == "root moves"
    headers = page.eval_on_selector_all("#root-moves thead th", "ths => ths.map(th => th.scope)")
    assert headers and set(headers) == {"col"}, headers
    pick(page, "hex", kind=None)  # MCTS: visits, win/draw/loss rates and priors, and `show all`
    analyse(page, "nodes", 2000)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    page.wait_for_selector("#root-moves tbody tr >> nth=9")
    assert_accessible(page, "hex analysed")
    page.click("#root-more")
    page.wait_for_selector("#root-moves tbody tr >> nth=10")
    assert_accessible(page, "hex analysed, every root move")


def test_axe_finds_nothing_on_a_phone_sized_screen(page):
    page.set_viewport_size({"width": 390, "height": 844})  # one column, small targets
    games = page.eval_on_selector_all("#game option", "options => options.map(o => o.value)")
    found = []
    for game in games:
        pick(page, game, kind=None)
        found += violations(page, f"{game} on a phone")
    assert not found, "\n".join(found)


def test_axe_finds_nothing_with_an_error_on_screen(page):
    page.fill("#position-text", "not a position")
    page.click("#load-position")
    page.wait_for_selector("#error:not([hidden])")
    assert_accessible(page, "an error shown")


def test_axe_finds_nothing_while_playing_the_engine_and_after(page):
    pick(page, "tictactoe", kind=None)
    page.click("#modes [data-mode='play']")
    assert_accessible(page, "play mode")
    turns = []

    def check_the_first_turn(page) -> None:
        if not turns:
            assert_accessible(page, "tictactoe, your move against the engine")
        turns.append(page)

    play_to_the_end(page, "#board .place.legal", each_turn=check_the_first_turn)
    assert turns
    assert_accessible(page, "tictactoe, a finished game against the engine")


def test_axe_finds_nothing_in_engine_against_engine(page):
    pick(page, "tictactoe", kind=None)
    page.click("#modes [data-mode='watch']")
    assert_accessible(page, "engine vs engine")
    page.fill("#watch-movetime", "0.02")
    page.click("#watch-start")
    page.wait_for_selector("#watch-panel[data-state='over']")
    assert_accessible(page, "engine vs engine, over")


def test_axe_finds_nothing_watching_a_match(browser, kibitz_servers, tmp_path):
    address = kibitz_servers[0].address
    argv = [*KIBITZ, "match", "--game", "tictactoe", "--games", "1", "--out", str(tmp_path)]
    argv += ["--engine", f"name=a,server={address},depth=9"]
    argv += ["--engine", f"name=b,server={address},depth=9"]
    subprocess.run(argv, check=True, capture_output=True, timeout=120)
    finished = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    header = {"type": "match", "match": finished[0]["match"]}
    record = Record(tmp_path, header, resume=True)
    task = {key: finished[1][key] for key in ("id", "opening")} | {"id": 1}
    record.playing(task, ["a", "b"], ["b2", "a1"])  # a game being played
    watcher = RunningGateway([address], match_dir=str(tmp_path))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.set_default_timeout(20_000)
        page.goto(watcher.url)
        page.wait_for_selector("#main[data-ready='yes']")
        page.click("#modes button[data-mode='watch']")
        page.wait_for_selector("#match-games li >> nth=1")
        page.click("#match-games li[data-id='1'] button")
        page.wait_for_selector("#moves[data-count='2']")
        assert_accessible(page, "a match watched")
    finally:
        page.close()
        watcher.stop()


# ---------------------------------------------------------------------------- the keyboard

# A control's name in the tests' messages: its id, a board place's `place:ID`, a button's
# data-mode/-move/-choice, a root move's row, else its tag and text and a number of its own
# (the same element keeps its number while the page lives).
DESCRIBE = """(element) => {
    const tag = element.tagName.toLowerCase();
    if (element.id) return `#${element.id}`;
    const data = element.dataset || {};
    if (data.place) return `place:${data.place}`;
    for (const key of ["mode", "move", "choice"]) {
        if (data[key] !== undefined) return `${tag}[${key}=${data[key]}]`;
    }
    const row = element.closest("tr[data-move]");
    if (row) return `root move ${row.dataset.move}`;
    const owner = element.parentElement.closest("[id]");
    window.controlNumbers = window.controlNumbers || new WeakMap();
    if (!window.controlNumbers.has(element)) {
        window.controlNumbers.set(element, (window.controlCount = (window.controlCount || 0) + 1));
    }
    const number = window.controlNumbers.get(element);
    return `${tag} "${element.textContent.trim()}" in #${owner.id} (${number})`;
}"""

# Every visible, enabled control in the Tab order, by name.
CONTROLS = """() => {
    const describe = DESCRIBE;
    const selector = "button, input, select, textarea, summary, a[href], [tabindex]";
    const controls = [...document.querySelectorAll(selector)].filter((element) =>
        !element.disabled && element.tabIndex >= 0 && element.getAttribute("tabindex") !== "-1"
        && element.checkVisibility({ visibilityProperty: true })
        && element.getClientRects().length > 0);
    return controls.map(describe);
}""".replace("DESCRIBE", DESCRIBE)

# The focused element: its name (as above) and whether its focus shows: an outline or a
# box shadow of its own, or (a board place, drawn in SVG) its shapes stroked in the accent.
FOCUSED = """() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const describe = DESCRIBE;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== "none";
    const accent = getComputedStyle(document.documentElement).getPropertyValue("--accent").trim();
    const probe = document.createElement("span");
    probe.style.color = accent;
    document.body.append(probe);
    const accentColor = getComputedStyle(probe).color;
    probe.remove();
    const stroked = element.dataset && element.dataset.place !== undefined
        && [...element.querySelectorAll(".cell, .hexagon, .point")]
            .some((shape) => getComputedStyle(shape).stroke === accentColor);
    return { name: describe(element), shows: outline || shadow || stroked,
             outline: `${style.outlineStyle} ${style.outlineWidth}`, shadow: style.boxShadow };
}""".replace("DESCRIBE", DESCRIBE)


def tab_through(page) -> list[dict]:
    """Press Tab from the top of the page until the focus comes round again; what each press
    focused, in order."""
    page.click("header h1")  # no control: Tab goes on from the top of the page
    assert page.evaluate("() => document.activeElement === document.body")
    reached: list[dict] = []
    for _ in range(400):
        page.keyboard.press("Tab")
        now = page.evaluate(FOCUSED)
        if now is None:  # past the last control: the browser's own UI
            if reached:
                return reached
            continue
        if reached and now["name"] == reached[0]["name"]:
            return reached
        reached.append(now)
    raise AssertionError(f"Tab never came round: {[item['name'] for item in reached]}")


def assert_tab_reaches_everything(page, view: str) -> list[str]:
    controls = page.evaluate(CONTROLS)
    reached = tab_through(page)
    names = [item["name"] for item in reached]
    assert len(names) == len(set(names)), f"{view}: Tab reached some twice: {names}"
    assert set(names) == set(controls), (
        f"{view}: not reached by Tab: {sorted(set(controls) - set(names))}; "
        f"reached but not a visible control: {sorted(set(names) - set(controls))}"
    )
    unseen = [item for item in reached if not item["shows"]]
    assert not unseen, f"{view}: focus not visible on {unseen}"
    return names


@pytest.mark.parametrize("game", ["chess", "connect4", "backgammon", "pig"])
def test_tab_reaches_every_control_with_a_visible_focus(page, game):
    pick(page, game, kind=None)
    names = assert_tab_reaches_everything(page, game)
    for control in ("#game", "#move-input", "#position-text", "#analyse-start"):
        assert control in names, (control, names)
    assert any(name.startswith("place:") for name in names) or game == "pig", names
    page.click("#modes [data-mode='play']")
    assert "#play-start" in assert_tab_reaches_everything(page, f"{game}, play")
    page.click("#modes [data-mode='watch']")
    assert "#watch-start" in assert_tab_reaches_everything(page, f"{game}, engine vs engine")


def test_the_root_moves_are_reached_by_tab_and_played_with_enter(page):
    pick(page, "connect4", kind=None)
    analyse(page, "depth", 4)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    page.wait_for_selector("#root-moves tbody tr >> nth=6")
    names = assert_tab_reaches_everything(page, "connect4 analysed")
    rows = page.eval_on_selector_all(
        "#root-moves tbody tr", "rows => rows.map(r => r.dataset.move)"
    )
    assert [name for name in names if name.startswith("root move ")] == [
        f"root move {move}" for move in rows
    ]
    assert page.get_attribute("#root-moves tbody tr:first-child button", "aria-label") == (
        f"play {rows[0]}"
    )
    page.focus("#root-moves tbody tr:first-child button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#moves[data-count='1']")
    assert page.locator("#moves li .move").all_inner_texts() == [rows[0]]
