"""The server's one error model: a gRPC status code plus a message a person can act on."""

from __future__ import annotations

import grpc

MESSAGE_LIMIT = 1000
"""Characters an error message has at most (bad input is quoted shorter: `quoted`)."""


class ServiceError(Exception):
    """Raised anywhere in request handling; the service turns it into a gRPC status."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        if len(message) > MESSAGE_LIMIT:  # never near gRPC's 8 KB metadata limit
            message = message[:MESSAGE_LIMIT] + "…"
        super().__init__(message)
        self.code = code
        self.message = message


def invalid(message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, message)
