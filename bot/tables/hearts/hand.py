"""A Hearts player's private hand: their cards as buttons, to pick three to pass or to play a
legal one with one tap, in a message only they see (kept up to date by the Discord layer)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.drawing import draw
from bot.tables.cards import card_label, codes_label
from bot.tables.hearts.board import names
from bot.tables.screens import Button, Row, Screen, Style
from games.base import N_, IllegalAction
from games.cards import Card
from games.hearts import Phase, State
from i18n import _, _n, _p, lines, render, sentences
from i18n.formats import Listing
from i18n.messages import Text
from render.hearts import render_hearts_hand
from storage.models import Table

CARDS_A_ROW = 4  # four card buttons fit a phone's width; 13 cards take rows of 4, 3, 3, 3
PASS_SIZE = 3


@dataclass(slots=True)
class _Hand:
    """The private message as it is put together: its lines, its rows of cards, the buttons
    under them, and what the picture marks (cards picked to pass, or the legal plays)."""

    cards: list[Card]
    lines: list[Text]
    lang: str = "en"
    rows: list[Row] = field(default_factory=list)
    actions: list[Button] = field(default_factory=list)
    legal: list[Card] | None = None
    selected: list[Card] = field(default_factory=list)


def hand_screen(
    table: Table,
    state: State,
    seat: int,
    note: Text | None = None,
    picked: Sequence[Card] = (),
    *,
    lang: str = "en",
) -> Screen:
    """What ``seat`` sees privately, in the member's language ``lang``: their cards as
    buttons — to play one with one tap, or to pick three to pass (``picked`` so far) and then
    **Pass** them."""
    view = state.view(seat)
    hand = _Hand([Card.parse(c) for c in view["hand"]], [note] if note else [], lang)
    hand.lines.append(_("**Your hand** — round {number}.", number=view["hand_number"] + 1))
    seated = names(table, lang)
    if state.phase is Phase.PASS:
        _passing(hand, view, seated, state.to_act(), picked)
    elif state.phase is Phase.PLAY:
        _playing(hand, view, seated, seat)
    else:
        hand.lines.append(_("The game is over."))
    if not view["over"]:
        refresh = render(_p("button", "Refresh"), lang)
        hand.actions.append(Button(refresh, "hand=here", emoji="🔄", any_version=True))
    if hand.actions:
        hand.rows.append(tuple(hand.actions))
    picture = draw(render_hearts_hand, hand.cards, hand.legal, hand.selected, lang)
    content = render(lines(*hand.lines), lang)
    return Screen(content=content, pictures=(picture,), rows=tuple(hand.rows))


def _passing(
    hand: _Hand,
    view: Mapping[str, Any],
    names: Mapping[int, str],
    choosing: Sequence[int],
    picked: Sequence[Card],
) -> None:
    """Pick three cards and Pass; once passed, the cards and who is still choosing."""
    target = names[view["pass_to"]]
    mine = view["my_pass"]
    if mine is not None:
        hand.selected = [Card.parse(c) for c in mine]
        waiting = Listing(tuple(names[s] for s in choosing))
        hand.lines.append(
            _(
                "You pass {cards} to {name}. Waiting for {names} to choose.",
                cards=codes_label(mine),
                name=target,
                names=waiting,
            )
        )
        return
    hand.selected = [c for c in hand.cards if c in set(picked)]
    left = PASS_SIZE - len(hand.selected)
    hand.lines.append(
        sentences(
            _("Tap three cards to pass to **{name}**, then **Pass**.", name=target),
            _n("{n} more to pick.", "{n} more to pick.", left) if left else _("Ready to pass."),
        )
    )
    hand.rows.extend(pick_rows(hand.cards, hand.selected))
    label = _p("button", "Pass {picked}/{total}", picked=len(hand.selected), total=PASS_SIZE)
    hand.actions.append(
        Button(
            render(label, hand.lang),
            "pass=" + ",".join(map(str, hand.selected)),
            Style.SUCCESS,
            disabled=left != 0,
            any_version=True,
        )
    )


def _playing(hand: _Hand, view: Mapping[str, Any], names: Mapping[int, str], seat: int) -> None:
    """The cards received, the trick so far, and the cards to play on the member's turn."""
    if view["received"] and view["first_trick"] and view["pass_from"] is not None:
        giver = names[view["pass_from"]]
        received = codes_label(view["received"])
        hand.lines.append(_("You received {cards} from {name}.", cards=received, name=giver))
    if view["trick"]:
        plays = Listing(
            tuple(
                _p(
                    "hearts alt",
                    "{name} played {card}",
                    name=names[p["seat"]],
                    card=codes_label([p["card"]]),
                )
                for p in view["trick"]
            )
        )
        hand.lines.append(_p("hearts alt", "On the table: {plays}.", plays=plays))
    my_turn = view["turn"] == seat
    legal = [Card.parse(c) for c in view["legal"]] if my_turn else []
    if my_turn:
        hand.lines.append(
            _("**Your turn** — tap a card to play it.")
            if view["trick"]
            else _("**Your lead** — tap a card to play it.")
        )
    else:
        hand.lines.append(
            _(
                "{name} is to play. This message offers your cards as soon as it is your turn.",
                name=names[view["turn"]],
            )
        )
    hand.rows.extend(card_buttons(hand.cards, legal))
    hand.legal = legal if my_turn else None  # None: the picture shows the hand, none picked out


def card_rows(buttons: Sequence[Button]) -> list[Row]:
    """Card buttons in as few rows of at most :data:`CARDS_A_ROW` as fit, evened out.

    >>> [len(row) for row in card_rows([Button(str(n), str(n)) for n in range(13)])]
    [4, 3, 3, 3]
    """
    count = -(-len(buttons) // CARDS_A_ROW)
    rows: list[Row] = []
    start = 0
    for index in range(count):
        size = len(buttons) // count + (index < len(buttons) % count)
        rows.append(tuple(buttons[start : start + size]))
        start += size
    return rows


def card_buttons(cards: Sequence[Card], legal: Sequence[Card]) -> list[Row]:
    """One button a card (13 cards: four rows): one tap plays a legal card;
    the others are there, disabled, so the hand keeps its shape."""
    playable = set(legal)
    buttons = [
        Button(
            card_label(card),
            f"play={card}",
            Style.PRIMARY if card in playable else Style.SECONDARY,
            disabled=card not in playable,
            any_version=True,
        )
        for card in cards
    ]
    return card_rows(buttons)


def pick_rows(cards: Sequence[Card], picked: Sequence[Card]) -> list[Row]:
    """The cards to pass, as toggles: a tap picks a card (green) or puts it back. Each
    button carries the whole pick it leads to, so picking stores nothing."""
    chosen = set(picked)
    buttons = []
    for card in cards:
        after = [c for c in picked if c != card] if card in chosen else [*picked, card]
        buttons.append(
            Button(
                card_label(card),
                "pick=" + ",".join(map(str, after)),
                Style.SUCCESS if card in chosen else Style.SECONDARY,
                disabled=card not in chosen and len(chosen) >= PASS_SIZE,
                any_version=True,
            )
        )
    return card_rows(buttons)


def parse_pick(text: str, cards: Sequence[Card]) -> list[Card]:
    """The cards picked so far (``QS,AH``): at most three different cards of the hand."""
    try:
        picked = [Card.parse(part) for part in text.split(",") if part]
    except ValueError as exc:
        raise IllegalAction(N_("That is not a card.")) from exc
    if len(picked) > PASS_SIZE or len(set(picked)) != len(picked):
        raise IllegalAction(N_("Pick three different cards."))
    if not set(picked) <= set(cards):
        raise IllegalAction(N_("You do not hold that card."))
    return picked


def hand_key(state: State, seat: int) -> str:
    """What the private hand shows, in short: it is re-sent only when this changes (a new
    hand, the pass done, the member's turn coming or going, a card gone)."""
    view = state.view(seat)
    turn = seat in state.to_act()
    return (
        f"{view['hand_number']}:{state.phase.value}:{turn}:{len(view['hand'])}:"
        f"{view.get('my_pass') is None}"
    )
