"""`kibitz web`: the page and its HTTP gateway, a client of `--server` like the other
commands. kibitz/cli.py registers it with `add_commands`; the gateway (Starlette, uvicorn) is
imported only when the command runs."""

from __future__ import annotations

import argparse

from kibitz import argtypes


def add_commands(commands: argparse._SubParsersAction, parents: list) -> None:
    """Register `kibitz web` on the CLI's subcommands (`parents`: the client flags)."""
    web = commands.add_parser(
        "web",
        parents=parents,
        help="serve the web page: analyse and play every game in a browser",
        description="Serve a web page and its HTTP gateway (a client of --server, like the "
        "other commands): analyse positions, play against engines, watch engine against "
        "engine. See docs/web.md.",
    )
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    web.add_argument(
        "--port", type=argtypes.port, default=8080, help="port (default 8080; 0 = any)"
    )
    web.add_argument(
        "--also-server",
        action="append",
        metavar="HOST:PORT",
        help="another kibitz server the page may use, e.g. for engine against engine across "
        "two servers (repeatable; same --tls-ca and --token)",
    )
    web.add_argument(
        "--match",
        metavar="DIR",
        help="a match's --out directory (kibitz match): the page shows its games as they are "
        "played",
    )
    web.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="a host name the page may also be opened by, e.g. behind a proxy or by the "
        "machine's name (repeatable; NAME or NAME:PORT; default: the --host address, "
        "localhost, 127.0.0.1 and [::1] only)",
    )
    web.set_defaults(handler=cmd_web)


def cmd_web(args: argparse.Namespace) -> int:
    from kibitz.web.gateway import run_web

    addresses = [args.server, *(args.also_server or ())]
    return run_web(
        addresses,
        args.host,
        args.port,
        tls_ca=args.tls_ca,
        token=args.token,
        match_dir=args.match,
        allowed_hosts=args.allow_host or (),
    )
