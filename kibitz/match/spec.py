"""What a match is asked to do, parsed from text: engines (`--engine KEY=VALUE,...`), time
controls (`40/60+0.6`, `10+0.1`), adjudication rules and SPRT bounds (docs/match.md).

Every parser raises `SpecError` (a ValueError) with a message naming the culprit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any


class SpecError(ValueError):
    """A malformed engine, time control, adjudication or SPRT specification."""


# ---------------------------------------------------------------------------- key=value lists


def key_values(text: str, what: str) -> dict[str, str]:
    """`a=1,b=2` -> {"a": "1", "b": "2"}; `cmd=` takes the rest of the text (commas and all)."""
    pairs: dict[str, str] = {}
    rest = text.strip()
    while rest:
        if rest.startswith("cmd="):
            pairs["cmd"] = rest[4:].strip()
            break
        item, _, rest = rest.partition(",")
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise SpecError(f"{what}: {item.strip()!r} is not KEY=VALUE")
        if key in pairs:
            raise SpecError(f"{what}: {key!r} is given twice")
        pairs[key] = value.strip()
    return pairs


def _number(text: str, what: str, *, integer: bool = False, positive: bool = False) -> Any:
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise SpecError(f"{what} must be {kind}, not {text!r}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise SpecError(f"{what} must be {'positive' if positive else 'non-negative'}: {text!r}")
    return value


# ---------------------------------------------------------------------------- time controls


_TC = re.compile(r"^(?:(\d+)/)?([0-9.]+)(?:\+([0-9.]+))?$")


@dataclass(frozen=True)
class TimeControl:
    """`moves`/`base`+`increment`: `base` seconds for every `moves` moves (0: for the whole
    game), plus `increment` seconds after each move."""

    base: float
    increment: float = 0.0
    moves: int = 0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """`40/60+0.6` (60 s per 40 moves, 0.6 s a move), `10+0.1`, `60`."""
        match = _TC.match(text.strip())
        if not match:
            raise SpecError(
                f"time control {text!r} is not [MOVES/]SECONDS[+INCREMENT], e.g. 40/60+0.6 or "
                "10+0.1"
            )
        moves, base, increment = match.groups()
        tc = cls(
            base=_number(base, "the time control's seconds", positive=True),
            increment=_number(increment or "0", "the time control's increment"),
            moves=_number(moves or "0", "the time control's moves", integer=True),
        )
        return tc

    def __str__(self) -> str:
        text = f"{self.base:g}" + (f"+{self.increment:g}" if self.increment else "")
        return f"{self.moves}/{text}" if self.moves else text


# ---------------------------------------------------------------------------- limits


LIMIT_KEYS = ("tc", "movetime", "depth", "nodes")


@dataclass(frozen=True)
class MoveLimits:
    """How long an engine may think per move: a clock, a move time, a depth, a node count
    (any combination; none at all is refused)."""

    tc: TimeControl | None = None
    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def merged(self, overrides: MoveLimits) -> MoveLimits:
        """These limits with every limit `overrides` sets replaced (fastchess's -each/-engine)."""
        changes = {key: getattr(overrides, key) for key in LIMIT_KEYS}
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def any(self) -> bool:
        return any(getattr(self, key) is not None for key in LIMIT_KEYS)

    @classmethod
    def from_texts(cls, values: dict[str, str], what: str) -> MoveLimits:
        return cls(
            tc=TimeControl.parse(values["tc"]) if "tc" in values else None,
            movetime=_number(values["movetime"], f"{what}: movetime", positive=True)
            if "movetime" in values
            else None,
            depth=_number(values["depth"], f"{what}: depth", integer=True, positive=True)
            if "depth" in values
            else None,
            nodes=_number(values["nodes"], f"{what}: nodes", integer=True, positive=True)
            if "nodes" in values
            else None,
        )

    def describe(self) -> str:
        parts = []
        if self.tc:
            parts.append(f"tc={self.tc}")
        if self.movetime is not None:
            parts.append(f"movetime={self.movetime:g}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        return ",".join(parts) or "none"

    def to_json(self) -> dict[str, Any]:
        return {
            "tc": str(self.tc) if self.tc else None,
            "movetime": self.movetime,
            "depth": self.depth,
            "nodes": self.nodes,
        }


# ---------------------------------------------------------------------------- engines


ENGINE_KEYS = ("name", "server", "engine", "cmd", "tls_ca", "token", *LIMIT_KEYS)


@dataclass(frozen=True)
class EngineSpec:
    """One player of a match: a kibitz engine on a server (`server`, `engine`, `options`) or
    a local UCI command (`cmd`, chess only), with its own limits overriding the match's."""

    name: str
    server: str = ""
    engine: str = ""
    options: dict[str, str] = field(default_factory=dict, hash=False)
    limits: MoveLimits = MoveLimits()
    cmd: str = ""
    tls_ca: str | None = None
    token: str | None = None

    @classmethod
    def parse(cls, text: str, *, default_server: str = "", index: int = 0) -> EngineSpec:
        """`name=new,server=10.0.0.5:50051,engine=alphabeta,option.Hash=64,depth=8`."""
        what = f"--engine {text!r}"
        values = key_values(text, what)
        options = {}
        for key in list(values):
            if key.startswith("option."):
                name = key[len("option.") :]
                if not name:
                    raise SpecError(f"{what}: an option needs a name (option.NAME=VALUE)")
                options[name] = values.pop(key)
        unknown = set(values) - set(ENGINE_KEYS)
        if unknown:
            raise SpecError(
                f"{what}: unknown key {sorted(unknown)[0]!r}; keys: {', '.join(ENGINE_KEYS)}, "
                "option.NAME"
            )
        if values.get("cmd") and values.get("server"):
            raise SpecError(f"{what}: give server= (a kibitz engine) or cmd= (UCI), not both")
        server = values.get("server") or ("" if values.get("cmd") else default_server)
        engine = values.get("engine", "")
        name = values.get("name") or engine or (values.get("cmd", "").split() or [""])[0]
        return cls(
            name=name or f"engine{index + 1}",
            server=server,
            engine=engine,
            options=options,
            limits=MoveLimits.from_texts(values, what),
            cmd=values.get("cmd", ""),
            tls_ca=values.get("tls_ca"),
            token=values.get("token"),
        )

    def to_json(self) -> dict[str, Any]:
        """What the record keeps of it (never the token)."""
        out: dict[str, Any] = {"name": self.name, "options": dict(self.options)}
        if self.cmd:
            out["cmd"] = self.cmd
        else:
            out["server"] = self.server
            out["engine"] = self.engine
        out["limits"] = {k: v for k, v in self.limits.to_json().items() if v is not None}
        return out


# ---------------------------------------------------------------------------- adjudication


@dataclass(frozen=True)
class DrawRule:
    """A draw once both engines' scores stay within `score` centi-units of 0 for `movecount`
    consecutive moves each, from move `movenumber` on (fastchess's -draw)."""

    movenumber: int = 0
    movecount: int = 1
    score: int = 0

    @classmethod
    def parse(cls, text: str) -> DrawRule:
        values = key_values(text, f"--draw {text!r}")
        _only(values, ("movenumber", "movecount", "score"), "--draw")
        return cls(
            movenumber=_number(values.get("movenumber", "0"), "--draw movenumber", integer=True),
            movecount=_number(
                values.get("movecount", "1"), "--draw movecount", integer=True, positive=True
            ),
            score=_number(values.get("score", "0"), "--draw score", integer=True),
        )


@dataclass(frozen=True)
class ResignRule:
    """A loss for an engine whose score stays at or below -`score` centi-units for
    `movecount` consecutive moves of its own; with `twosided` the opponent must agree (its
    score at least +`score`) (fastchess's -resign)."""

    movecount: int = 1
    score: int = 0
    twosided: bool = False

    @classmethod
    def parse(cls, text: str) -> ResignRule:
        values = key_values(text, f"--resign {text!r}")
        _only(values, ("movecount", "score", "twosided"), "--resign")
        twosided = values.get("twosided", "false").lower()
        if twosided not in ("true", "false"):
            raise SpecError(f"--resign twosided must be true or false, not {twosided!r}")
        return cls(
            movecount=_number(
                values.get("movecount", "1"), "--resign movecount", integer=True, positive=True
            ),
            score=_number(values.get("score", "0"), "--resign score", integer=True),
            twosided=twosided == "true",
        )


# ---------------------------------------------------------------------------- SPRT


SPRT_MODELS = ("normalized", "logistic")


@dataclass(frozen=True)
class SprtSpec:
    """H0: elo = elo0 against H1: elo = elo1 with error rates alpha and beta; `model` says
    which Elo the bounds are in (normalized, as fishtest and fastchess by default, or
    logistic)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    @classmethod
    def parse(cls, text: str) -> SprtSpec:
        values = key_values(text, f"--sprt {text!r}")
        _only(values, ("elo0", "elo1", "alpha", "beta", "model"), "--sprt")
        for key in ("elo0", "elo1"):
            if key not in values:
                raise SpecError(f"--sprt needs {key}= (e.g. elo0=0,elo1=5)")
        try:
            spec = cls(
                elo0=float(values["elo0"]),
                elo1=float(values["elo1"]),
                alpha=float(values.get("alpha", "0.05")),
                beta=float(values.get("beta", "0.05")),
                model=values.get("model", "normalized"),
            )
        except ValueError:
            raise SpecError(f"--sprt {text!r}: elo0, elo1, alpha and beta are numbers") from None
        if not spec.elo0 < spec.elo1:
            raise SpecError("--sprt: elo0 must be less than elo1")
        if not (0 < spec.alpha < 1 and 0 < spec.beta < 1 and spec.alpha + spec.beta < 1):
            raise SpecError("--sprt: alpha and beta must lie in (0, 1) with alpha + beta < 1")
        if spec.model not in SPRT_MODELS:
            raise SpecError(f"--sprt model must be one of {', '.join(SPRT_MODELS)}")
        return spec

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: log(beta / (1 - alpha))."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: log((1 - beta) / alpha)."""
        return math.log((1 - self.beta) / self.alpha)


def _only(values: dict[str, str], keys: tuple[str, ...], what: str) -> None:
    unknown = set(values) - set(keys)
    if unknown:
        raise SpecError(f"{what}: unknown key {sorted(unknown)[0]!r}; keys: {', '.join(keys)}")
