"""The dependency rules of docs/architecture.md ("Layers"), checked on every import.

Dependencies point one way: clients -> protocol; server -> engines -> games; every layer may
use the shared leaves (kibitz/vocabulary.py, kibitz/argtypes.py), which use nothing. The
server sees engines and games only through the names their packages export (`__all__`), so
that a new engine or game never changes a file of the server. No layer has an exception: the
`kibitz` command is put together above them all, in kibitz/cli.py, from each layer's own
command module.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

import kibitz.engines
import kibitz.games

PACKAGE = Path(kibitz.__file__).resolve().parent

SHARED = {"kibitz.vocabulary", "kibitz.argtypes"}
"""Leaves every layer may import: they import nothing from kibitz themselves."""
ALLOWED = {
    "games": {"kibitz.games", "kibitz.registry"} | SHARED,
    "engines": {"kibitz.engines", "kibitz.games", "kibitz.registry"} | SHARED,
    "server": {"kibitz.server", "kibitz.v1", "kibitz.engines", "kibitz.games"} | SHARED,
    "clients": {"kibitz.clients", "kibitz.v1"} | SHARED,
    "match": {"kibitz.match", "kibitz.clients", "kibitz.games"} | SHARED,
    "web": {"kibitz.web", "kibitz.clients", "kibitz.v1"} | SHARED,
}
"""The kibitz modules each layer may import (a module or its submodules)."""
PUBLIC_ONLY = {
    "server": {"kibitz.engines": kibitz.engines, "kibitz.games": kibitz.games},
    "match": {"kibitz.games": kibitz.games},
}
"""Packages a layer may use only through their exported names."""
COMMANDS = {"kibitz.server.cli", "kibitz.clients.cli", "kibitz.web.cli", "kibitz.match.cli"}
"""Each layer's command module: its `add_commands` registers that layer's `kibitz` commands."""
ROOT = {
    "cli.py": COMMANDS | {"kibitz.clients.client"},  # the client flags' defaults ($KIBITZ_...)
    "__main__.py": {"kibitz.cli"},
}
"""The composition root, kibitz/cli.py (and `python -m kibitz`, which runs it): it may import
every layer's command module, and nothing else of a layer."""


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, imported names) for every import of a kibitz module in `path`; a module
    imported from its package (`from kibitz import argtypes`) counts as that module."""
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
            names = [alias.name for alias in node.names]
            submodules = [name for name in names if is_module(f"{module}.{name}")]
            found += [(f"{module}.{name}", []) for name in submodules]
            names = [name for name in names if name not in submodules]
            if names:
                found.append((module, names))
    return [(module, names) for module, names in found if module.split(".")[0] == "kibitz"]


def is_module(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def within(module: str, allowed: str) -> bool:
    return module == allowed or module.startswith(allowed + ".")


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_what_it_may(layer):
    violations = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for module, names in imports(path):
            if module == "kibitz" and names == ["__version__"]:
                continue
            if module in COMMANDS:  # only the composition root puts the commands together
                violations.append(f"{path.relative_to(PACKAGE)} imports {module}")
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


@pytest.mark.parametrize("module", sorted(SHARED))
def test_a_shared_leaf_imports_nothing_of_kibitz(module):
    path = PACKAGE.parent / (module.replace(".", "/") + ".py")
    assert [name for name, _ in imports(path)] == []


@pytest.mark.parametrize("name", sorted(ROOT))
def test_the_composition_root_imports_only_the_layers_commands(name):
    stray = [
        module
        for module, names in imports(PACKAGE / name)
        if not any(within(module, allowed) for allowed in ROOT[name])
        and not (module == "kibitz" and names == ["__version__"])
    ]
    assert not stray, f"kibitz/{name} imports {stray}"


def test_each_layer_registers_its_own_commands():
    """`kibitz serve` and `kibitz cluster` come from the server, `kibitz web` from the web
    layer, `kibitz match` from the match runner, the rest from the clients: the handler of
    each command is its layer's command module's."""
    from kibitz.cli import build_parser

    (commands,) = [
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    homes = {}
    for name, parser in commands.choices.items():
        handler = parser.get_default("handler")
        handler = getattr(handler, "args", [handler])[0]  # a client command: partial(run, cmd)
        homes[name] = handler.__module__
    assert set(homes.values()) == COMMANDS
    assert {name for name, home in homes.items() if home != "kibitz.clients.cli"} == {
        "serve",
        "cluster",
        "web",
        "match",
    }
