"""The gRPC service: validation, sessions, worker processes, limits, health
(docs/architecture.md, "A search request, end to end")."""
