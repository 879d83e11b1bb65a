"""The settings of one server: the `kibitz serve` flags (docs/production.md explains what
each limit protects)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def default_memory_mb() -> int:
    """Half of the machine's memory, in MB (4096 where it cannot be read)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4096
    return max(256, total // 2 // (1 << 20))


@dataclass
class ServerConfig:
    """Tunable limits of one server (the `kibitz serve` flags)."""

    host: str = "127.0.0.1"
    port: int = 50051
    max_sessions: int = 16
    max_sessions_per_client: int = 8
    """Open sessions one client may hold (clients: token names, else hosts)."""
    max_searches: int = field(default_factory=lambda: os.cpu_count() or 1)
    """Searches that run at once; more wait in the queue."""
    max_queued: int = 64
    """Searches that may wait for a slot; more are refused with RESOURCE_EXHAUSTED."""
    max_memory_mb: int = field(default_factory=default_memory_mb)
    """What all sessions' and analyses' tables and trees may take together (engines declare
    their need from their options), plus a fixed share per worker process."""
    max_search_time: float = 3600.0
    """Seconds after which a search without a time limit of its own is stopped."""
    idle_timeout: float = 600.0
    """Seconds before an idle session is closed; 0 = never."""
    info_interval: float = 1.0
    """Seconds between periodic Info messages during a long iteration."""
    default_move_time_ms: int = 1000
    """Move time of a search that sets no limit at all."""
    deadline_margin: float = 0.25
    """Seconds past a search's time limit after which the server itself stops it."""
    kill_grace: float = 2.0
    """Seconds after that stop before a worker that has not answered is killed."""
    heartbeat_timeout: float = 5.0
    """Seconds of silence after which a busy worker counts as frozen and is killed."""
    spare_workers: int = 1
    """Idle worker processes kept started ahead of need (for new sessions and analyses)."""
    spare_idle_timeout: float = 300.0
    """Seconds after which an idle spare worker beyond `spare_workers` is stopped."""
    tls_cert: str | None = None
    """PEM certificate chain: with `tls_key`, the server speaks TLS."""
    tls_key: str | None = None
    auth_tokens: str | None = None
    """A token file (`NAME TOKEN` lines): every engine-service call then needs a token."""
    engine_config: str | None = None
    """A TOML file naming external UCI engines to host (`kibitz serve --config`; each is
    started once at server start to learn its options)."""
