"""For the people who run Parlour: health and metrics over HTTP, logs, event-loop lag.

Nothing here knows the games or Discord's types: the bot hands in small callables (the shards'
state, a database ping) and calls the recording functions of :mod:`bot.ops.metrics`.
"""
