"""The `kibitz` command: the one composition root. Each layer contributes its own commands
(`add_commands` of kibitz/server/cli.py, kibitz/clients/cli.py, kibitz/web/cli.py and
kibitz/match/cli.py); this module builds the parser with the flags every client shares and
runs the command (docs/architecture.md, "Layers")."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from kibitz import __version__
from kibitz.clients import cli as client_commands
from kibitz.clients.cli import EXIT_TERMINATED, Terminated
from kibitz.clients.client import default_address, default_tls_ca, default_token
from kibitz.match import cli as match_commands
from kibitz.server import cli as server_commands
from kibitz.web import cli as web_commands

CLIENT_FLAGS = ("--server", "--tls-ca", "--token")
"""Where every client command (the web page and the match runner too) finds its server."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kibitz",
        description="A networked game-engine service. Start a server with `kibitz serve`, "
        "then query it with the other commands.",
    )
    parser.add_argument(
        "--server",
        default=default_address(),
        metavar="HOST:PORT",
        help="server address (default: $KIBITZ_SERVER or 127.0.0.1:50051)",
    )
    parser.add_argument(
        "--tls-ca",
        default=default_tls_ca(),
        metavar="FILE",
        help="speak TLS, trusting the certificates in this PEM file: the server's own when it "
        "is self-signed, else its CA's (default: $KIBITZ_TLS_CA; without it, no TLS)",
    )
    parser.add_argument(
        "--token",
        default=default_token(),
        help="your token for a server that requires one (--auth-tokens) (default: "
        "$KIBITZ_TOKEN; prefer it: other users of this machine can see --token in the process "
        "list)",
    )
    parser.add_argument("--version", action="version", version=f"kibitz {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    anywhere = argparse.ArgumentParser(add_help=False)  # --server etc. after the command too
    for flag in CLIENT_FLAGS:
        anywhere.add_argument(flag, default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    server_commands.add_commands(commands)
    client_commands.add_commands(commands, parents=[anywhere])
    web_commands.add_commands(commands, parents=[anywhere])
    match_commands.add_commands(commands, parents=[anywhere])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.handler(args)
    except Terminated:  # SIGTERM, after the cleanup on the way here
        print("kibitz: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print("kibitz: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `kibitz games | head -1`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
