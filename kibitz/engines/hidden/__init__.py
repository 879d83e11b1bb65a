"""Engines for games of hidden information: `cfr` (the whole tree, CFR+), `pimc`
(perfect-information Monte Carlo over sampled worlds) and `ismcts` (information-set MCTS)."""

from kibitz.engines.hidden.cfr import CFR
from kibitz.engines.hidden.ismcts import ISMCTS
from kibitz.engines.hidden.pimc import PIMC

__all__ = ["CFR", "ISMCTS", "PIMC"]
