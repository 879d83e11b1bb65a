"""The web front end: `kibitz web` serves a page (static/) and an HTTP gateway (gateway.py)
that is a client of the gRPC service, like the CLI. See docs/web.md."""
