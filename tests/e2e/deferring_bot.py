"""Parlour's bot deferring every interaction at once, as it does when it is busy or slow (a
loaded machine, a slow database): run with ``start_bot("deferring_bot")``."""

from __future__ import annotations

import runpy

import bot.client.app

bot.client.app.DEFER_AFTER = 0.0  # no time to answer directly: defer first
runpy.run_module("bot", run_name="__main__", alter_sys=True)
