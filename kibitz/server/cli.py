"""`kibitz serve`: the server's own command, its flags made from ServerConfig's settings
(kibitz/server/config.py). kibitz/cli.py registers it with `add_commands`; the server itself
is imported only when the command runs."""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys

from kibitz import argtypes
from kibitz.server.config import ServerConfig, add_flags, config_from, given_flags

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
    add_cluster_command(commands)


CLUSTER_PORT = 50050
CLUSTER_LEAVES_OUT = ("host", "port", "tls_cert", "tls_key")
"""Settings the cluster sets for its servers (loopback, free ports) or keeps at the proxy
(TLS: docs/scale-out.md)."""


def add_cluster_command(commands: argparse._SubParsersAction) -> None:
    """Register `kibitz cluster`."""
    cluster = commands.add_parser(
        "cluster",
        help="run several servers behind nginx (sessions pinned to their server)",
        description="Run N kibitz servers on loopback ports and nginx in front of them, in "
        "the foreground, until SIGTERM or Ctrl-C. Every call about a session reaches the "
        "server that holds it (the x-kibitz-session header, hashed consistently); other calls "
        "spread over the servers. Needs Debian's nginx (scripts/peers.sh installs it). The "
        "server flags below are given to every server; docs/scale-out.md explains the rest.",
    )
    cluster.add_argument(
        "--servers", type=argtypes.positive_int, default=2, metavar="N", help="servers (default 2)"
    )
    cluster.add_argument(
        "--host", default="127.0.0.1", help="address nginx binds (default 127.0.0.1)"
    )
    cluster.add_argument(
        "--port",
        type=argtypes.port,
        default=CLUSTER_PORT,
        help=f"port nginx listens on (default {CLUSTER_PORT}; 0 = any free one)",
    )
    cluster.add_argument("--nginx", metavar="PROGRAM", help="the nginx program (default: nginx)")
    cluster.add_argument(
        "--print-config",
        metavar="HOST:PORT,...",
        type=_addresses,
        help="only print the nginx configuration for these servers (nginx on --host:--port; "
        "for /etc/nginx/conf.d/, see docs/scale-out.md) and exit",
    )
    cluster.add_argument(
        "--config-dir",
        metavar="DIR",
        help="write nginx's configuration, pid and temporary files here and keep them "
        "(default: a temporary directory, removed at the end)",
    )
    add_flags(cluster, leave_out=CLUSTER_LEAVES_OUT)
    cluster.set_defaults(handler=cmd_cluster)


def _addresses(text: str) -> list[str]:
    addresses = [part.strip() for part in text.split(",") if part.strip()]
    for address in addresses:
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise argparse.ArgumentTypeError(f"{address!r} is not HOST:PORT")
    if not addresses:
        raise argparse.ArgumentTypeError("no server given")
    return addresses


def cmd_cluster(args: argparse.Namespace) -> int:
    import shutil
    from pathlib import Path

    from kibitz.server import cluster, nginx

    max_search_time = config_from(args).max_search_time
    if args.print_config:
        listen = f"{args.host}:{args.port}"
        print(nginx.site_config(listen, args.print_config, max_search_time), end="")
        return 0
    program = nginx.find_nginx(args.nginx)
    if program is None:
        print(
            f"kibitz: no nginx program {args.nginx or 'on PATH'}; install Debian's nginx "
            "(apt install nginx, or scripts/peers.sh) or give --nginx",
            file=sys.stderr,
        )
        return EXIT_ERROR
    directory = Path(args.config_dir) if args.config_dir else cluster.temporary_directory()
    running = cluster.Cluster(
        servers=args.servers,
        host=args.host,
        port=args.port,
        serve_flags=given_flags(args, CLUSTER_LEAVES_OUT),
        max_search_time=max_search_time,
        nginx_program=program,
        directory=directory,
    )
    try:
        return cluster.run(running)
    finally:
        if not args.config_dir:
            shutil.rmtree(directory, ignore_errors=True)


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
