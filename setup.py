"""Build hook for the optional C helpers; the project's metadata lives in pyproject.toml.

``games.checkers._core`` (the search), ``games.checkers._egdbcore`` (the endgame database
solver), ``games.quatorze._playouts`` (the Quatorze hint's playouts) and
``games.hearts._playouts`` (the Hearts expert's roll-outs) are compiled when a C compiler and
the Python headers are present; ``optional=True`` lets the install go on without them (the
pure-Python code is used then).
"""

import os
import sys

from setuptools import Extension, setup

FLAGS = [] if sys.platform == "win32" else ["-O3", "-std=c11"]

setup(
    ext_modules=[
        Extension(name, [source], extra_compile_args=FLAGS, optional=True)
        for name, source in (
            ("games.checkers._core", "games/checkers/_core.c"),
            ("games.checkers._egdbcore", "games/checkers/_egdbcore.c"),
            ("games.quatorze._playouts", "games/quatorze/_playouts.c"),
            ("games.hearts._playouts", "games/hearts/_playouts.c"),
        )
        if os.path.exists(source)
    ]
)
