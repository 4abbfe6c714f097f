"""Which Discord shard a guild belongs to, and whether this process acts for it.

Discord routes a guild to shard ``(guild_id >> 22) % shard_count``; a process started with
``SHARD_IDS`` acts only for the guilds of those shards (restoring tables, sweeps, time-outs,
computer turns); an unsharded process (no ``SHARD_COUNT``) acts for every guild.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.digits import is_number


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events on.

    >>> shard_of(41771983423143937, 2), shard_of(41771983423143937 + (1 << 22), 2)
    (0, 1)
    """
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs: ``ids`` out of ``count``."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("SHARD_COUNT must be at least 1")
        if not self.ids:
            raise ValueError("SHARD_IDS names no shard")
        bad = [i for i in self.ids if not 0 <= i < self.count]
        if bad:
            raise ValueError(f"SHARD_IDS {bad} out of range 0-{self.count - 1}")

    def owns(self, guild_id: int) -> bool:
        """Whether this process acts for ``guild_id``."""
        return shard_of(guild_id, self.count) in self.ids

    @property
    def syncs_commands(self) -> bool:
        """Only the process that runs shard 0 syncs the command tree."""
        return 0 in self.ids


def owns_guild(shards: Shards | None, guild_id: int) -> bool:
    """Whether a process running ``shards`` (None: unsharded, all of them) acts for the guild."""
    return shards is None or shards.owns(guild_id)


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``0-3`` or ``0,2`` (or a mix, ``0-1,4``) as sorted shard ids.

    >>> parse_shard_ids("0-2,5", 8)
    (0, 1, 2, 5)
    """
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not is_number(low) or (dash and not is_number(high)):
            raise ValueError(f"SHARD_IDS {text!r}: write ranges and lists like 0-3 or 0,2")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"SHARD_IDS {text!r}: the range {part} runs backwards")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))
