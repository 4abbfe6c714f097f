"""A solitaire hint's chance of clearing the grid, in a sentence (the Quatorze hint's): what
the search knows, exact or sampled, as a message in the member's language."""

from __future__ import annotations

from i18n import Message, _
from i18n.formats import Percent


def chance_words(chance: float | None, orders: int, stock: int) -> Message | None:
    """What the hint knows of its move's chance, in a sentence (None when it knows nothing).

    >>> print(chance_words(0.875, 0, 3))
    With best play, 88% of the possible orders of the stock clear the grid after it.
    >>> from i18n import render
    >>> print(render(chance_words(1873 / 2000, 2000, 20), "de"))  # doctest: +ELLIPSIS
    Danach ... 1.873 von 2.000 ...
    """
    if chance is None:
        return None
    if orders:
        cleared = round(chance * orders)
        return _(
            "After it, the hint's play cleared the grid in {cleared} of {orders} sampled stock "
            "orders ({percent}).",
            cleared=cleared,
            orders=orders,
            percent=_percent(cleared / orders),
        )
    if stock == 0:
        if chance == 1.0:
            return _("This pair still clears the grid.")
        return _("No pair clears the grid any more; this one takes the most cards.")
    return _(
        "With best play, {percent} of the possible orders of the stock clear the grid after it.",
        percent=_percent(chance),
    )


def _percent(share: float) -> Percent:
    """A share in whole percent, never 0% or 100% unless it is exactly that (0.999: 99%)."""
    if 0.0 < share < 1.0:
        share = min(max(share, 0.01), 0.99)
    return Percent(share)
