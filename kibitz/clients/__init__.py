"""Clients of the service: the Python library (async and sync) and the `kibitz` CLI.

Searches take `Limits` and answer typed values (`Info`, `Result`, `Score`, ...), defined in
kibitz/clients/values.py, with the enums `ScoreKind`, `Bound` and `StopReason` of
kibitz/vocabulary.py (re-exported here: they are part of the client's API); the raw protobuf
messages stay reachable (`Info.proto`, `Result.proto`, `Client.stub`).
"""

from kibitz.clients.client import (
    Client,
    DeadlineExceeded,
    FailedPrecondition,
    InvalidArgument,
    KibitzError,
    NotFound,
    ResourceExhausted,
    SearchStream,
    ServerUnavailable,
    Session,
    Unauthenticated,
)
from kibitz.clients.sync import SyncClient, SyncSearch, SyncSession
from kibitz.clients.values import GameOver, Info, Limits, Result, RootMove, Score
from kibitz.vocabulary import Bound, ScoreKind, StopReason

__all__ = [
    "Bound",
    "Client",
    "DeadlineExceeded",
    "FailedPrecondition",
    "GameOver",
    "Info",
    "InvalidArgument",
    "KibitzError",
    "Limits",
    "NotFound",
    "ResourceExhausted",
    "Result",
    "RootMove",
    "Score",
    "ScoreKind",
    "SearchStream",
    "ServerUnavailable",
    "Session",
    "StopReason",
    "SyncClient",
    "SyncSearch",
    "SyncSession",
    "Unauthenticated",
]
