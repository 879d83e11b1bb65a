"""The `kibitz` command on a network, run for real in subprocesses: TLS and tokens from flags
and from the environment, `kibitz sessions`, SIGTERM closing a command's session, the line a
queued search prints, and `kibitz serve` refusing bad credential files in one line."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator

import pytest
from credentials import TOKENS, self_signed, token_file
from servers import KIBITZ, ServerProcess

from kibitz.clients import SyncClient
from kibitz.server.cli import serve_banner

X_WINS_AT_C3 = "xx./oo./... x"  # x to move; c3 wins at once


@pytest.fixture(scope="module")
def credentials(tmp_path_factory):
    directory = tmp_path_factory.mktemp("credentials")
    return self_signed(directory), token_file(directory)


@pytest.fixture(scope="module")
def secure(credentials) -> Iterator[ServerProcess]:
    """A `kibitz serve` with TLS and tokens."""
    certificate, tokens = credentials
    flags = ("--tls-cert", str(certificate.cert), "--tls-key", str(certificate.key))
    with ServerProcess(*flags, "--auth-tokens", str(tokens)) as server:
        yield server


def environment(**variables: str) -> dict[str, str]:
    """This process's environment without KIBITZ_* variables, plus `variables`."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("KIBITZ_")}
    return {**env, **variables}


def kibitz(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*KIBITZ, *args],
        capture_output=True,
        text=True,
        env=env if env is not None else environment(),
        timeout=120,
    )


def identity(server: ServerProcess, credentials, name: str) -> dict[str, str]:
    """The environment of a kibitz command that talks to `server` as token `name`."""
    return environment(
        KIBITZ_SERVER=server.address,
        KIBITZ_TLS_CA=str(credentials[0].cert),
        KIBITZ_TOKEN=TOKENS[name],
    )


def client_as(server: ServerProcess, credentials, name: str) -> SyncClient:
    return SyncClient(server.address, tls_ca=credentials[0].cert, token=TOKENS[name])


def until(condition: Callable[[], bool], what: str) -> None:
    """Poll `condition` until it holds (another process's progress has no event to wait
    on); fail after a minute."""
    deadline = time.monotonic() + 60
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting for {what}")
        time.sleep(0.02)


# ---------------------------------------------------------------------------- TLS, tokens


def test_tls_ca_and_token_from_the_environment(secure, credentials):
    env = identity(secure, credentials, "alice")
    run = kibitz("games", env=env)
    assert run.returncode == 0, run.stderr
    assert re.search(r"^connect4\s", run.stdout, re.MULTILINE)
    run = kibitz("analyse", "tictactoe", X_WINS_AT_C3, "--depth", "2", env=env)
    assert run.returncode == 0, run.stderr
    assert re.search(r"^best move c3\s", run.stdout, re.MULTILINE)


def test_tls_ca_and_token_flags_before_or_after_the_command(secure, credentials):
    flags = ("--server", secure.address, "--tls-ca", str(credentials[0].cert))
    flags += ("--token", TOKENS["alice"])
    for args in ((*flags, "engines"), ("engines", *flags)):
        run = kibitz(*args)
        assert run.returncode == 0, run.stderr
        assert "alphabeta" in run.stdout


def test_a_missing_or_wrong_token_is_one_line_that_names_the_flag(secure, credentials):
    env = identity(secure, credentials, "alice")
    del env["KIBITZ_TOKEN"]
    run = kibitz("analyse", "tictactoe", "--depth", "1", env=env)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("kibitz: ")
    assert "requires a token" in run.stderr
    assert "--token" in run.stderr and "KIBITZ_TOKEN" in run.stderr
    run = kibitz("games", "--token", "mallory-0123456789abcdef", env=env)
    assert run.returncode == 1 and run.stderr.count("\n") == 1
    assert "does not accept this token" in run.stderr and "--token" in run.stderr


def test_tls_problems_are_one_line(secure, credentials, tmp_path):
    env = identity(secure, credentials, "alice")
    del env["KIBITZ_TLS_CA"]
    run = kibitz("games", env=env)  # a plain client at a TLS server
    assert run.returncode == 3 and run.stderr.count("\n") == 1
    assert "--tls-ca" in run.stderr and "KIBITZ_TLS_CA" in run.stderr
    run = kibitz("games", "--tls-ca", str(tmp_path / "nothing.pem"), env=env)
    assert run.returncode == 1 and run.stderr.count("\n") == 1
    assert run.stderr.startswith("kibitz: cannot read the TLS CA file ")


# ---------------------------------------------------------------------------- sessions


def test_sessions_lists_and_closes_the_callers_sessions(secure, credentials):
    carol = identity(secure, credentials, "carol")
    with client_as(secure, credentials, "carol") as client:
        first = client.open("connect4")
        second = client.open("tictactoe")

        run = kibitz("sessions", env=carol)
        assert run.returncode == 0, run.stderr
        header, *rows = run.stdout.splitlines()
        assert header.split() == ["id", "game", "engine", "searching", "searches", "idle", "owner"]
        assert [row.split()[:5] for row in rows] == [
            [first.id, "connect4", "alphabeta", "no", "0"],
            [second.id, "tictactoe", "alphabeta", "no", "0"],
        ]
        assert all(re.fullmatch(r"\d+s", row.split()[5]) for row in rows)
        assert all(row.split()[6] == "carol" for row in rows)
        as_json = kibitz("sessions", "--json", env=carol)
        assert re.findall(r'"id": "(\w+)"', as_json.stdout) == [first.id, second.id]

        other = kibitz("sessions", env=identity(secure, credentials, "frank"))
        assert other.returncode == 0 and other.stdout == "no open sessions\n"
        stolen = kibitz("sessions", "close", first.id, env=identity(secure, credentials, "frank"))
        assert stolen.returncode == 1 and "no session" in stolen.stderr

        run = kibitz("sessions", "close", first.id, env=carol)
        assert run.returncode == 0 and run.stdout == f"closed {first.id}\n"
        assert [s.id for s in client.sessions()] == [second.id]
        again = kibitz("sessions", "close", first.id, env=carol)
        assert again.returncode == 1 and again.stderr.count("\n") == 1
        assert "no session" in again.stderr

        third = client.open("nim")
        run = kibitz("sessions", "close", "--all", env=carol)
        assert run.returncode == 0, run.stderr
        assert run.stdout.splitlines() == [f"closed {second.id}", f"closed {third.id}"]
        assert client.sessions() == []
        run = kibitz("sessions", "close", "--all", env=carol)
        assert run.returncode == 0 and run.stdout == "no open sessions\n"


def test_sessions_close_wants_an_id_or_all(secure, credentials):
    run = kibitz("sessions", "close", env=identity(secure, credentials, "carol"))
    assert run.returncode == 2 and "one of the arguments id --all is required" in run.stderr


# ---------------------------------------------------------------------------- SIGTERM


def test_sigterm_stops_an_analysis_prints_its_result_and_closes_its_session(secure, credentials):
    analyse = subprocess.Popen(
        [*KIBITZ, "analyse", "connect4", "--infinite"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=identity(secure, credentials, "dave"),
    )
    with client_as(secure, credentials, "dave") as client:
        assert analyse.stdout.readline().startswith("depth")  # the search is running
        assert [s.searching for s in client.sessions()] == [True]
        analyse.send_signal(signal.SIGTERM)
        out, err = analyse.communicate(timeout=60)
        assert analyse.returncode == 143, err
        assert re.search(r"^best move [1-7] .*\(stopped\)$", out, re.MULTILINE)
        assert "Traceback" not in err and "terminated" in err
        assert client.sessions() == []  # closed, not left to the idle timeout


def test_sigterm_closes_the_session_of_a_game(secure, credentials):
    play = subprocess.Popen(
        [*KIBITZ, "play", "tictactoe", "--depth", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=identity(secure, credentials, "erin"),
    )
    with client_as(secure, credentials, "erin") as client:
        shown = ""
        while "your move" not in shown:  # the session is open, the prompt waits for us
            character = play.stdout.read(1)
            assert character, f"play ended early: {shown}"
            shown += character
        assert len(client.sessions()) == 1
        play.send_signal(signal.SIGTERM)
        _, err = play.communicate(timeout=60)
        assert play.returncode == 143, err
        assert err == "kibitz: terminated\n"
        assert client.sessions() == []


# ---------------------------------------------------------------------------- the queue


def test_a_queued_search_says_how_long_it_waited():
    with ServerProcess("--max-searches", "1") as server, SyncClient(server.address) as client:
        busy = client.open("connect4")
        occupying = busy.search(infinite=True)
        next(iter(occupying))  # it holds the only search slot
        command = [*KIBITZ, "--server", server.address, "analyse", "tictactoe", "--depth", "2"]
        analyse = subprocess.Popen(
            [*command, "--priority", "5"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(),
        )
        # the same host, so the same owner: its session shows as searching once it waits
        until(
            lambda: any(s.searching for s in client.sessions() if s.id != busy.id),
            "the analysis to wait in the queue",
        )
        busy.stop()
        assert occupying.wait().stop_reason == "stopped"
        out, err = analyse.communicate(timeout=60)
        busy.close()
    assert analyse.returncode == 0, err
    first, *rest = out.splitlines()
    assert re.fullmatch(r"queued for \d+\.\d\ds \(every search slot was busy\)", first), first
    assert rest[0].startswith("depth  1") and any(line.startswith("best move") for line in rest)


def test_a_priority_outside_int32_is_refused_before_sending():
    run = kibitz("--server", "127.0.0.1:1", "analyse", "tictactoe", "--priority", str(2**31))
    assert run.returncode == 2 and "must be at most 2147483647" in run.stderr


# ---------------------------------------------------------------------------- serve


@pytest.mark.parametrize(
    ("flags", "complaint"),
    [
        (["--auth-tokens", "{missing}"], r"cannot read the token file \S+: No such file"),
        (["--auth-tokens", "{short}"], r"line 1: the token of alice is shorter than 16"),
        (["--tls-cert", "{cert}"], r"TLS needs both --tls-cert and --tls-key"),
        (["--tls-cert", "{cert}", "--tls-key", "{missing}"], r"cannot read \S+: No such file"),
        (["--tls-cert", "{short}", "--tls-key", "{short}"], r"short.txt holds no PEM certificate"),
    ],
)
def test_serve_refuses_bad_credential_files_in_one_line(tmp_path, credentials, flags, complaint):
    short = tmp_path / "short.txt"
    short.write_text("alice tooshort\n")
    paths = {"missing": tmp_path / "missing", "short": short, "cert": credentials[0].cert}
    run = kibitz("serve", "--port", "0", *(flag.format(**paths) for flag in flags))
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("kibitz: "), run.stderr
    assert re.search(complaint, run.stderr), run.stderr


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("carol café-0123456789abcdef", "the token of carol has a character no client can send"),
        ("carol tab\x01-0123456789abcdef", "the token of carol has a character no client can"),
        ("carol del\x7f-0123456789abcdef", "the token of carol has a character no client can"),
        ("carol \udcff-0123456789abcdef", "not UTF-8 text"),
    ],
)
def test_serve_refuses_a_token_no_client_can_send_naming_its_line(tmp_path, line, complaint):
    tokens = tmp_path / "tokens.txt"
    text = f"# name token\nalice alice-0123456789abcdef\n{line}\n"
    tokens.write_bytes(text.encode("utf-8", "surrogateescape"))
    run = kibitz("serve", "--port", "0", "--auth-tokens", str(tokens))
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("kibitz: "), run.stderr
    assert f"{tokens}, line 3: {complaint}" in run.stderr, run.stderr


def test_the_serve_banner_hints_at_tls_and_tokens(secure, credentials):
    until(lambda: any("--token TOKEN" in line for line in secure.log), "the banner")
    commands = [line for line in secure.log if line.startswith("  ")]
    assert len(commands) == 3
    cert = str(credentials[0].cert)
    assert all(f" --tls-ca {cert} --token TOKEN " in line for line in commands)
    assert any(
        line.startswith(f"TOKEN: one of the tokens in {credentials[1]}") for line in secure.log
    )

    plain = serve_banner("127.0.0.1", 50051)
    assert "--tls-ca" not in plain and "--token" not in plain and "TOKEN" not in plain
    banner = serve_banner("0.0.0.0", 6000, tls_cert="my cert.pem", auth_tokens="tokens.txt")
    assert banner.startswith("kibitz is listening on 0.0.0.0:6000 with TLS and tokens ")
    assert re.search(
        r"^  \S*kibitz --server 127.0.0.1:6000 --tls-ca 'my cert.pem' --token TOKEN games$",
        banner,
        re.MULTILINE,
    )
    only_tls = serve_banner("127.0.0.1", 50051, tls_cert="cert.pem")
    assert "with TLS (" in only_tls and "--token" not in only_tls
