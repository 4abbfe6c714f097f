"""The Quatorze grid renders with cell numbers, selections and alt text in words."""

from __future__ import annotations

from games.quatorze import State
from render.quatorze import render_quatorze


def test_render_quatorze_in_play_and_over():
    s = State.new(seed=5)
    v = s.view(0)
    p = render_quatorze(v, selected=tuple(v["pairs"][0]))
    assert p.png.startswith(b"\x89PNG") and len(p.png) < 1_000_000
    assert "Row 1:" in p.description and "Selected:" in p.description
    s.apply(0, "give-up")
    p = render_quatorze(s.view(0))
    assert "The player gave up." in p.description
