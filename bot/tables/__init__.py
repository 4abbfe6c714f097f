"""The table service: the bot's use cases (start, accept, act, resign, stop, show, AI turns,
results) with no discord import, so tests drive whole games through it."""
