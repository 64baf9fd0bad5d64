"""The trick in progress of a position: :class:`Trick`, :func:`play_trick`, :func:`legal_cards`.

A position inside a trick is a deal (its hands holding the cards still to play) and the
cards already played to the trick.  Encodings: a card is ``suit * 13 + rank`` (suits 0..3 =
S H D C, rank 12 the ace), a hand a 52-bit mask, seats 0..3 in play order, trump 0..4 (4 no
trump).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..cards import SUIT_MASK, card_code, card_str, seat_str
from ..errors import CardError, DealError

__all__ = ["Trick", "legal_cards", "play_trick"]


class Trick(NamedTuple):
    """The trick in progress: who led it, the cards played to it and who is winning it.

    ``npl`` cards have been played (0 at a trick boundary, then ``led``, ``win_card`` and
    ``win_seat`` are -1 and ``mask`` 0); ``led`` is the suit led, ``win_card`` the card
    winning so far and ``win_seat`` its seat, ``mask`` the 52-bit mask of the cards played.
    The player to move is ``(leader + npl) % 4``.
    """

    leader: int
    npl: int = 0
    led: int = -1
    win_card: int = -1
    win_seat: int = -1
    mask: int = 0

    @property
    def to_play(self) -> int:
        """The seat to play next."""
        return (self.leader + self.npl) & 3


def play_trick(
    masks: npt.NDArray[np.int64],
    trump: int,
    leader: int,
    cards: Sequence[str | int] | str | None,
) -> Trick:
    """Play the first ``cards`` of a trick from the hand masks (in place) and return the trick.

    Parameters
    ----------
    masks : numpy.ndarray
        ``int64[4]``: the hands of seats 0..3; the cards played are taken out of them.
    trump : int
        The trump code 0..4.
    leader : int
        The seat that leads the trick.
    cards : sequence of str or int, or str, or None
        The cards played, in play order (card text or codes; a string of cards separated by
        spaces or commas too): at most three.

    Raises
    ------
    DealError
        More than three cards, a card that is not a card, is not in the hand of the seat that
        plays it, or does not follow suit when it could.
    """
    if cards is None:
        return Trick(leader)
    if isinstance(cards, str):
        items: list[str | int] = list(cards.replace(",", " ").split())
    else:
        try:
            items = list(cards)
        except TypeError:
            raise DealError(f"invalid trick {cards!r}: expected a sequence of cards") from None
    if len(items) > 3:
        raise DealError(
            f"invalid trick {cards!r}: at most 3 cards of the current trick, got {len(items)}"
        )
    led = win_card = win_seat = -1
    trick_mask = 0
    for i, item in enumerate(items):
        try:
            card = card_code(item)
        except CardError as e:
            raise DealError(f"invalid trick {cards!r}: {e}") from None
        seat = (leader + i) & 3
        hand = int(masks[seat])
        if not (hand >> card) & 1:
            raise DealError(
                f"invalid trick {cards!r}: {card_str(card)} is not in {seat_str(seat)}'s hand"
            )
        suit = card // 13
        if i and suit != led and (hand >> (13 * led)) & SUIT_MASK:
            raise DealError(
                f"invalid trick {cards!r}: {seat_str(seat)} must follow suit, "
                f"not play {card_str(card)}"
            )
        masks[seat] = hand ^ (1 << card)
        trick_mask |= 1 << card
        if i == 0:
            led, win_card, win_seat = suit, card, seat
        elif (suit == win_card // 13 and card > win_card) or (
            suit == trump and win_card // 13 != trump
        ):
            win_card, win_seat = card, seat
    return Trick(leader, len(items), led, win_card, win_seat, trick_mask)


def legal_cards(hand: int, trick: Trick) -> list[int]:
    """The codes of the cards of ``hand`` (a mask) that may be played to ``trick``, low first.

    Follow the suit led if able, else any card.
    """
    mask = hand
    if trick.npl:
        follow = hand & (SUIT_MASK << (13 * trick.led))
        if follow:
            mask = follow
    return [c for c in range(52) if (mask >> c) & 1]
