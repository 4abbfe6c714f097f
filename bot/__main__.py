"""``python -m bot``: run Parlour."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys

from bot.config import Config, ConfigError, logging_settings
from bot.ops.logs import setup_logging


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Parlour bot.")
    parser.add_argument("--log-level", help="logging level (default: $LOG_LEVEL, else INFO)")
    parser.add_argument(
        "--playground",
        action="store_true",
        help="play in a browser without Discord: the bot against a local stand-in for Discord, "
        "with a page at http://127.0.0.1:8080 (no DISCORD_TOKEN needed)",
    )
    parser.add_argument(
        "--port", type=int, help="the playground page's port on 127.0.0.1 (default 8080)"
    )
    args = parser.parse_args(argv)
    if args.port is not None and not args.playground:
        parser.error("--port goes with --playground")
    if args.playground:
        try:
            level, fmt = logging_settings(os.environ)
        except ConfigError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        setup_logging(args.log_level or level, fmt)
        from playground import run as run_playground

        return run_playground(8080 if args.port is None else args.port)
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    setup_logging(args.log_level or config.log_level, config.log_format, secrets=[config.token])
    from bot.client.app import run

    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(run(config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
