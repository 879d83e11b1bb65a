"""argparse types that refuse absurd numbers with a one-line reason (every layer's commands and
the benchmarks). A leaf: it imports nothing from kibitz."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def integer(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An integer in [minimum, maximum]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum}, not {value}")
        return value

    return parse


def seconds(*, positive: bool) -> Callable[[str], float]:
    """A finite number of seconds, >= 0 (or > 0 when `positive`)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not (math.isfinite(value) and value >= 0):
            raise argparse.ArgumentTypeError(f"must be a non-negative number, not {text}")
        if positive and value == 0:
            raise argparse.ArgumentTypeError("must be more than 0")
        return value

    return parse


count = integer(0)
positive_int = integer(1)
port = integer(0, 65535)
any_seconds = seconds(positive=False)
positive_seconds = seconds(positive=True)
