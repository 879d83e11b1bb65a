"""A match for the page to watch (`kibitz web --match DIR`): what `kibitz match --out DIR`
writes there (docs/match.md, "Files"), read afresh at every request: the match line and the
finished games of `games.jsonl`, the games being played from `running.json`, and
`summary.json` once the match has ended.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FINISHED_SHOWN = 100
"""The most recent finished games the answer lists."""


class MatchUnreadable(Exception):
    """The directory holds no match record (yet), or not one this page can read."""


def match_state(directory: Path) -> dict[str, Any]:
    """The match in `directory` as the page shows it (docs/web.md, `GET /api/match`)."""
    lines = _json_lines(directory / "games.jsonl")
    if not lines or lines[0].get("type") != "match":
        raise MatchUnreadable(f"{directory} holds no match record (games.jsonl) yet")
    match = lines[0]["match"]
    finished = [line for line in lines[1:] if line.get("type") == "game"]
    running = _json_file(directory / "running.json") or {"games": []}
    return {
        "game": match["game"],
        "engines": [engine["name"] for engine in match["engines"]],
        "planned": match["games"],
        "running": [_game(game, game["moves"]) for game in running["games"]],
        "finished": [
            {
                **_game(game, [move["move"] for move in game["moves"]]),
                "result": game["result"],
                "returns": game.get("returns", []),
                "reason": game["reason"],
                "counted": game.get("counted", True),
            }
            for game in finished[-FINISHED_SHOWN:]
        ],
        "played": len(finished),
        "summary": _json_file(directory / "summary.json"),
    }


def _game(game: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    """A game's identity, start and moves: `position` and `moves` are what Describe takes
    (the opening's moves, then the game's)."""
    opening = game["opening"]
    return {
        "id": game["id"],
        "engines": game["engines"],
        "position": opening["position"],
        "moves": [*opening["moves"], *moves],
        "openingPlies": len(opening["moves"]),
    }


def _json_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of `path` (a torn last line, being written, is left out)."""
    try:
        text = path.read_text()
    except OSError:
        return []
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return lines


def _json_file(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None
