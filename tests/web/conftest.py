"""Real parts for the web tests: two kibitz servers on loopback, a real `kibitz web` gateway
(uvicorn in a thread) talking to them, and headless Chromium (the system's, never a
downloaded one) driven by Playwright.

Screenshots go to a temporary folder: `KIBITZ_SCREENSHOTS=docs/images` (a folder, relative
to the repository) has them refresh the README's and docs/web.md's images instead."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from gateways import RunningGateway

from kibitz.server.config import ServerConfig
from kibitz.server.embedded import BackgroundServer

CHROMIUM = Path("/usr/bin/chromium")
REPOSITORY = Path(__file__).resolve().parents[2]
WEB_CONFIG = ServerConfig(
    host="127.0.0.1",
    port=0,
    max_sessions=32,
    max_sessions_per_client=32,
    max_searches=4,
    idle_timeout=0,
    info_interval=0.05,
)


@pytest.fixture(scope="session")
def kibitz_servers() -> Iterator[list[BackgroundServer]]:
    """Two kibitz servers: engine against engine plays across them."""
    servers = [BackgroundServer(WEB_CONFIG), BackgroundServer(WEB_CONFIG)]
    yield servers
    for server in servers:
        server.stop()


@pytest.fixture
def gateway(kibitz_servers) -> Iterator[RunningGateway]:
    """A gateway of its own per test: leaving closes every session the test opened."""
    running = RunningGateway([server.address for server in kibitz_servers])
    yield running
    running.stop()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory) -> Path:
    """Where the page tests write their screenshots (never a tracked file, unless asked)."""
    wanted = os.environ.get("KIBITZ_SCREENSHOTS")
    if not wanted:
        return tmp_path_factory.mktemp("screenshots")
    folder = REPOSITORY / wanted
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")  # sync Playwright runs an event loop while it lives
def browser():
    if not CHROMIUM.exists():
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install the Debian package chromium "
            "(scripts/peers.sh does) to run the browser tests"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        yield launched
        launched.close()


@pytest.fixture
def page(browser, gateway):
    """A fresh page on the gateway, its game picker filled; console errors fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.set_default_timeout(20_000)
    opened.goto(gateway.url)
    opened.wait_for_selector("#main[data-ready='yes']")
    yield opened
    context.close()
    assert not errors, errors
