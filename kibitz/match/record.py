"""The match record: a JSON-lines file written as the match goes (`games.jsonl` under
`--out`), the games in their game's own record format where it has one (`games.pgn` for
chess, written by the game: `Game.export_record`), and the summary (docs/match.md, "Files").

The first line describes the match (`"type": "match"`), every later one a finished game
(`"type": "game"`). A line is written and flushed as soon as its game ends, so a killed
match loses at most the games it was playing; `--resume` reads the file back (a torn last
line is dropped) and plays only what is missing. The games being played are in
`running.json` (their tasks and moves so far, rewritten after every move, for watchers such
as `kibitz web --match DIR`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kibitz.games import GAMES

RECORD = "games.jsonl"
RUNNING = "running.json"
SUMMARY = "summary.json"


class RecordError(ValueError):
    """A record that cannot be resumed: missing, unreadable, or from another match."""


class Record:
    """The open record of one match in `directory`."""

    def __init__(self, directory: str | Path, header: dict[str, Any], *, resume: bool) -> None:
        self.directory = Path(directory)
        self.path = self.directory / RECORD
        self.games: list[dict[str, Any]] = []
        """Every game line so far (those read back on resume first)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        if resume:
            self.games = _read_games(self.path, header)
            lines = [header, *self.games]  # rewrite without a torn last line
        else:
            if self.path.exists() and self.path.stat().st_size:
                raise RecordError(
                    f"{self.path} already holds a match: pass --resume to continue it, or "
                    "choose another --out"
                )
            lines = [header]
        with self.path.open("w") as out:
            out.writelines(_line(item) for item in lines)
        self._file = self.path.open("a")
        self._running: dict[int, dict[str, Any]] = {}
        self._write_running()

    def add(self, game: dict[str, Any]) -> None:
        """Append one finished game (flushed at once)."""
        self.games.append(game)
        self._file.write(_line(game))
        self._file.flush()
        if self._running.pop(game["id"], None) is not None:
            self._write_running()

    def playing(self, task: dict[str, Any], engines: list[str], moves: list[str]) -> None:
        """A game in progress (`task` as GameTask.to_json()) after its latest move."""
        self._running[task["id"]] = {**task, "engines": engines, "moves": list(moves)}
        self._write_running()

    def _write_running(self) -> None:
        """`running.json`, replaced whole (a reader never sees half a file)."""
        games = [self._running[key] for key in sorted(self._running)]
        partial = self.directory / (RUNNING + ".tmp")
        partial.write_text(json.dumps({"games": games}, separators=(",", ":")))
        partial.replace(self.directory / RUNNING)

    def finish(self, summary: dict[str, Any]) -> None:
        """Close the record; write the summary and the games in their own record format."""
        self._file.close()
        self._running.clear()
        self._write_running()
        (self.directory / SUMMARY).write_text(json.dumps(summary, indent=2) + "\n")
        exported = export(summary.get("game", ""), self.games)
        if exported is not None:
            name, text = exported
            (self.directory / name).write_text(text)


def _line(item: dict[str, Any]) -> str:
    return json.dumps(item, separators=(",", ":")) + "\n"


def _read_games(path: Path, header: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise RecordError(f"cannot resume from {path}: {exc.strerror}") from None
    items = []
    for number, line in enumerate(lines, start=1):
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):  # torn by a kill mid-write
                break
            raise RecordError(f"{path}:{number} is not JSON") from None
    if not items or items[0].get("type") != "match":
        raise RecordError(f"{path} does not start with a match line")
    if items[0]["match"] != header["match"]:
        raise RecordError(
            f"{path} records a different match (game, engines, limits, rules or schedule "
            "differ): resume it with the command line that started it"
        )
    return [item for item in items[1:] if item.get("type") == "game"]


# ---------------------------------------------------------------------------- export


def export(game: str, games: Iterable[dict[str, Any]]) -> tuple[str, str] | None:
    """(file name, text) of the game records in `game`'s own record format
    (`Game.record_format`, e.g. PGN), written by the game: each move commented with its
    score/depth and seconds (as cutechess does), the reason the game ended after the last.
    Games replayed with --replay-failed are left out. None where the game's records are
    JSON: games.jsonl holds them already."""
    cls = GAMES.get(game)
    if cls is None or cls.record_format == "json":
        return None
    texts = []
    for record in games:
        if not record.get("counted", True):
            continue
        opening = record["opening"]
        start = cls.from_position(opening["position"])
        start.play_line(opening["moves"])
        moves = record["moves"]
        comments = [
            "" if move.get("chance") else f"{move['score']}/{move['depth']} {move['wall']:.3f}s"
            for move in moves
        ]
        headers = {
            "Event": "kibitz match",
            "Round": f"{record['round'] + 1}.{record['pair_game'] + 1}",
            "Result": record["result"],
            "Termination": record["termination"],
        }
        written = start.export_record(
            [move["move"] for move in moves],
            record["engines"],
            headers,
            [*comments, record["reason"]],
        )
        texts.append(written.text.strip())
    return f"games.{cls.record_format}", "\n\n".join(texts) + ("\n" if texts else "")
