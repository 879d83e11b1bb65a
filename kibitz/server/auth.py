"""Who is calling: bearer tokens (`kibitz serve --auth-tokens FILE`), and the caller's
identity that sessions belong to (docs/production.md, "Tokens").

The token file has one `NAME TOKEN` pair a line (blank lines and `#` comments are skipped);
a token is printable ASCII, all a client can send in gRPC metadata.
A call to the engine service must carry `authorization: Bearer TOKEN` metadata (the scheme
in any case, as RFC 7235 has it, and blanks around the parts tolerated); health checking and
reflection stay open (reflection describes the API, no data).
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import grpc

SERVICE_PREFIX = "/kibitz.v1.EngineService/"
"""Methods whose calls need a token."""


class Tokens:
    """Token -> name, from a token file."""

    def __init__(self, names: dict[str, str]) -> None:
        self._names = names

    @classmethod
    def load(cls, path: str | Path) -> Tokens:
        """Read a token file; ValueError naming the file and line for anything malformed,
        a token a client cannot send included."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise ValueError(f"cannot read the token file {path}: {exc.strerror}") from None
        names: dict[str, str] = {}
        for number, raw in enumerate(data.split(b"\n"), start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"{path}, line {number}: not UTF-8 text") from None
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) != 2:
                raise ValueError(f"{path}, line {number}: expected 'NAME TOKEN'")
            name, token = fields
            if not sendable(token):
                raise ValueError(
                    f"{path}, line {number}: the token of {name} has a character no client "
                    "can send (gRPC metadata carries printable ASCII only)"
                )
            if len(token) < 16:
                raise ValueError(f"{path}, line {number}: the token of {name} is shorter than 16")
            if token in names:
                raise ValueError(f"{path}, line {number}: this token is also {names[token]}'s")
            names[token] = name
        if not names:
            raise ValueError(f"{path} holds no token")
        return cls(names)

    def name_for(self, metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
        """The name of the token in `authorization: Bearer TOKEN` metadata, if valid."""
        token = bearer_token(metadata)
        if token is None:
            return None
        for known, name in self._names.items():  # compare_digest: no timing side channel
            if hmac.compare_digest(known.encode(), token.encode()):
                return name
        return None


def sendable(token: str) -> bool:
    """Whether a client can send `token` in `authorization` metadata: gRPC metadata values
    are printable ASCII (and the file's blanks separate fields, so none is inside)."""
    return all("!" <= char <= "~" for char in token)


def bearer_token(metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    """The token of `authorization: Bearer TOKEN` metadata: the scheme in any case (RFC
    7235), blanks around and between the parts ignored; None if the call sent none."""
    given = next((value for key, value in metadata or () if key == "authorization"), None)
    if not isinstance(given, str):
        return None
    parts = given.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    return parts[1].strip()


def identity(context: grpc.aio.ServicerContext, tokens: Tokens | None) -> str:
    """Whom a call's sessions belong to: its token's name, or "host:ADDRESS" (the peer's
    address without the port) when the server requires no tokens."""
    if tokens is not None:
        return tokens.name_for(context.invocation_metadata()) or ""
    peer = context.peer()  # e.g. "ipv4:127.0.0.1:52818", "ipv6:[::1]:52818", "unix:..."
    kind, _, rest = peer.partition(":")
    host = rest.rsplit(":", 1)[0] if kind in ("ipv4", "ipv6") else rest
    return f"host:{host}"


class TokenInterceptor(grpc.aio.ServerInterceptor):
    """Answers UNAUTHENTICATED to engine-service calls without a valid token."""

    def __init__(self, tokens: Tokens) -> None:
        self.tokens = tokens

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(details)
        if handler is None or not details.method.startswith(SERVICE_PREFIX):
            return handler
        if self.tokens.name_for(details.invocation_metadata) is not None:
            return handler
        sent = bearer_token(details.invocation_metadata) is not None
        return _refusal(handler, REFUSED if sent else MISSING)


MISSING = (
    "this server requires a token: send 'authorization: Bearer TOKEN' metadata "
    "(kibitz --token TOKEN, or KIBITZ_TOKEN)"
)
"""The answer to a call without a token."""
REFUSED = (
    "the token was not accepted: this server does not know it (check kibitz --token TOKEN, "
    "or KIBITZ_TOKEN)"
)
"""The answer to a call whose token the server does not know."""


def _refusal(handler: grpc.RpcMethodHandler, message: str) -> grpc.RpcMethodHandler:
    """A handler of the same kind as `handler` that refuses the call with `message`."""

    async def refuse(request: object, context: grpc.aio.ServicerContext) -> None:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    async def refuse_stream(request: object, context: grpc.aio.ServicerContext):
        await refuse(request, context)
        yield  # pragma: no cover - never reached: abort raises

    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(
            refuse_stream, handler.request_deserializer, handler.response_serializer
        )
    return grpc.unary_unary_rpc_method_handler(
        refuse, handler.request_deserializer, handler.response_serializer
    )
