"""The dependency rules of docs/architecture.md ("Layers"), checked on every import.

Dependencies point one way: clients -> protocol; server -> engines -> games. The server sees
engines and games only through the names their packages export (`__all__`), so that a new
engine or game never changes a file of the server.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kibitz.engines
import kibitz.games

PACKAGE = Path(kibitz.__file__).resolve().parent

ALLOWED = {
    "games": {"kibitz.games", "kibitz.registry"},
    "engines": {"kibitz.engines", "kibitz.games", "kibitz.registry"},
    "server": {"kibitz.server", "kibitz.v1", "kibitz.engines", "kibitz.games"},
    "clients": {"kibitz.clients", "kibitz.v1"},
    "match": {"kibitz.match", "kibitz.clients", "kibitz.games"},
    "web": {"kibitz.web", "kibitz.clients", "kibitz.v1"},
}
"""The kibitz modules each layer may import (a module or its submodules)."""
PUBLIC_ONLY = {
    "server": {"kibitz.engines": kibitz.engines, "kibitz.games": kibitz.games},
    "match": {"kibitz.games": kibitz.games},
}
"""Packages a layer may use only through their exported names."""
EXCEPTIONS = {
    ("clients", "cli.py", "kibitz.server.app"),
    ("clients", "cli.py", "kibitz.server.config"),
    ("clients", "cli.py", "kibitz.match"),
    ("clients", "cli.py", "kibitz.web.gateway"),  # `kibitz web` starts the page's gateway
}
"""`kibitz serve` starts the server: the one place a client module imports it; and the CLI
registers `kibitz match` (the match runner, a client of its own: kibitz/match)."""


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, imported names) for every import of a kibitz module in `path`."""
    tree = ast.parse(path.read_text())
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            found.append((module, [alias.name for alias in node.names]))
    return [(module, names) for module, names in found if module.split(".")[0] == "kibitz"]


def within(module: str, allowed: str) -> bool:
    return module == allowed or module.startswith(allowed + ".")


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_what_it_may(layer):
    violations = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for module, names in imports(path):
            if (layer, path.name, module) in EXCEPTIONS:
                continue
            if module == "kibitz" and names == ["__version__"]:
                continue
            if not any(
                within(module, allowed) and allowed != "kibitz" for allowed in ALLOWED[layer]
            ):
                violations.append(f"{path.relative_to(PACKAGE)} imports {module}")
                continue
            public = PUBLIC_ONLY.get(layer, {})
            for package, exported in public.items():
                if within(module, package) and module != package:
                    violations.append(f"{path.relative_to(PACKAGE)} imports {module}")
                elif module == package:
                    hidden = set(names) - set(exported.__all__)
                    if hidden:
                        violations.append(
                            f"{path.relative_to(PACKAGE)} imports {hidden} from {module}"
                        )
    assert not violations, "\n".join(violations)
