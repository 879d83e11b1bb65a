"""Bridge's double-dummy table through the service: for a deal, the tricks each of the four
seats takes as declarer in each of the five strains with best play by all four hands (the
`dds` engine, one exact search per cell), as `kibitz bridge-table` prints it."""

from __future__ import annotations

from dataclasses import dataclass

from kibitz.clients.sync import SyncClient
from kibitz.clients.values import Limits
from kibitz.vocabulary import Bound

SEATS = ("N", "E", "S", "W")
STRAINS = ("NT", "S", "H", "D", "C")
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass(frozen=True)
class DoubleDummyTable:
    """The tricks declarer takes, by declarer seat and strain (`tricks[seat][strain]`)."""

    deal: str
    tricks: dict[str, dict[str, int]]

    def text(self) -> str:
        """The table as DDS prints one: a row per declarer, a column per strain."""
        lines = ["declarer  " + "".join(f"{strain:>4}" for strain in STRAINS)]
        for seat in SEATS:
            row = "".join(f"{self.tricks[seat][strain]:>4}" for strain in STRAINS)
            lines.append(f"{SEAT_NAMES[seat]:<10}{row}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        return {"deal": self.deal, "tricks": self.tricks}


def tricks_in(deal: str) -> int:
    """The tricks a deal in PBN holds: the cards of its first hand (`N:AKQ.J.T9.8 ...`)."""
    first = deal.split(":", 1)[-1].split()[0] if deal.strip() else ""
    return sum(1 for char in first if char not in ".-")


def double_dummy_table(client: SyncClient, deal: str, engine: str = "dds") -> DoubleDummyTable:
    """The deal's 20 results, one exact search each on one session (so the engine may keep
    what it learnt between them): declarer's tricks = the deal's tricks less those the
    opening leader's side, on move, takes (the `dds` engine's `Result.stats["tricks"]`)."""
    total = tricks_in(deal)
    tricks: dict[str, dict[str, int]] = {seat: {} for seat in SEATS}
    with client.open("bridge", engine) as session:
        for strain in STRAINS:
            for index, declarer in enumerate(SEATS):
                leader = SEATS[(index + 1) % 4]
                position = f"{deal} {strain} {leader}"
                result = session.search(position, (), Limits(solve=True)).wait()
                if "tricks" not in result.stats or result.score.bound is not Bound.EXACT:
                    raise ValueError(f"{engine} gave no exact value for {position!r}")
                tricks[declarer][strain] = total - round(result.stats["tricks"])
    return DoubleDummyTable(deal, tricks)
