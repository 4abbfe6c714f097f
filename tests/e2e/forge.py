"""Forged component interactions: what a hostile member's client can send.

A member's client chooses the custom_id, the component type, the select values and the channel
of a click, and the message it names (any message the member can see); it can also claim the
message carries the component. :func:`forge` sends such an interaction and waits for the answer.
"""

from __future__ import annotations

from typing import Any

from fakediscord import Driver, Message, Response
from fakediscord.server import MESSAGE_COMPONENT
from fakediscord.state import BUTTON

STRING_SELECT = 3


def forged_component(custom_id: str, ctype: int, values: list[str] | None) -> dict[str, Any]:
    """The component the forged message claims to carry."""
    if ctype == BUTTON:
        return {"type": BUTTON, "custom_id": custom_id, "label": "x", "style": 2}
    options = [{"label": v[:100] or "x", "value": v[:100] or "x"} for v in values or ["x"]]
    return {
        "type": ctype,
        "custom_id": custom_id,
        "options": options[:25],
        "min_values": 1,
        "max_values": max(1, min(25, len(options))),
    }


async def forge(
    driver: Driver,
    member: str,
    message: Message,
    custom_id: str,
    *,
    ctype: int = BUTTON,
    values: list[str] | None = None,
    channel: str | int | None = None,
    claim: bool = True,
    timeout: float = 10.0,
) -> Response:
    """Send a component interaction from ``member`` on ``message`` with ``custom_id`` (in
    ``channel``, by default the message's). ``claim``: the payload's message carries only the
    forged component, as if it were on the message. Waits until the bot answered."""
    fake = driver.fake
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
    if ctype != BUTTON:
        data["values"] = list(values or [])
    interaction = fake.new_interaction(
        itype=MESSAGE_COMPONENT,
        user=driver.user(member),
        channel=fake.world.channel(channel if channel is not None else message.channel_id),
        data=data,
        message=message,
    )
    if claim:
        row = {"type": 1, "components": [forged_component(custom_id, ctype, values)]}
        interaction.payload["message"]["components"] = [row]
    await fake.send_interaction(interaction)
    answered = lambda: interaction.responded or interaction.rejected  # noqa: E731
    await fake.wait_for(answered, timeout, f"an answer to {custom_id!r}")
    assert not interaction.rejected, interaction.rejected
    return Response(interaction, fake)
