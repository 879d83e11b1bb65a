"""Installing the plugin packages the tests use (examples/plugin, tests/plugins/faulty)."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_PLUGIN = ROOT / "examples" / "plugin"
FAULTY_PLUGIN = ROOT / "tests" / "plugins" / "faulty"
PIP_INSTALL = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
PIP_INSTALL += ["--no-deps", "--no-build-isolation"]  # offline: build with our setuptools


def pip_install(package: Path, target: Path) -> None:
    """Install a local package (without its dependencies) into the directory `target`,
    building it from a copy (a build writes into the source tree)."""
    with tempfile.TemporaryDirectory() as scratch:
        source = shutil.copytree(package, Path(scratch) / package.name)
        subprocess.run(
            [*PIP_INSTALL, "--target", str(target), str(source)],
            check=True,
        )


def add_to_path(directory: Path) -> None:
    """Put `directory` first on the import path, here and in subprocesses started later."""
    sys.path.insert(0, str(directory))
    importlib.invalidate_caches()
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(directory), os.environ.get("PYTHONPATH")])
    )
