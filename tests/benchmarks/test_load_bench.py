"""The round-trip table's calls through the web page's gateway (benchmarks/load.py): a real
`kibitz serve` and a real `kibitz web` as subprocesses, the calls answered as the table
times them, and a refusal raised (a timed call never counts an error as a round trip)."""

from __future__ import annotations

import asyncio
from contextlib import closing

import pytest

from benchmarks.load import GatewayProcess, Http, ServerProcess, _round_trip_calls
from kibitz.clients import Client


def test_the_gateway_rows_call_the_page_api_of_the_server_they_measure():
    async def answers(address: str, web: Http) -> tuple[dict, dict]:
        async with Client(address, tls_ca="", token="") as client:
            calls = _round_trip_calls(client, web)
            servers = await calls["Gateway GET /api/servers (HTTP)"]()
            described = await calls["Gateway Describe chess after e2e4 (HTTP)"]()
            return servers, described

    with (
        ServerProcess() as server,
        GatewayProcess(server.address) as gateway,
        closing(Http(gateway)) as web,
    ):
        servers, described = asyncio.run(answers(server.address, web))
        with pytest.raises(RuntimeError, match=r"HTTP 400: .*e2e5 is not a legal move"):
            asyncio.run(web.call("POST", "/api/describe", {"game": "chess", "moves": ["e2e5"]}))
    assert [entry["address"] for entry in servers["servers"]] == [server.address]
    assert described["playedLabels"] == ["e4"] and described["toMove"] == 1
    assert len(described["legalMoves"]) == 20
