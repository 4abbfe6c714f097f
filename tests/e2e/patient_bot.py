"""Parlour's bot with discord.py's reconnect backoff at a minute, as it grows to after a long
outage of Discord (a random wait of up to 2**n seconds after the n-th failed try, n up to 10):
run with ``start_bot("patient_bot")``."""

from __future__ import annotations

import runpy

import discord.backoff

BACKOFF = 60.0  # seconds discord.py waits before each try to reach Discord again
discord.backoff.ExponentialBackoff.delay = lambda self: BACKOFF  # type: ignore[method-assign]
runpy.run_module("bot", run_name="__main__", alter_sys=True)
