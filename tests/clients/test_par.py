"""Bridge's par result (kibitz.clients.par): duplicate scores of known contracts, and the par
score equal to DDS's (endplay's `par`) for every vulnerability and dealer: of random deals'
tables, which DDS solves, and of random tables shaped like deals', which reach far more
kinds of par (sacrifices, games, partscores, slams) in the time of one deal."""

from __future__ import annotations

import random

import pytest
from endplay._dds import ddTableResults
from endplay.dds import calc_dd_table
from endplay.dds import par as dds_par
from endplay.dds.ddtable import DDTable
from endplay.types import Deal, Player, Vul

from kibitz.clients.par import contract_score, par

DDS_STRAINS = ("S", "H", "D", "C", "NT")  # the rows of endplay's DDTable.to_list()
DDS_VULNERABILITY = {"none": Vul.none, "both": Vul.both, "ns": Vul.ns, "ew": Vul.ew}


@pytest.mark.parametrize(
    ("level", "strain", "tricks", "vulnerable", "score"),
    [
        (1, "NT", 8, False, 120),  # 1NT+1
        (3, "NT", 9, False, 400),
        (3, "NT", 9, True, 600),
        (4, "S", 10, True, 620),
        (4, "H", 11, False, 450),  # 4H+1
        (2, "C", 8, False, 90),
        (5, "D", 11, True, 600),
        (6, "NT", 12, True, 1440),
        (7, "C", 13, False, 1440),
        (4, "S", 7, False, -500),  # doubled, three down, not vulnerable
        (4, "S", 7, True, -800),
        (1, "C", 6, False, -100),
        (5, "C", 5, False, -1400),  # six down: 100 + 200 + 200 + 3 x 300
    ],
)
def test_contracts_score_as_duplicate_bridge_scores_them(level, strain, tricks, vulnerable, score):
    assert contract_score(level, strain, tricks, vulnerable) == score


def random_deal(seed: int) -> Deal:
    cards = [suit + rank for suit in "SHDC" for rank in "AKQJT98765432"]
    random.Random(seed).shuffle(cards)
    hands = [cards[13 * seat : 13 * seat + 13] for seat in range(4)]
    return Deal(
        "N:"
        + " ".join(".".join("".join(c[1] for c in h if c[0] == s) for s in "SHDC") for h in hands)
    )


def assert_par_as_ddss(table: DDTable, case: object) -> None:
    """Our par score of DDS's `table` equals DDS's, for every vulnerability and dealer."""
    rows = table.to_list()
    tricks = {
        seat: {strain: rows[row][column] for row, strain in enumerate(DDS_STRAINS)}
        for column, seat in enumerate("NESW")
    }
    for vulnerable, dds_vulnerable in DDS_VULNERABILITY.items():
        for dealer in "NESW":
            ours = par(tricks, vulnerable, dealer)
            theirs = dds_par(table, dds_vulnerable, Player.find(dealer))
            assert ours.score == theirs.score, (case, rows, vulnerable, dealer, ours)


def test_par_scores_equal_ddss_on_random_deals():
    for seed in range(2):  # DDS solves a deal's table in about 1.6 s
        assert_par_as_ddss(calc_dd_table(random_deal(seed)), seed)


def random_table(rng: random.Random) -> DDTable:
    """A table shaped like a deal's (partners take about as many tricks, the other side
    about the rest), each strain fought over differently: contested partscores, games,
    slams and sacrifices."""
    results = ddTableResults()  # endplay's ctypes mirror of DDS's ddTableResults
    for strain in range(5):
        ns = min(13, max(0, round(rng.gauss(6.5, 2.5))))
        for seat in range(4):
            ours = ns if seat % 2 == 0 else 13 - ns
            results.resTable[strain][seat] = min(13, max(0, ours + rng.choice((-1, 0, 0, 1))))
    return DDTable(results)


def test_par_scores_equal_ddss_on_tables_of_every_kind():
    rng = random.Random(2026)
    for case in range(60):
        assert_par_as_ddss(random_table(rng), case)


def test_a_par_contract_names_its_declarers_and_result():
    tricks = {seat: dict.fromkeys(("C", "D", "H", "S", "NT"), 6) for seat in "NESW"}
    assert par(tricks, "none", "N").text() == "par 0: passed out"
    tricks["N"]["S"] = tricks["S"]["S"] = 10  # NS make 4S; EW's 4NT sacrifice goes 4 down
    found = par(tricks, "ns", "E")
    assert found.score == 620 and found.contracts == ("4S N =", "4S S =")
    with pytest.raises(ValueError, match="vulnerability 'all'"):
        par(tricks, "all", "N")
