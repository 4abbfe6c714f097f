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
from i18n import Message, _np, _p, render, sentences
from render.animation import (
    Animation,
    Caption,
    Reel,
    caption_sizes,
    fit_description,
    strip_height,
    with_caption,
)
from render.base import (
    BACKGROUND,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    draw_text,
    fit_text,
    legible_size,
    placed,
    text_width,
)
from render.cards import card_height, card_text, hand_image, hand_size, place_card

WIDTH, HEIGHT = 600, 514
TEXT = legible_size(WIDTH)  # every text: 11.5 px as a phone shows the picture
HAND_CARD = 54
STEP = 22  # from one card of a hand to the next: each index stays in sight
OVERLAP = 1 - STEP / HAND_CARD
TRICK_CARD = 56
SIDE_ROWS = (slice(0, 5), slice(5, 10), slice(10, None))  # west's and east's hands in rows
SIDE_ROW_STEP = 40
SIDE_X = 26  # west's hand from the left edge, east's from the right
START_MS, TRICK_MS, HOLD_MS = 2500, 2000, 5000
_NORTH_LABEL, _NORTH_ROW = 36, 52  # centre of the name line; top of the cards
_SIDE_LABEL, _SIDE_ROW = 162, 204
_SOUTH_LABEL, _SOUTH_ROW = 392, 410
_CENTRE = (WIDTH // 2, 260)
# the "led" label's width: between the cards of the trick, clear of the hands beside them
_LED_ROOM = TRICK_CARD + 2 * (72 - TRICK_CARD)
# Screen places from the bottom seat, clockwise: south, west, north, east.
_TRICK_AT = ((0, 66), (-72, 0), (0, -66), (72, 0))
_DIRECTIONS = {
    "left": _p("hearts replay", "passed to the left"),
    "right": _p("hearts replay", "passed to the right"),
    "across": _p("hearts replay", "passed across"),
    "hold": _p("hearts replay", "no passing"),
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
    image = Image.new("RGBA", (WIDTH, HEIGHT), (*BACKGROUND, 255))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((6, 6, WIDTH - 7, HEIGHT - 7), radius=44, fill=FELT_DARK)
    draw.rounded_rectangle((16, 16, WIDTH - 17, HEIGHT - 17), radius=36, fill=FELT)
    r = 118
    draw.ellipse(
        (_CENTRE[0] - r, _CENTRE[1] - r, _CENTRE[0] + r, _CENTRE[1] + r),
        outline=FELT_DARK,
        width=3,
    )
    return image


def _points(points: int, lang: str) -> str:
    return render(_np("hearts replay", "{n} pt", "{n} pts", points), lang)


def _seat_label(name: str, points: int, lang: str) -> str:
    """``"Ann · 3 pts"`` in the language ``lang``, the name cut so that the line fits."""
    said = _points(points, lang)

    def label(who: str) -> str:
        return render(_p("hearts replay", "{name} · {points}", name=who, points=said), lang)

    return label(fit_text(name, TEXT, WIDTH - 80 - text_width(label(""), TEXT)))


def _side_width() -> int:
    return hand_size(5, HAND_CARD, OVERLAP)[0]


def _draw_hands(
    image: Image.Image,
    hands: Sequence[Sequence[Card]],
    names: Sequence[str],
    points: Sequence[int],
    bottom: int,
    raised: Sequence[Sequence[Card]] = (),
    lit: int | None = None,
    lang: str = "en",
) -> None:
    """Each seat's cards face up with its name and points: north and south a row each, west
    and east in rows of five with the name and points on two lines above."""
    draw = ImageDraw.Draw(image)
    for seat in range(4):
        place = (seat - bottom) % 4
        cards = list(hands[seat])
        up = raised[seat] if raised else ()
        colour = HIGHLIGHT if seat == lit else INK
        if place in (0, 2):  # south and north: one row, the name and points above it
            x = (WIDTH - hand_size(len(cards), HAND_CARD, OVERLAP)[0]) // 2
            y = _SOUTH_ROW if place == 0 else _NORTH_ROW
            with placed(x, y):
                row = hand_image(cards, HAND_CARD, OVERLAP, raised=up)
            image.alpha_composite(row, (x, y))
            label_y = _SOUTH_LABEL if place == 0 else _NORTH_LABEL
            shown = _seat_label(names[seat], points[seat], lang)
            draw_text(draw, (WIDTH // 2, label_y), shown, TEXT, colour, anchor="mm")
        else:  # west and east
            x = SIDE_X if place == 1 else WIDTH - SIDE_X - _side_width()
            area = (x - 8, _SIDE_LABEL - 14, x + _side_width() + 8, _SIDE_ROW)
            centre = x + _side_width() // 2
            name = fit_text(names[seat], TEXT, _side_width() + 16)
            draw_text(draw, (centre, _SIDE_LABEL), name, TEXT, colour, anchor="mm", within=area)
            points_y = _SIDE_LABEL + 24
            said = _points(points[seat], lang)
            draw_text(draw, (centre, points_y), said, TEXT, colour, anchor="mm")
            for r, part in enumerate(SIDE_ROWS):
                y = _SIDE_ROW + r * SIDE_ROW_STEP
                with placed(x, y):
                    row = hand_image(cards[part], HAND_CARD, OVERLAP, raised=up)
                image.alpha_composite(row, (x, y))


def _draw_trick(image: Image.Image, trick: Trick, bottom: int, lang: str) -> None:
    """The four cards of ``trick`` in a cross, its taker ringed, "led" by the first card."""
    draw = ImageDraw.Draw(image)
    height = card_height(TRICK_CARD)
    for seat, card in trick.plays:
        place = (seat - bottom) % 4
        dx, dy = _TRICK_AT[place]
        x = _CENTRE[0] + dx - TRICK_CARD // 2
        y = _CENTRE[1] + dy - height // 2
        if seat == trick.winner:
            draw.rounded_rectangle(
                (x - 5, y - 5, x + TRICK_CARD + 4, y + height + 4),
                radius=8,
                outline=GOLD,
                width=4,
            )
        place_card(image, card, TRICK_CARD, (x, y))
        if seat == trick.leader:  # beside the north and south cards, under west's and east's
            if place in (0, 2):
                xy, anchor = (x + TRICK_CARD + 8, y + height // 2), "lm"
            else:
                xy, anchor = (x + TRICK_CARD // 2, y + height + 4), "ma"
            led = fit_text(render(_p("hearts replay", "led"), lang), TEXT, _LED_ROOM)
            draw_text(draw, xy, led, TEXT, MUTED, anchor=anchor)


def _draw_scores(image: Image.Image, record: HandRecord, names: Sequence[str], lang: str) -> None:
    """The round's scores in the middle of the table: this round's points and the totals."""
    draw = ImageDraw.Draw(image)
    cx, cy = _CENTRE
    left, right = cx - 116, cx + 116
    title = fit_text(render(_scores_title(record.number), lang), TEXT, right - left)
    draw_text(draw, (cx, cy - 92), title, TEXT, GOLD, anchor="mm")
    this_round = fit_text(render(_p("hearts replay", "round"), lang), TEXT, 100)
    draw_text(draw, (cx + 50, cy - 64), this_round, TEXT, MUTED, anchor="rm")
    total = fit_text(render(_p("hearts replay", "total"), lang), TEXT, right - cx - 60)
    draw_text(draw, (right, cy - 64), total, TEXT, MUTED, anchor="rm")
    for seat in range(4):
        y = cy - 36 + seat * 28
        name = fit_text(names[seat], TEXT, 112)
        draw_text(draw, (left, y), name, TEXT, INK, anchor="lm")
        draw_text(draw, (cx + 50, y), f"+{record.scores[seat]}", TEXT, HIGHLIGHT, anchor="rm")
        draw_text(draw, (right, y), str(record.totals[seat]), TEXT, INK, anchor="rm")
    if record.moon is not None:
        said = render(_p("hearts replay", "{name} shot the moon!", name=names[record.moon]), lang)
        moon = fit_text(said, TEXT, right - left)
        draw_text(draw, (cx, cy + 90), moon, TEXT, HIGHLIGHT, anchor="mm")


def _point_cards(record: HandRecord) -> list[list[Card]]:
    """The hearts and the queen of spades each seat took, for the last frame."""
    taken: list[list[Card]] = [[], [], [], []]
    for trick in record.tricks:
        taken[trick.winner] += [c for _, c in trick.plays if c.suit is Suit.HEARTS or c == _QUEEN]
    return [sorted(cards, key=lambda c: (c.suit, c.rank)) for cards in taken]


def _names(names: Mapping[int, str] | Sequence[str] | None, lang: str = "en") -> list[str]:
    found = dict(enumerate(names)) if isinstance(names, Sequence) else dict(names or {})
    return [found.get(s) or render(_p("replay", "Seat {n}", n=s + 1), lang) for s in range(4)]


def _scores_title(number: int) -> Message:
    return _p("hearts replay", "Round {number} scores", number=number)


def replay_hearts_hand(
    state: Mapping[str, Any],
    number: int,
    names: Mapping[int, str] | Sequence[str] | None = None,
    *,
    bottom: int = 0,
    lang: str = "en",
) -> Animation:
    """Round ``number`` (from 1) of a finished game as a looping GIF: see
    :func:`hearts_hand_reel`."""
    return hearts_hand_reel(state, number, names, bottom=bottom, lang=lang).encode()


def hearts_hand_reel(
    state: Mapping[str, Any],
    number: int,
    names: Mapping[int, str] | Sequence[str] | None = None,
    *,
    bottom: int = 0,
    lang: str = "en",
) -> Reel:
    """Round ``number`` (from 1) of a finished game (``State.to_dict()``), face up, trick by
    trick, its words in the language ``lang``. ``bottom`` is the seat drawn at the bottom;
    play runs clockwise on the picture."""
    record = hand_record(state, number)
    who = _names(names, lang)
    zero = (0, 0, 0, 0)
    captions, lines = _captions(record, who, lang)
    height = strip_height(WIDTH, captions)
    total = len(record.tricks)

    def draw(index: int) -> Image.Image:
        table = _felt().copy()
        if index == 0:
            hands = [list(hand) for hand in record.hands]
            _draw_hands(table, hands, who, zero, bottom, raised=record.received, lang=lang)
        elif index <= total:
            played = {card for trick in record.tricks[:index] for _, card in trick.plays}
            hands = [[c for c in hand if c not in played] for hand in record.hands]
            trick = record.tricks[index - 1]
            _draw_hands(table, hands, who, trick.points, bottom, lit=trick.winner, lang=lang)
            _draw_trick(table, trick, bottom, lang)
        else:
            points = record.tricks[-1].points if total else zero
            _draw_hands(table, _point_cards(record), who, points, bottom, lang=lang)
            _draw_scores(table, record, who, lang)
        return with_caption(table.convert("RGB"), captions[index], height)

    durations = (START_MS, *[TRICK_MS] * total, HOLD_MS)
    description = fit_description(_head(record, who, lang), _tail(record, who, lang), lines)
    return Reel(draw, durations, description, f"hearts-hand-{record.number}.gif")


def _captions(record: HandRecord, who: Sequence[str], lang: str) -> tuple[list[Caption], list[str]]:
    """A caption a frame (the pass, each trick, the scores), and the alt text's trick lines."""
    total = len(record.tricks)
    what = _DIRECTIONS.get(record.direction)
    passed = render(what, lang) if what is not None else record.direction
    heading = _p(
        "hearts replay", "Round {number} · {direction}", number=record.number, direction=passed
    )
    raised = _p("hearts replay", "raised: the cards received")
    subtitle = render(raised if record.direction != "hold" else _DIRECTIONS["hold"], lang)
    captions = [Caption(render(heading, lang), subtitle, 0.0)]
    lines = []
    previous: Sequence[int] = (0, 0, 0, 0)
    for index, trick in enumerate(record.tricks, start=1):
        gained = trick.points[trick.winner] - previous[trick.winner]
        taker = _cut(who[trick.winner])
        title = (
            _p("hearts replay", "Trick {index} · {name} takes it (+{points})",
               index=index, name=taker, points=gained)
            if gained
            else _p("hearts replay", "Trick {index} · {name} takes it", index=index, name=taker)
        )  # fmt: skip
        led = _p("hearts replay", "{name} led", name=_cut(who[trick.leader]))
        captions.append(Caption(render(title, lang), render(led, lang), index / total))
        played = (
            _p("hearts replay", "{name} {card}", name=who[s], card=card_text(c, lang))
            for s, c in trick.plays
        )
        plays = ", ".join(render(one, lang) for one in played)
        line = _p(
            "hearts replay", "Trick {index}: {plays}; {name} takes it.",
            index=index, plays=plays, name=who[trick.winner],
        )  # fmt: skip
        lines.append(render(line, lang))
        previous = trick.points
    took = render(_p("hearts replay", "the point cards each took"), lang)
    captions.append(Caption(render(_scores_title(record.number), lang), took, 1.0, True))
    return captions, lines


def _head(record: HandRecord, who: Sequence[str], lang: str) -> str:
    """The alt text's start: which round, how it was passed, and its scores."""
    what = _DIRECTIONS.get(record.direction)
    passed = render(what, lang) if what is not None else record.direction
    scores = ", ".join(f"{who[s]} {record.scores[s]}" for s in range(4))  # names and numbers
    head = _np(
        "hearts replay",
        "Replay of Hearts round {number}, face up, {direction}, {n} trick.",
        "Replay of Hearts round {number}, face up, {direction}, {n} tricks.",
        len(record.tricks),
        number=record.number,
        direction=passed,
    )
    moon = None
    if record.moon is not None:
        moon = _p("hearts replay", "{name} shot the moon.", name=who[record.moon])
    said = _p("hearts replay", "Round scores: {scores}.", scores=scores)
    return render(sentences(head, said, moon), lang)


def _tail(record: HandRecord, who: Sequence[str], lang: str) -> str:
    totals = ", ".join(f"{who[s]} {record.totals[s]}" for s in range(4))
    return render(_p("hearts replay", "Totals after the round: {totals}.", totals=totals), lang)


def _cut(name: str) -> str:
    """A name cut to fit a caption's title line with the words around it."""
    title_size = caption_sizes(WIDTH)[0]
    return fit_text(name, title_size, WIDTH / 2 - 40)
