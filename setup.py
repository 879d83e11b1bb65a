"""Builds the compiled search kernels (Cython); all other metadata is in pyproject.toml.

The extensions are optional: without a C compiler kibitz installs and runs on its
pure-Python search (the option Kernel then has no effect), which is also the reference
the kernels are tested against.
"""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

FLAGS = ["-O3"]
POPCNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []
"""One instruction for __builtin_popcountll, for the Connect Four kernel alone: it is loaded
only where `_table.cpu_has_popcnt()` says the processor has it, so a wheel stays portable."""

KERNELS = [
    Extension(
        module,
        [module.replace(".", "/") + ".pyx"],
        extra_compile_args=FLAGS + extra,
    )
    for module, extra in (
        ("kibitz.engines.alphabeta.kernels._table", []),
        ("kibitz.engines.alphabeta.kernels._connect4", POPCNT),
        ("kibitz.engines.alphabeta.kernels._chess", []),
        ("kibitz.engines.mcts.kernels._playouts", []),
        ("kibitz.engines.mcts.kernels._walk", []),
        ("kibitz.games.chess._board", []),
        ("kibitz.games._sliding_kernel", []),
        ("kibitz.engines.dds.kernels._solver", []),
        ("kibitz.games.backgammon._kernel", ["-ffp-contract=off"]),
    )
]


class OptionalBuildExt(build_ext):
    """Builds what it can: a kernel that fails to compile (no compiler, or a compiler that
    fails) leaves that module out instead of failing the install. setuptools' own `optional`
    does not catch every failure (a compiler that exits non-zero escapes it)."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self.warn(f"{ext.name} not built ({error}); kibitz uses its pure-Python code")


setup(
    ext_modules=cythonize(KERNELS, compiler_directives={"language_level": 3}),
    cmdclass={"build_ext": OptionalBuildExt},
)
