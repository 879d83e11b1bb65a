"""`kibitz serve`: the server's own command, its flags made from ServerConfig's settings
(kibitz/server/config.py). kibitz/cli.py registers it with `add_commands`; the server itself
is imported only when the command runs."""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys

from kibitz.server.config import ServerConfig, add_flags, config_from

EXIT_ERROR = 1


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register `kibitz serve` on the CLI's subcommands."""
    serve = commands.add_parser(
        "serve",
        help="run the engine server",
        description="Run the engine server. Its limits protect a server that others share; "
        "docs/production.md explains each.",
    )
    add_flags(serve)
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning"])
    serve.set_defaults(handler=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    from kibitz.server.app import serve

    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    config = config_from(args)
    listening = False

    def on_listening(host: str, port: int) -> None:
        nonlocal listening
        listening = True
        banner = serve_banner(host, port, tls_cert=config.tls_cert, auth_tokens=config.auth_tokens)
        print(banner, file=sys.stderr, flush=True)

    try:
        asyncio.run(serve(config, on_listening=on_listening))
    except OSError as exc:
        print(f"kibitz: cannot serve on {config.host}:{config.port}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except ValueError as exc:  # Server(...): a bad TLS, token or engine config file
        if listening:
            raise
        print(f"kibitz: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return 0


DEFAULT_ADDRESS = f"{ServerConfig.host}:{ServerConfig.port}"
"""Where a server listens by default, hence where clients look by default."""
_WILDCARDS = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "[::1]", "[::]": "[::1]"}


def serve_banner(
    host: str, port: int, *, tls_cert: str | None = None, auth_tokens: str | None = None
) -> str:
    """How to query a server listening on host:port: with `--server` unless it is the
    default address, `--tls-ca` when it speaks TLS and `--token` when it requires tokens."""
    address = f"{_WILDCARDS.get(host, host)}:{port}"
    command = _kibitz_command()
    if address != DEFAULT_ADDRESS:
        command += f" --server {address}"
    if tls_cert:
        command += f" --tls-ca {shlex.quote(tls_cert)}"
    if auth_tokens:
        command += " --token TOKEN"
    secured = " and ".join(
        what for what, used in (("TLS", tls_cert), ("tokens", auth_tokens)) if used
    )
    lines = [
        f"kibitz is listening on {host}:{port}"
        f"{f' with {secured}' if secured else ''} (Ctrl-C stops it). In another terminal:",
        f"  {command} games",
        f"  {command} analyse connect4 --moves 4453 --depth 12",
        f"  {command} play tictactoe",
    ]
    if auth_tokens:
        lines.append(
            f"TOKEN: one of the tokens in {auth_tokens} (or set KIBITZ_TOKEN and leave out "
            "--token)."
        )
    if tls_cert:
        lines.append(
            "--tls-ca: the certificate itself when it is self-signed, else the certificate of "
            "the CA that signed it (or set KIBITZ_TLS_CA)."
        )
    return "\n".join(lines)


def _kibitz_command() -> str:
    """How another terminal calls this kibitz: the script's path when it runs from a
    virtualenv that is not activated (e.g. .venv/bin/kibitz, as scripts/serve.sh runs it),
    else `kibitz`."""
    script = sys.argv[0]
    in_venv = sys.prefix != sys.base_prefix and os.environ.get("VIRTUAL_ENV") != sys.prefix
    if not in_venv or os.path.basename(script) != "kibitz":
        return "kibitz"
    script = os.path.abspath(script)
    if not script.startswith(os.path.abspath(sys.prefix) + os.sep):
        return "kibitz"  # e.g. a pipx shim on PATH
    relative = os.path.relpath(script)
    return script if relative.startswith("..") else relative
