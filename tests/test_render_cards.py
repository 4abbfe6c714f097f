"""Card sprites: sizes, modes, the cache, suit colours and hands."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageStat

from games.cards import Card, Rank, Suit, full_deck
from render.cards import (
    CARD_RATIO,
    card_height,
    card_image,
    card_text,
    cards_text,
    hand_image,
    hand_size,
    suit_colour,
)

SMALL, LARGE = 60, 120  # one width of each style: big centre suit, classic pips


def _count(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    """How many opaque pixels lie within ``tolerance`` of ``colour`` on every channel."""
    masks = [
        channel.point(lambda v, c=c: 255 if abs(v - c) <= tolerance else 0)
        for channel, c in zip(image.split()[:3], colour, strict=True)
    ]
    masks.append(image.getchannel("A").point(lambda v: 255 if v > 200 else 0))
    combined = masks[0]
    for mask in masks[1:]:
        combined = ImageChops.multiply(combined, mask)
    return combined.histogram()[255]


def _differs(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox(alpha_only=False) is not None


def _ink_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The box of the non-transparent pixels."""
    return image.getchannel("A").getbbox()


@pytest.mark.parametrize("width", [SMALL, 80, LARGE])
def test_every_card_and_the_back_render_rgba_at_the_card_ratio(width: int) -> None:
    for card in [*full_deck(), None]:
        image = card_image(card, width)
        assert image.mode == "RGBA"
        assert image.size == (width, round(width * CARD_RATIO)) == (width, card_height(width))


def test_default_width_is_80() -> None:
    assert card_image(Card.parse("AS")).size == (80, 112)


def test_the_cache_returns_the_same_object() -> None:
    card = Card.parse("7H")
    assert card_image(card, 70) is card_image(card, 70)
    assert card_image(None, 70) is card_image(None, 70)


def test_corners_are_transparent_and_the_middle_is_opaque() -> None:
    image = card_image(Card.parse("5C"), 80)
    assert image.getpixel((0, 0))[3] < 8  # LANCZOS may leave a trace
    assert image.getpixel((79, 111))[3] < 8
    assert image.getpixel((40, 56))[3] == 255


@pytest.mark.parametrize("width", [SMALL, LARGE])
def test_red_suits_are_red_and_black_suits_are_black(width: int) -> None:
    for rank in (Rank.ACE, Rank.SEVEN, Rank.QUEEN):
        for suit in Suit:
            corner = card_image(Card(rank, suit), width).crop((0, 0, width // 4, width // 2))
            red, black = _count(corner, (200, 30, 40)), _count(corner, (28, 28, 34))
            if suit.is_red:
                assert red > 5 * max(black, 1), (rank, suit)
            else:
                assert black > 5 * max(red, 1), (rank, suit)
    assert suit_colour(Suit.HEARTS) != suit_colour(Suit.SPADES)


def test_all_faces_differ_from_each_other_and_from_the_back() -> None:
    images = [card_image(card, SMALL).tobytes() for card in [*full_deck(), None]]
    assert len(set(images)) == 53


def test_court_cards_differ_in_colour_from_pip_cards() -> None:
    for suit in Suit:
        plain = card_image(Card(Rank.TEN, suit), SMALL)
        for rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
            assert _differs(plain, card_image(Card(rank, suit), SMALL))


def test_hand_width_grows_by_the_uncovered_part_of_each_card() -> None:
    cards = [Card.parse(t) for t in ("AS", "KH", "QD", "JC", "TS")]
    for width, overlap in ((80, 0.45), (60, 0.5), (100, 0.0)):
        image = hand_image(cards, width, overlap)
        step = round(width * (1 - overlap))
        assert image.mode == "RGBA"
        assert image.width == width + 4 * step
        assert image.size == hand_size(5, width, overlap)
        assert image.height > card_height(width)


def test_a_hand_of_one_card_is_one_card_wide() -> None:
    assert hand_image([Card.parse("2D")], 70).width == 70


def test_an_empty_hand_is_a_transparent_card_sized_image() -> None:
    image = hand_image([], 70)
    assert image.size == hand_size(0, 70)
    assert _ink_box(image) is None


def test_hand_size_does_not_change_with_the_selection() -> None:
    cards = [Card.parse(t) for t in ("AS", "KH", "QD")]
    assert hand_image(cards, 80).size == hand_image(cards, 80, raised=cards[:2]).size


def test_dimmed_cards_differ_and_are_darker() -> None:
    cards = [Card.parse("AS"), Card.parse("KH")]
    plain = hand_image(cards, 80, overlap=0.0)
    dimmed = hand_image(cards, 80, overlap=0.0, dim=[cards[1]])
    left, right = (0, 0, 80, plain.height), (80, 0, 160, plain.height)
    assert not _differs(plain.crop(left), dimmed.crop(left))
    assert _differs(plain.crop(right), dimmed.crop(right))
    brightness = [ImageStat.Stat(im.crop(right).convert("L")).mean[0] for im in (plain, dimmed)]
    assert brightness[1] < brightness[0]


def test_raised_cards_sit_higher() -> None:
    card = Card.parse("QS")
    lowered = hand_image([card], 80)
    lifted = hand_image([card], 80, raised=[card])
    lifted_box, lowered_box = _ink_box(lifted), _ink_box(lowered)
    assert lifted_box is not None and lowered_box is not None
    assert lifted_box[1] < lowered_box[1]
    assert lowered_box[3] == lowered.height


def test_hands_may_show_backs() -> None:
    image = hand_image([None, None, Card.parse("3H")], 60)
    assert image.width == hand_size(3, 60)[0]


def test_hand_image_does_not_mutate_cached_sprites() -> None:
    card = Card.parse("9D")
    before = card_image(card, 80).tobytes()
    hand_image([card, card], 80, dim=[card], raised=[card])
    assert card_image(card, 80).tobytes() == before


def test_bad_overlap_is_rejected() -> None:
    with pytest.raises(ValueError):
        hand_image([Card.parse("AS")], 80, overlap=1.0)


def test_card_text_names_cards_in_words() -> None:
    assert card_text(Card.parse("QS")) == "queen of spades"
    assert card_text(Card.parse("TD")) == "ten of diamonds"
    assert card_text(Card.parse("AH")) == "ace of hearts"
    assert card_text(None) == "a face-down card"
    assert cards_text([Card.parse("2C"), None]) == "two of clubs and a face-down card"
    assert (
        cards_text([Card.parse("QS"), Card.parse("TD")], "fr") == "dame de pique et dix de carreau"
    )
    assert card_text(Card.parse("QS"), "de") == "Pik-Dame"
    assert card_text(Card.parse("TH"), "ja") == "ハートの10"
    assert cards_text([]) == "no cards"
