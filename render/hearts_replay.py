"""A Hearts hand replayed trick by trick, face up, from a finished game's stored state.

The hand is replayed through the engine itself (the game's seed, the stored deals, passes and
plays), so the replay shows exactly what happened. Frames: the four hands after the pass (the
cards received raised), one frame a trick (the trick in the middle, its taker ringed, every
hand as it is left), and the hand's scores held at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.cards import Card, Rank, Suit, cards_from_text, cards_to_text
from games.hearts import State
from games.hearts.actions import format_pass
from games.hearts.rules import Rules
from render.animation import Animation, Reel, caption_strip, fit_description, with_strip
from render.base import BACKGROUND, FELT, FELT_DARK, GOLD, HIGHLIGHT, INK, MUTED, font
from render.cards import card_image, card_text, hand_image

WIDTH, HEIGHT = 760, 600
HAND_CARD = 46
TRICK_CARD = 64
ROW = 7  # cards a row for the side hands (west, east)
START_MS, TRICK_MS, HOLD_MS = 2500, 2000, 5000
_CENTRE = (WIDTH // 2, 296)
# Screen places from the bottom seat, clockwise: south, west, north, east.
_TRICK_AT = ((0, 64), (-72, 0), (0, -64), (72, 0))
_DIRECTIONS = {
    "left": "passed to the left",
    "right": "passed to the right",
    "across": "passed across",
    "hold": "no passing",
}


_QUEEN = Card(Rank.QUEEN, Suit.SPADES)


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick of the replayed hand: who led, (seat, card) in play order, who took it."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    points: tuple[int, ...]  # points taken by each seat so far this hand, after this trick


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand: the hands after the pass, what each seat received, the tricks."""

    number: int  # from 1, as the table shows it
    direction: str
    hands: tuple[tuple[Card, ...], ...]
    received: tuple[tuple[Card, ...], ...]
    tricks: tuple[Trick, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    moon: int | None


def hands_played(state: Mapping[str, Any]) -> int:
    """How many hands a stored Hearts game has finished."""
    return len(state.get("history", ()))


def hand_record(state: Mapping[str, Any], number: int) -> HandRecord:
    """Hand ``number`` (from 1) of a finished game, replayed through the engine.

    Raises ``ValueError`` for a game still in play (hands are private until the end) or a hand
    that was not played.
    """
    if state.get("phase") != "game-over":
        raise ValueError("A Hearts hand is shown face up only once the game is over.")
    history = state["history"]
    if not 1 <= number <= len(history):
        raise ValueError(f"This game has hands 1 to {len(history)}.")
    game = State.new(
        seed=state["seed"],
        rules=Rules.from_dict(state["rules"]),
        dealer=state["first_dealer"],
        deal=cards_from_text(history[0]["deal"]),
    )
    for index, stored in enumerate(history[:number]):
        if cards_to_text(game.deal) != stored["deal"]:
            raise ValueError(f"Hand {index + 1}'s stored deal does not match its seed.")
        if stored["direction"] != "hold":
            for seat, text in enumerate(stored["passes"]):
                game.apply(seat, format_pass(cards_from_text(text)))
        if index == number - 1:
            return _record(game, stored, number)
        for card in cards_from_text(stored["plays"]):
            game.apply(_turn(game), str(card))
    raise AssertionError("unreachable: number is checked against the history above")


def _turn(game: State) -> int:
    seat = game.turn
    if seat is None:
        raise ValueError("The stored plays go on after the hand ended.")
    return seat


def _record(game: State, stored: Mapping[str, Any], number: int) -> HandRecord:
    hands = tuple(tuple(game.hand(seat)) for seat in range(4))
    received = tuple(
        tuple(Card.parse(text) for text in game.view(seat)["received"] or ()) for seat in range(4)
    )
    tricks: list[Trick] = []
    plays: list[tuple[int, Card]] = []
    for card in cards_from_text(stored["plays"]):
        seat = _turn(game)
        game.apply(seat, str(card))
        plays.append((seat, card))
        if len(plays) == 4:
            winner = int((game.last_trick or {})["winner"])
            # the engine's running points; after the hand's last trick it has dealt the next
            # hand, so the stored total taken stands in
            taken = stored["taken"] if len(tricks) == 12 else game.points
            tricks.append(Trick(plays[0][0], tuple(plays), winner, tuple(taken)))
            plays = []
    totals = tuple(game.totals)
    return HandRecord(
        number,
        stored["direction"],
        hands,
        received,
        tuple(tricks),
        tuple(stored["scores"]),
        totals,
        stored["moon"],
    )


# -- drawing ---------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _felt() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((6, 6, WIDTH - 7, HEIGHT - 7), radius=44, fill=FELT_DARK)
    draw.rounded_rectangle((16, 16, WIDTH - 17, HEIGHT - 17), radius=36, fill=FELT)
    draw.ellipse(
        (_CENTRE[0] - 130, _CENTRE[1] - 130, _CENTRE[0] + 130, _CENTRE[1] + 130),
        outline=FELT_DARK,
        width=3,
    )
    return image


def _label(
    draw: ImageDraw.ImageDraw, xy: tuple[int, int], name: str, points: int, lit: bool, anchor: str
) -> None:
    text = f"{name} · {points} pt{'' if points == 1 else 's'}"
    draw.text(xy, text, font=font(16), fill=HIGHLIGHT if lit else INK, anchor=anchor)


def _draw_hands(
    image: Image.Image,
    hands: Sequence[Sequence[Card]],
    names: Sequence[str],
    points: Sequence[int],
    bottom: int,
    raised: Sequence[Sequence[Card]] = (),
    lit: int | None = None,
) -> None:
    draw = ImageDraw.Draw(image)
    for seat in range(4):
        place = (seat - bottom) % 4
        cards = list(hands[seat])
        up = raised[seat] if raised else ()
        if place in (0, 2):  # south and north: one row
            row = hand_image(cards, HAND_CARD, overlap=0.5, raised=up)
            x = (WIDTH - row.width) // 2
            y = HEIGHT - 40 - row.height if place == 0 else 58
            image.paste(row, (x, y), row)
            label_y = y - 8 if place == 0 else 40
            _label(draw, (WIDTH // 2, label_y), names[seat], points[seat], seat == lit, "ms")
        else:  # west and east: two rows
            x = 36 if place == 1 else WIDTH - 36 - _side_width()
            for r, chunk in enumerate((cards[:ROW], cards[ROW:])):
                row = hand_image(chunk, HAND_CARD, overlap=0.5, raised=up)
                image.paste(row, (x, 232 + r * 46), row)
            _label(
                draw, (x + _side_width() // 2, 222), names[seat], points[seat], seat == lit, "ms"
            )


@lru_cache(maxsize=1)
def _side_width() -> int:
    return hand_image([None] * ROW, HAND_CARD, overlap=0.5).width


def _draw_trick(image: Image.Image, trick: Trick, bottom: int) -> None:
    draw = ImageDraw.Draw(image)
    for seat, card in trick.plays:
        dx, dy = _TRICK_AT[(seat - bottom) % 4]
        sprite = card_image(card, TRICK_CARD)
        x = _CENTRE[0] + dx - sprite.width // 2
        y = _CENTRE[1] + dy - sprite.height // 2
        if seat == trick.winner:
            draw.rounded_rectangle(
                (x - 5, y - 5, x + sprite.width + 4, y + sprite.height + 4),
                radius=8,
                outline=GOLD,
                width=4,
            )
        image.paste(sprite, (x, y), sprite)
        if seat == trick.leader:
            draw.text(
                (x + sprite.width // 2, y + sprite.height + 3),
                "led",
                font=font(12),
                fill=MUTED,
                anchor="ma",
            )


def _draw_scores(image: Image.Image, record: HandRecord, names: Sequence[str]) -> None:
    draw = ImageDraw.Draw(image)
    cx, cy = _CENTRE
    draw.text((cx, cy - 78), f"Hand {record.number} scores", font=font(20), fill=GOLD, anchor="mm")
    for seat in range(4):
        y = cy - 40 + seat * 28
        draw.text((cx - 110, y), names[seat][:14], font=font(17), fill=INK, anchor="lm")
        draw.text(
            (cx + 40, y), f"+{record.scores[seat]}", font=font(17), fill=HIGHLIGHT, anchor="rm"
        )
        draw.text((cx + 110, y), str(record.totals[seat]), font=font(17), fill=INK, anchor="rm")
    draw.text((cx + 110, cy - 58), "total", font=font(12), fill=MUTED, anchor="rm")
    if record.moon is not None:
        draw.text(
            (cx, cy + 84),
            f"{names[record.moon]} shot the moon!",
            font=font(16),
            fill=HIGHLIGHT,
            anchor="mm",
        )


def _point_cards(record: HandRecord) -> list[list[Card]]:
    """The hearts and the queen of spades each seat took, for the last frame."""
    taken: list[list[Card]] = [[], [], [], []]
    for trick in record.tricks:
        taken[trick.winner] += [c for _, c in trick.plays if c.suit is Suit.HEARTS or c == _QUEEN]
    return [sorted(cards, key=lambda c: (c.suit, c.rank)) for cards in taken]


def _names(names: Mapping[int, str] | Sequence[str] | None) -> list[str]:
    found = dict(enumerate(names)) if isinstance(names, Sequence) else dict(names or {})
    return [found.get(seat) or f"Seat {seat + 1}" for seat in range(4)]


def replay_hearts_hand(
    state: Mapping[str, Any],
    number: int,
    names: Mapping[int, str] | Sequence[str] | None = None,
    *,
    bottom: int = 0,
) -> Animation:
    """Hand ``number`` (from 1) of a finished game (``State.to_dict()``), face up, trick by
    trick. ``bottom`` is the seat drawn at the bottom; play runs clockwise on the picture."""
    record = hand_record(state, number)
    who = _names(names)
    remaining = [list(hand) for hand in record.hands]
    zero = (0, 0, 0, 0)
    total = len(record.tricks)
    frames: list[Image.Image] = []
    durations: list[int] = []

    table = _felt().copy()
    _draw_hands(table, remaining, who, zero, bottom, raised=record.received)
    what = _DIRECTIONS.get(record.direction, record.direction)
    subtitle = "raised: the cards received" if record.direction != "hold" else "no passing"
    frames.append(
        with_strip(table, caption_strip(WIDTH, f"Hand {record.number} · {what}", subtitle, 0.0))
    )
    durations.append(START_MS)
    lines = []
    for index, trick in enumerate(record.tricks, start=1):
        for seat, card in trick.plays:
            remaining[seat].remove(card)
        table = _felt().copy()
        _draw_hands(table, remaining, who, trick.points, bottom, lit=trick.winner)
        _draw_trick(table, trick, bottom)
        gained = trick.points[trick.winner] - (
            record.tricks[index - 2].points[trick.winner] if index > 1 else 0
        )
        title = f"Trick {index} · {who[trick.winner]} takes it"
        if gained:
            title += f" (+{gained})"
        frames.append(
            with_strip(
                table, caption_strip(WIDTH, title, f"{who[trick.leader]} led", index / total)
            )
        )
        durations.append(TRICK_MS)
        plays = ", ".join(f"{who[s]} {card_text(c)}" for s, c in trick.plays)
        lines.append(f"Trick {index}: {plays}; {who[trick.winner]} takes it.")
    table = _felt().copy()
    _draw_hands(
        table, _point_cards(record), who, record.tricks[-1].points if total else zero, bottom
    )
    _draw_scores(table, record, who)
    scores = ", ".join(f"{who[s]} {record.scores[s]}" for s in range(4))
    frames.append(
        with_strip(
            table,
            caption_strip(
                WIDTH,
                f"Hand {record.number}: {scores}",
                "final · the point cards taken",
                1.0,
                final=True,
            ),
        )
    )
    durations.append(HOLD_MS)

    moon = f" {who[record.moon]} shot the moon." if record.moon is not None else ""
    head = (
        f"Replay of Hearts hand {record.number}, face up, {what}, {total} tricks. "
        f"Hand scores: {scores}.{moon}"
    )
    totals = ", ".join(f"{who[s]} {record.totals[s]}" for s in range(4))
    description = fit_description(head, f"Totals after the hand: {totals}.", lines)
    filename = f"hearts-hand-{record.number}.gif"
    return Reel(frames.__getitem__, tuple(durations), description, filename).encode()
