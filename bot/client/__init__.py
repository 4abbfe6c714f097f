"""The discord.py shell: the only part of Parlour that imports discord."""
