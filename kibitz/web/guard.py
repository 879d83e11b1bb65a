"""The gateway's trust boundary (docs/web.md, "Who may use the page"): an ASGI middleware
in front of every route.

- **Host**: a request is answered only when its `Host` header names this gateway: the
  address it listens on (or the one the connection arrived at), `localhost`, `127.0.0.1`,
  `[::1]`, with the port it listens on or none, or a name given with `--allow-host`. A page
  on another site that rebinds its own name to this machine's address (DNS rebinding)
  sends its own name, so it gets 400 and never reads an answer.
- **Requests that change something** (every method but GET and HEAD) are taken only from
  the gateway's own page: not when the browser says the request comes from elsewhere
  (`Sec-Fetch-Site` other than `same-origin` or `none`, or an `Origin` other than this
  gateway's), and only with a JSON body (`Content-Type: application/json`), which a page on
  another site cannot send without asking first (a CORS preflight, which this gateway never
  grants). Those get 403; tools that send no `Origin` (curl, httpx) are not affected.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("", "0.0.0.0", "::")
SAFE_METHODS = ("GET", "HEAD")
SAME_SITE = ("same-origin", "none")


def split_host(value: str) -> tuple[str, int | None]:
    """`name[:port]` or `[v6][:port]` as (name lower-cased without brackets, port or None);
    ValueError for a port that is not a number or a bracket left open."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise ValueError(value)
        port = rest[1:]
    elif value.count(":") == 1:
        name, port = value.split(":")
    else:
        name, port = value, ""
    if port and not port.isdigit():
        raise ValueError(value)
    return name, int(port) if port else None


def allowed_names(names: Iterable[str]) -> set[tuple[str, int | None]]:
    """The `--allow-host` values as (name, port or None); ValueError for a malformed one."""
    allowed = set()
    for value in names:
        try:
            name, port = split_host(value)
        except ValueError:
            name, port = "", None
        if not name or any(c.isspace() or c in "/@?#" for c in name):
            raise ValueError(f"--allow-host {value!r} is not a host name (NAME or NAME:PORT)")
        allowed.add((name, port))
    return allowed


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, brackets allowed) is this machine only."""
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Guard:
    """Refuses requests for another host (400) and cross-site or non-JSON requests that
    change something (403), as JSON errors of the gateway's shape, before any route runs.

    `host` is the address the gateway listens on; `allowed` the `--allow-host` names
    (allowed_names()), each with a port or None for any.
    """

    def __init__(
        self, app: ASGIApp, host: str, allowed: set[tuple[str, int | None]] | None = None
    ) -> None:
        self.app = app
        bound = host.strip("[]").lower()
        self.names = {*LOOPBACK_NAMES, *([] if bound in WILDCARDS else [bound])}
        self.extra = allowed or set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self.host_refusal(scope, headers) or self.write_refusal(scope, headers)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, code, message = refusal
        answer = JSONResponse({"error": message, "code": code}, status_code=status)
        await answer(scope, receive, send)

    def host_admitted(self, host: str, local: Any) -> bool:
        """Whether a `Host` header value names this gateway (`local`: the (address, port)
        the connection arrived at, or None)."""
        try:
            name, port = split_host(host)
        except ValueError:
            return False
        if (name, None) in self.extra or (name, port) in self.extra:
            return True
        local_name, local_port = local if local else (None, None)
        if port is not None and local_port is not None and port != local_port:
            return False
        return name in self.names or (local_name is not None and name == local_name.lower())

    def host_refusal(self, scope: Scope, headers: Headers) -> tuple[int, str, str] | None:
        host = headers.get("host", "")
        if self.host_admitted(host, scope.get("server")):
            return None
        return (
            400,
            "UNKNOWN_HOST",
            f"this kibitz web gateway does not answer for the host {host!r}: open it by the "
            "address it listens on (or localhost), or start `kibitz web` with "
            "--allow-host NAME to serve it under that name as well (docs/web.md)",
        )

    def write_refusal(self, scope: Scope, headers: Headers) -> tuple[int, str, str] | None:
        if scope["method"] in SAFE_METHODS:
            return None
        action = f"{scope['method']} {scope['path']}"
        fetch_site = headers.get("sec-fetch-site")
        if fetch_site is not None and fetch_site.lower() not in SAME_SITE:
            return (
                403,
                "CROSS_SITE",
                f"refused {action}: the browser says it comes from another site "
                f"(Sec-Fetch-Site: {fetch_site}); only the gateway's own page may change "
                "anything",
            )
        origin = headers.get("origin")
        own = f"{scope.get('scheme', 'http')}://{headers.get('host', '')}".lower()
        if origin is not None and origin.lower() != own:
            return (
                403,
                "CROSS_SITE",
                f"refused {action}: it comes from the page of {origin}, not from this "
                f"gateway's ({own}); only the gateway's own page may change anything",
            )
        if _has_body(headers) and _media_type(headers) != "application/json":
            sent = headers.get("content-type")
            return (
                403,
                "NOT_JSON",
                f"refused {action}: the body must be JSON, sent with Content-Type: "
                f"application/json ({f'not {sent!r}' if sent else 'it sent none'})",
            )
        return None


def _has_body(headers: Headers) -> bool:
    length = headers.get("content-length", "0").strip()
    return "transfer-encoding" in headers or "content-type" in headers or length not in ("", "0")


def _media_type(headers: Headers) -> str:
    return headers.get("content-type", "").split(";")[0].strip().lower()
