"""The tools that build data the bot ships: the checkers evaluation's weights and opening book."""
