"""Pure game engines: rules, state, legal actions, AI, notation and JSON round-trips.

Nothing in this package does I/O: no discord, no Pillow, no sqlite, no asyncio. Every random
choice comes from a seed held in the state, so a game replays exactly from what is stored.
"""
