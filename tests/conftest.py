"""Shared fixtures: real kibitz servers on free loopback ports, run in background threads.

Before anything is collected, the example plugin (examples/plugin) is installed into a
temporary directory put on the path of this process and of every subprocess: the
conformance tests then cover its game and engine like the built-in ones, and every server
the tests start serves them.

With KIBITZ_STRICT=1 (as `.ci/run` sets it) a skipped test fails instead, with its reason:
a test that skips because a peer, the browser or a compiled kernel is missing proves
nothing, and CI must not go green on a machine where the real parts did not run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from packages import EXAMPLE_PLUGIN, add_to_path, pip_install

from kibitz.engines import load_plugins
from kibitz.server.config import ServerConfig
from kibitz.server.embedded import BackgroundServer


def pytest_configure(config: pytest.Config) -> None:
    keep_subprocess_temporaries(config)
    target = Path(tempfile.mkdtemp(prefix="kibitz-test-plugins-"))
    config.add_cleanup(lambda: shutil.rmtree(target, ignore_errors=True))
    pip_install(EXAMPLE_PLUGIN, target)
    add_to_path(target)
    problems = load_plugins()
    assert not problems, problems
    # no bear-off database but those tests build: backgammon's estimate (expectimax's
    # Bearoff=auto) is then the same whatever this machine has cached
    os.environ["KIBITZ_BEAROFF_DIR"] = str(target / "no-bearoff")


SUBPROCESS_TMPDIR = "KIBITZ_TEST_TMPDIR"


def keep_subprocess_temporaries(config: pytest.Config) -> None:
    """Point every subprocess's temporary files (TMPDIR) into one folder, removed when the
    run ends: the servers, clusters and matches a test kills on purpose cannot remove theirs.
    xdist's workers inherit the folder (nested folders would make Ray's socket paths longer
    than AF_UNIX allows)."""
    if os.environ.get(SUBPROCESS_TMPDIR):
        return
    folder = tempfile.mkdtemp(prefix="kibitz-tmp-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ[SUBPROCESS_TMPDIR] = os.environ["TMPDIR"] = folder


STRICT = os.environ.get("KIBITZ_STRICT") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    fail_if_skipped_in_strict_mode(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    outcome = yield
    fail_if_skipped_in_strict_mode(outcome.get_result())


def fail_if_skipped_in_strict_mode(report: pytest.TestReport | pytest.CollectReport) -> None:
    if STRICT and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"KIBITZ_STRICT=1: this test may not skip here ({reason})"


TEST_CONFIG = ServerConfig(
    host="127.0.0.1", port=0, max_sessions=8, max_searches=4, idle_timeout=0, info_interval=0.05
)


@pytest.fixture(scope="session")
def server() -> Iterator[BackgroundServer]:
    running = BackgroundServer(TEST_CONFIG)
    yield running
    running.stop()


@pytest.fixture
def make_server():
    """Start servers with custom limits; they are stopped after the test."""
    started: list[BackgroundServer] = []

    def start(**changes) -> BackgroundServer:
        running = BackgroundServer(replace(TEST_CONFIG, **changes))
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()
