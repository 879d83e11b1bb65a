"""Name -> class registries for games and engines, filled by built-ins and by plugins.

Other installed packages add games and engines through Python entry points (groups
``kibitz.games`` and ``kibitz.engines``, each entry naming a `Game` or `Engine` subclass;
docs/architecture.md, "Plugins"). A plugin that fails to import or is not a valid class is
skipped and reported, never fatal: the server logs the reports and serves the rest.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T", bound=type)


class Registry(dict[str, T], Generic[T]):
    """Classes by their `name`, in registration order (built-ins first)."""

    def __init__(self, kind: str, base: type, group: str, attributes: tuple[str, ...]) -> None:
        super().__init__()
        self.kind = kind
        """What the classes are, for messages: "game" or "engine"."""
        self.base = base
        self.group = group
        """The entry-point group plugins register under."""
        self.attributes = attributes
        """Class attributes every class must define besides `name` (e.g. "title")."""
        self.problems: list[str] | None = None
        """One line per plugin that was skipped, saying why; None before loading."""

    def register(self, cls: T) -> T:
        """Add a class under its `name`; raises ValueError when it cannot be one of ours."""
        problem = self._problem(cls)
        if problem:
            raise ValueError(problem)
        self[cls.name] = cls
        return cls

    def _problem(self, cls: object) -> str:
        if not (isinstance(cls, type) and issubclass(cls, self.base)):
            return f"{cls!r} is not a subclass of {self.base.__name__}"
        if cls.__abstractmethods__:
            missing = ", ".join(sorted(cls.__abstractmethods__))
            return f"{cls.__name__} does not implement {missing}"
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not name or name != name.lower() or " " in name:
            return f"{cls.__name__}.name must be a lower-case word, not {name!r}"
        if name in self and self[name] is not cls:
            return f"the {self.kind} name {name!r} is taken by {self[name].__module__}"
        missing = [attribute for attribute in self.attributes if not hasattr(cls, attribute)]
        if missing:
            return f"{cls.__name__} does not define {', '.join(missing)}"
        return ""

    def load_plugins(self) -> list[str]:
        """Register the classes named by the installed entry points of `group` (read once
        per process); returns `problems`."""
        from importlib.metadata import entry_points  # here: importing it costs a server ~30 ms

        if self.problems is not None:
            return self.problems
        self.problems = []
        for entry in entry_points(group=self.group):
            try:
                self.register(entry.load())
            except Exception as exc:  # a broken plugin must never take the server down
                self.problems.append(
                    f"{self.kind} plugin {entry.name!r} ({entry.value}) skipped: "
                    f"{type(exc).__name__}: {exc}"
                )
        return self.problems
