"""`kibitz serve`'s flags are made from ServerConfig, where each setting is declared once:
its flag, its default and its help (kibitz/server/config.py)."""

from __future__ import annotations

import argparse

import pytest

from kibitz.cli import build_parser
from kibitz.clients.client import DEFAULT_ADDRESS
from kibitz.server import cli as server_cli
from kibitz.server.config import FLAGS, ServerConfig, default_memory_mb


def serve_parser() -> argparse.ArgumentParser:
    (commands,) = [
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    return commands.choices["serve"]


def serve(*flags: str) -> ServerConfig:
    return server_cli.config_from(build_parser().parse_args(["serve", *flags]))


def test_no_flags_is_the_default_config():
    assert serve() == ServerConfig()


def test_each_flag_sets_its_setting_in_the_settings_unit():
    config = serve(
        *("--host", "0.0.0.0", "--port", "0", "--config", "engines.toml"),
        *("--max-memory", "512", "--max-searches", "3", "--max-queued", "0"),
        *("--default-movetime", "0.25", "--idle-timeout", "0", "--tls-cert", "cert.pem"),
        *("--worker-nice", "5", "--move-overhead", "0.05"),
    )
    assert config == ServerConfig(
        host="0.0.0.0",
        port=0,
        engine_config="engines.toml",
        max_memory_mb=512,
        max_searches=3,
        max_queued=0,
        default_move_time_ms=250,  # the flag in seconds, the setting in milliseconds
        idle_timeout=0.0,
        tls_cert="cert.pem",
        worker_nice=5,
        move_overhead_ms=50,
    )


def test_the_help_shows_each_default_from_the_config():
    text = " ".join(serve_parser().format_help().split())
    for phrase in [
        "--port PORT port (default 50051; 0 = any)",
        "--max-sessions N open sessions (default 16)",
        "--max-search-time S stop a search",
        "solve) after S seconds, so that a forgotten one cannot hold a search slot (default 3600)",
        "--default-movetime S move time of a search that sets no limit (default 1)",
        f"half of this machine's memory, {default_memory_mb()} MB)",
        "--config FILE host the external UCI engines",
    ]:
        assert phrase in text


def test_no_help_writes_a_default_by_hand():
    """A setting with a fixed default shows it through `{default}`, so that the help
    follows the config when a default changes."""
    written = [
        flag.name
        for setting, flag in FLAGS
        if setting.default is not None and "{default}" not in flag.help
    ]
    assert written == ["--max-searches"]  # "default: number of CPUs"


def test_a_bad_value_is_one_line_naming_the_flag(capsys):
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["serve", "--max-queued", "-1"])
    assert exited.value.code == 2
    assert "argument --max-queued: must be at least 0, not -1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--worker-nice", "20"])
    assert "argument --worker-nice: must be at most 19, not 20" in capsys.readouterr().err


def test_the_banner_leaves_out_the_address_clients_look_at_first():
    assert server_cli.DEFAULT_ADDRESS == DEFAULT_ADDRESS
