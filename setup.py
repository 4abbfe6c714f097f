"""Optional compiled helpers; everything has a pure-Python fallback when no compiler is there."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.checkers._egdbcore",
            ["games/checkers/_egdbcore.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
