"""Builds the compiled search kernels (Cython); all other metadata is in pyproject.toml.

The extensions are optional: without a C compiler kibitz installs and runs on its
pure-Python search (the option Kernel then has no effect), which is also the reference
the kernels are tested against.
"""

import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

FLAGS = ["-O3"]
if platform.machine() in ("x86_64", "AMD64"):
    FLAGS.append("-mpopcnt")  # one instruction for __builtin_popcountll

KERNELS = [
    Extension(
        module,
        [module.replace(".", "/") + ".pyx"],
        extra_compile_args=FLAGS,
        optional=True,
    )
    for module in (
        "kibitz.engines.alphabeta.kernels._table",
        "kibitz.engines.alphabeta.kernels._connect4",
        "kibitz.engines.mcts.kernels._playouts",
        "kibitz.games.chess._board",
    )
]

setup(ext_modules=cythonize(KERNELS, compiler_directives={"language_level": 3}))
