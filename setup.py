"""Build hook for the optional C search core; the project's metadata lives in pyproject.toml.

``games.checkers._core`` is compiled when a C compiler and the Python headers are present;
``optional=True`` lets the install go on without it (the pure-Python search is used then).
"""

import sys

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.checkers._core",
            ["games/checkers/_core.c"],
            extra_compile_args=[] if sys.platform == "win32" else ["-O3", "-std=c11"],
            optional=True,
        )
    ]
)
