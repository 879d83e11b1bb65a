"""The match runner: engines anywhere on the network play each other under the runner's own
rules and clocks (docs/match.md). A client of the service: it talks to servers only through
kibitz.clients, and keeps its own copy of the rules (kibitz.games).

`kibitz match` is kibitz/match/cli.py; the Python API is `Match` and `MatchSettings`
(kibitz/match/runner.py).
"""
