"""Pillow renderers: pure functions from a game view (a plain dict) to a :class:`Picture`.

Renderers import ``games`` (to read views) and Pillow; never discord or storage. They are run
off the event loop by the bot. The boards are composed from sprites and PNG bands cached per
process (``render.compose``): the same arguments always give the same picture.
"""

from render.base import Picture

__all__ = ["Picture"]
