"""The Kabu table renders at every phase, with alt text in words."""

from __future__ import annotations

from games.kabu import State
from render.kabu import render_kabu


def test_render_kabu_every_phase():
    s = State.new(players=2, seed=5)
    pictures = [render_kabu(s.view(None))]
    s.apply(0, "pick-2")
    s.apply(1, "pick-4")
    pictures.append(render_kabu(s.view(0), names={0: "Alice", 1: "Bob"}))
    s.apply(0, "draw")
    s.apply(1, "stand")
    pictures.append(render_kabu(s.view(None), names={0: "Alice"}))
    for p in pictures:
        assert p.png.startswith(b"\x89PNG") and len(p.png) < 1_000_000
        assert p.description.startswith("Kabu.")
    assert "Alice" in pictures[1].description
    assert "wins" in pictures[2].description or "loses" in pictures[2].description
