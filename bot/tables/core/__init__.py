"""The table core: the rules of a table as plain functions over plain data, h11-style.

Given the stored table, the game state, what a member asked and the time, the core says what
changes and returns typed events (:mod:`bot.tables.core.events`). It does no I/O: no asyncio,
no database, no discord, no drawing. The async shell (:mod:`bot.tables.shell`) loads, locks,
commits with the version check and draws; the client turns each event into its Discord call.
"""
