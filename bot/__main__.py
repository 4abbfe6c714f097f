"""``python -m bot``: run Parlour."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys

from bot.config import Config, ConfigError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Parlour bot.")
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    args = parser.parse_args(argv)
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot.client.app import run

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
