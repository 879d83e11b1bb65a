"""nginx in front of several kibitz servers: the configuration that pins every session to
one server by its `x-kibitz-session` header (consistent hashing) and spreads the calls
without a session, as `kibitz cluster` runs it and docs/scale-out.md gives it to operators.

`site_config` is the operator's file (an `http`-level include, e.g. /etc/nginx/conf.d/
kibitz.conf); `main_config` wraps it into a whole nginx.conf for one unprivileged nginx in
a directory of its own (`kibitz cluster`)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

SESSION_HEADER = "x-kibitz-session"
"""The metadata that carries a session's id (kibitz.clients.client sends it)."""
TIMEOUT_MARGIN_S = 60
"""Seconds the proxy waits beyond the servers' --max-search-time for a silent call."""
DEBIAN_NGINX = "/usr/sbin/nginx"


def site_config(listen: str, servers: Sequence[str], max_search_time: float) -> str:
    """The `http`-level configuration: one upstream of `servers` (HOST:PORT) behind a
    plaintext gRPC listener on `listen` (HOST:PORT)."""
    timeout = f"{round(max_search_time) + TIMEOUT_MARGIN_S}s"
    upstreams = "\n".join(f"    server {each} max_fails=1 fail_timeout=10s;" for each in servers)
    header = "$http_" + SESSION_HEADER.replace("-", "_")
    return f"""\
# kibitz behind nginx: a session's calls all go to the server that holds it (docs/scale-out.md).
# Calls about a session carry its id in the x-kibitz-session header; the others carry none
# and get a random key, so they spread over the servers.
map {header} $kibitz_route {{
    ""      $request_id;
    default {header};
}}

upstream kibitz {{
    # Consistent hashing: when a server joins or leaves, only its own share of the
    # sessions moves. A call whose server is down goes to the next one on the ring, which
    # answers NOT_FOUND for the session (it lived on the server that is gone).
    hash $kibitz_route consistent;
{upstreams}
    # No `keepalive`: a kept connection to a server that died turns the next call on it
    # into a 502 that nginx cannot resend (it streams gRPC bodies, never buffers them);
    # a new connection to a dead server is refused at once and the call goes on.
}}

server {{
    listen {listen} http2;
    # Longer than the servers' --max-search-time ({max_search_time:g} s): an AnalyzeResult or
    # a Search between two Infos may be silent that long.
    grpc_read_timeout {timeout};
    grpc_send_timeout {timeout};
    client_max_body_size 4m;  # gRPC's own default message limit

    location / {{
        grpc_pass grpc://kibitz;
        # A call whose server fails goes to the next one, even when it was sent already
        # (gRPC calls are POSTs, which nginx would not resend): every kibitz call may be
        # made again elsewhere, where a session it names is simply NOT_FOUND.
        grpc_next_upstream error timeout non_idempotent;
        grpc_socket_keepalive on;
    }}
}}
"""


def main_config(site_file: str) -> str:
    """A whole nginx.conf for `nginx -p DIR -c DIR/nginx.conf`: in the foreground, one worker
    process, its pid and temporary files under DIR, errors on standard error, and the site
    configuration included."""
    return f"""\
# Written by kibitz cluster for one nginx of its own; the kibitz part is {site_file}.
daemon off;
worker_processes 1;
pid nginx.pid;
error_log stderr warn;

events {{
    worker_connections 4096;
}}

http {{
    access_log off;
    client_body_temp_path temp/body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
    include {site_file};
}}
"""


def find_nginx(given: str | None = None) -> str | None:
    """The nginx program: `given`, else the one on PATH, else Debian's; None if none."""
    if given:
        return given if Path(given).is_file() else shutil.which(given)
    found = shutil.which("nginx")
    if found:
        return found
    return DEBIAN_NGINX if Path(DEBIAN_NGINX).is_file() else None
