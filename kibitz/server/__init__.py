"""The gRPC service: sessions, worker processes, limits, health (DESIGN §4)."""
