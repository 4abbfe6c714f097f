"""Parlour: five classic parlour games for Discord.

``bot.tables`` holds the use cases with no discord import; ``bot.client`` is the discord.py
shell; ``python -m bot`` runs it.
"""
