"""Clients of the service: the Python library (async and sync) and the `kibitz` CLI."""

from kibitz.clients.client import (
    Client,
    FailedPrecondition,
    InvalidArgument,
    KibitzError,
    NotFound,
    RemoteSession,
    ResourceExhausted,
    SearchStream,
    ServerUnavailable,
    make_limits,
)
from kibitz.clients.render import score_text
from kibitz.clients.sync import SyncClient, SyncSearch, SyncSession

__all__ = [
    "Client",
    "FailedPrecondition",
    "InvalidArgument",
    "KibitzError",
    "NotFound",
    "RemoteSession",
    "ResourceExhausted",
    "SearchStream",
    "ServerUnavailable",
    "SyncClient",
    "SyncSearch",
    "SyncSession",
    "make_limits",
    "score_text",
]
