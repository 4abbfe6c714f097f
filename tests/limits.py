"""Discord's documented message limits, checked on the table service's screens."""

from __future__ import annotations

from bot.tables.screens import Screen, Select

# The longest custom_id prefix a real table could need: "t:<12-digit id>:<7-digit version>:".
PREFIX = len("t:999999999999:9999999:")


def assert_fits_discord(screen: Screen) -> None:
    """Fail when ``screen`` would break one of Discord's message limits."""
    assert len(screen.content) <= 2000, "content over 2000 characters"
    assert len(screen.rows) <= 5, "more than 5 action rows"
    seen = set()
    for row in screen.rows:
        items = [row] if isinstance(row, Select) else list(row)
        if isinstance(row, Select):
            assert 1 <= len(row.options) <= 25, f"select with {len(row.options)} options"
            assert len(row.placeholder) <= 150
            assert 0 <= row.min_values <= row.max_values <= len(row.options)
            for option in row.options:
                assert 1 <= len(option.label) <= 100 and 1 <= len(option.value) <= 100
                assert option.description is None or len(option.description) <= 100
            assert len({o.value for o in row.options}) == len(row.options), "duplicate values"
        else:
            assert 1 <= len(row) <= 5, f"a row of {len(row)} buttons"
        for item in items:
            assert PREFIX + len(item.action) <= 100, f"custom_id too long for {item.action!r}"
            assert item.action not in seen, f"duplicate action {item.action!r}"
            seen.add(item.action)
            label = getattr(item, "label", "x")
            assert len(label) <= 80
    for picture in screen.pictures:
        assert len(picture.png) < 8 * 1024 * 1024
        assert 0 < len(picture.description) <= 1024
    if screen.embed:
        e = screen.embed
        assert len(e.title) <= 256 and len(e.description) <= 4096 and len(e.fields) <= 25
