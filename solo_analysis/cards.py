"""Card notation: the encodings of cards, suits, seats and trumps, their parsers and printers.

Encoding (the only place it is defined; everything else imports these names)
----------------------------------------------------------------------------
card
    An ``int`` 0..51, ``code = suit * 13 + rank``.

    * ``suit`` 0..3 = spades, hearts, diamonds, clubs (PBN order S H D C),
      see :data:`SUITS` / :data:`SUIT_SYMBOLS`.
    * ``rank`` 0..12 = 2, 3, ..., 9, T (ten), J, Q, K, A, see :data:`RANKS`.

    So 0 is the two of spades, 12 the ace of spades, 51 the ace of clubs.
hand
    A bitmask ``int`` with bit ``code`` set for every card held (``< 2**52``).
    The 13-bit mask of suit ``s`` is ``(mask >> (13 * s)) & 0x1FFF``
    (:data:`SUIT_MASK`), bit ``rank`` set for each rank held.
    :class:`Hand` wraps such a mask for users.
seat
    An ``int`` 0..3, clockwise: the next player to the left of seat ``i`` is
    ``(i + 1) % 4``.  Two vocabularies name the same four numbers: the compass
    letters N, E, S, W of a deal (:data:`SEATS`) and the play order of a hand of
    Solo Whist, eldest (the dealer's left, who leads first), second, third, dealer
    (:data:`PLAY_SEATS`).  So seat 0 is North and eldest hand, seat 3 West and the
    dealer, and every parser here accepts either name.
trump
    An ``int`` 0..4: 0=S, 1=H, 2=D, 3=C (same as the suit codes), 4=NT
    (:data:`NT`, no trump).  See :func:`parse_trump`.
card order
    ``Hand.codes`` and the arrays of :meth:`Hand.to_array` / :meth:`Deal.to_array`
    list cards in PBN reading order: spades first, each suit high to low.  This is
    *not* numeric order of the codes (spades have the lowest codes).

Notation
--------
Every notation has a parser and a printer that round-trip: :func:`parse_card` /
:func:`card_str`, :func:`parse_seat` / :func:`seat_str` and :func:`play_seat_str`,
:func:`parse_trump` / :func:`trump_str`; lists of cards, hands and deals
(:mod:`solo_analysis.hand`, :mod:`solo_analysis.deal`) build on these.  Bad input raises a
subclass of :class:`~solo_analysis.errors.SoloAnalysisError` (a ``ValueError``) whose one-line
message quotes the input.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any, TypeAlias

import numpy as np

from .errors import (
    CardError,
    SeatError,
    TrumpError,
)

#: a declarer side as :func:`parse_declarers` reads it
DeclarersLike: TypeAlias = "str | int | Iterable[str | int]"

__all__ = [
    "FULL_MASK",
    "HCP",
    "NT",
    "N_CARDS",
    "PLAY_SEATS",
    "RANKS",
    "SEATS",
    "SEAT_NAMES",
    "SUITS",
    "SUIT_MASK",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "DeclarersLike",
    "card_code",
    "card_rank",
    "card_str",
    "card_suit",
    "check_code",
    "make_card",
    "normalise_text",
    "parse_card",
    "parse_declarers",
    "parse_seat",
    "parse_suit",
    "parse_trump",
    "play_seat_str",
    "seat_str",
    "trump_str",
    "trump_symbol",
]

SUITS = "SHDC"  # suit code 0..3 = spades, hearts, diamonds, clubs (PBN order)
RANKS = "23456789TJQKA"  # rank index 0..12; T = ten
SEATS = "NESW"  # seat code 0..3, clockwise
PLAY_SEATS = ("eldest", "second", "third", "dealer")  # the same seats 0..3 in play order
SUIT_SYMBOLS = "♠♥♦♣"  # same order as SUITS
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SEAT_NAMES = ("north", "east", "south", "west")
NT = 4  # trump code for no trump; 0..3 are the suit codes
N_CARDS = 13  # cards in a full hand
SUIT_MASK = 0x1FFF  # 13 bits: one suit of a hand mask
FULL_MASK = (1 << 52) - 1  # all 52 cards
HCP = (0,) * 9 + (1, 2, 3, 4)  # high-card points by rank index: J=1 Q=2 K=3 A=4

# Anything that may stand for a suit, after normalisation maps onto SUITS letters.
_SYMBOL_TO_LETTER = {
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
}
_VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")  # emoji / text presentation of ♠ etc.

_SEAT_ALIASES = (
    {name: i for i, name in enumerate(SEAT_NAMES)}
    | {letter: i for i, letter in enumerate(SEATS.lower())}
    | {name: i for i, name in enumerate(PLAY_SEATS)}
)
_TRUMP_ALIASES: dict[str, int] = {}
for _i, (_letter, _name, _symbols) in enumerate(
    zip(SUITS, SUIT_NAMES, ("♠♤", "♥♡", "♦♢", "♣♧"), strict=True)
):
    for _alias in (_letter.lower(), _name, _name[:-1], *_symbols):
        _TRUMP_ALIASES[_alias] = _i
for _alias in (
    "nt",
    "n",
    "notrump",
    "notrumps",
    "no-trump",
    "no-trumps",
    "no trump",
    "no trumps",
    "no_trump",
    "none",
):
    _TRUMP_ALIASES[_alias] = NT
del _i, _letter, _name, _symbols, _alias


# ---------------------------------------------------------------------------
# cards


def make_card(suit: int, rank: int) -> int:
    """Return the card code of ``rank`` (0..12) in ``suit`` (0..3).

    Raises
    ------
    CardError
        If ``suit`` or ``rank`` is out of range.
    """
    if not (0 <= suit < 4 and 0 <= rank < 13):
        raise CardError(
            f"no card with suit {suit!r} and rank {rank!r}: expected suit 0..3, rank 0..12"
        )
    return suit * 13 + rank


def card_suit(code: int) -> int:
    """Return the suit (0..3 = S H D C) of a card code (not validated)."""
    return code // 13


def card_rank(code: int) -> int:
    """Return the rank index (0..12 = 2..A) of a card code (not validated)."""
    return code % 13


def normalise_text(text: str) -> str:
    """Map suit symbols to letters, upper-case ASCII only, drop variation selectors.

    Non-ASCII characters other than suit symbols are kept as they are (and are
    rejected later): ``str.upper`` would turn e.g. the ligature ``"ﬆ"`` into ``"ST"``.
    """
    out = []
    for ch in text:
        if ch in _VARIATION_SELECTORS:
            continue
        letter = _SYMBOL_TO_LETTER.get(ch)
        if letter is not None:
            out.append(letter)
        elif ch.isascii():
            out.append(ch.upper())
        else:
            out.append(ch)
    return "".join(out)


def check_code(code: Any, context: str = "") -> int:
    """Return a card code ``code`` as an int 0..51.

    ``context`` is added to the error message (e.g. ``" in hand 'AKQ'"``).

    Raises
    ------
    CardError
        If ``code`` is not an int 0..51 (text, a bool or a float included).
    """
    if isinstance(code, bool | np.bool_):
        raise CardError(f"invalid card code {code!r}{context}: expected an int 0..51")
    try:
        value = operator.index(code)
    except TypeError:
        raise CardError(f"invalid card code {code!r}{context}: expected an int 0..51") from None
    if not 0 <= value < 52:
        raise CardError(f"invalid card code {code!r}{context}: expected an int 0..51")
    return value


def parse_card(text: str) -> int:
    """Parse one card.

    Parameters
    ----------
    text : str
        Rank then suit or suit then rank, any case: ``"AS"``, ``"SA"``, ``"10H"``,
        ``"H10"``, ``"th"``, ``"♠A"``, ``"A♠"``, ``"7♡"``.  The ten is ``10`` or
        ``T``; suits are letters ``SHDC`` or symbols ``♠♥♦♣`` / ``♤♡♢♧``.
        Surrounding whitespace is ignored.

    Returns
    -------
    int
        The card code 0..51.

    Raises
    ------
    CardError
        If the text is not a card (unknown rank, unknown suit, or malformed).
    """
    if not isinstance(text, str):
        raise CardError(f"expected card text such as 'AS' or '10H', got {text!r}")
    s = normalise_text(text.strip())
    if not 2 <= len(s) <= 3:
        raise CardError(
            f"malformed card {text!r}: expected a rank and a suit such as 'AS' or '10H'"
        )
    if s[0] in SUITS:
        suit, rank_text = s[0], s[1:]
    elif s[-1] in SUITS:
        suit, rank_text = s[-1], s[:-1]
    elif (s[0] in RANKS and len(s) > 1) or (s[:2] == "10" and len(s) > 2):
        bad = s[2:] if s[:2] == "10" else s[1:]
        raise CardError(
            f"unknown suit {bad!r} in card {text!r}: expected one of S H D C or ♠ ♥ ♦ ♣"
        )
    else:
        raise CardError(
            f"malformed card {text!r}: expected a rank and a suit such as 'AS' or '10H'"
        )
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(
            f"unknown rank {rank_text!r} in card {text!r}: expected one of 2-9, T or 10, J, Q, K, A"
        )
    return SUITS.index(suit) * 13 + RANKS.index(rank_text)


def card_code(card: str | int) -> int:
    """A card given as text (anything :func:`parse_card` reads) or as a code 0..51: its code.

    Raises
    ------
    CardError
        If the text is not a card or the code is not an int 0..51.
    """
    if isinstance(card, str):
        return parse_card(card)
    return check_code(card)


def card_str(code: int, symbols: bool = False) -> str:
    """Format a card code.

    Parameters
    ----------
    code : int
        Card code 0..51.
    symbols : bool, default False
        ``False``: rank then suit letter, ten as ``T`` (``"AS"``, ``"TH"``, ``"2C"``).
        ``True``: rank then suit symbol, ten as ``10`` (``"A♠"``, ``"10♥"``).

    Returns
    -------
    str
        Text that :func:`parse_card` reads back to ``code``.

    Raises
    ------
    CardError
        If ``code`` is not an int 0..51.
    """
    value = check_code(code)
    suit, rank = divmod(value, 13)
    if symbols:
        return ("10" if rank == 8 else RANKS[rank]) + SUIT_SYMBOLS[suit]
    return RANKS[rank] + SUITS[suit]


def parse_suit(text: str | int) -> int:
    """Parse a suit: ``"S"``, ``"spades"``, ``"spade"``, ``"♠"``, ``"h"``, ... or an int 0..3.

    Returns
    -------
    int
        0..3 = S H D C.

    Raises
    ------
    CardError
        If the text names no suit.
    """
    if isinstance(text, int | np.integer) and not isinstance(text, bool | np.bool_):
        if 0 <= text < 4:
            return int(text)
        raise CardError(f"invalid suit {text!r}: expected 0..3 or one of S H D C")
    if isinstance(text, str):
        value = _TRUMP_ALIASES.get(normalise_text(text.strip()).lower())
        if value is not None and value != NT:
            return value
    raise CardError(f"unknown suit {text!r}: expected one of S H D C, ♠ ♥ ♦ ♣ or a suit name")


# ---------------------------------------------------------------------------
# seats, declarer sides and trumps


def parse_seat(text: str | int) -> int:
    """Parse a seat in either vocabulary: ``"N"``, ``"north"``, ``"eldest"``, ... or 0..3.

    Parameters
    ----------
    text : str or int
        A compass letter or name (``N E S W``, ``north east south west``), a play-order
        name (``eldest second third dealer``), any case, or the seat code 0..3.  Seat 0 is
        North and eldest hand, seat 3 West and the dealer.

    Returns
    -------
    int
        The seat code 0..3, clockwise.

    Raises
    ------
    SeatError
        If the text names no seat.
    """
    if isinstance(text, int | np.integer) and not isinstance(text, bool | np.bool_):
        if 0 <= text < 4:
            return int(text)
        raise SeatError(f"invalid seat {text!r}: expected 0..3 or a seat name")
    if isinstance(text, str):
        value = _SEAT_ALIASES.get(text.strip().lower())
        if value is not None:
            return value
    raise SeatError(
        f"unknown seat {text!r}: expected one of N E S W (north ...) "
        "or eldest, second, third, dealer"
    )


def _seat_index(seat: int) -> int:
    if (
        isinstance(seat, int | np.integer)
        and not isinstance(seat, bool | np.bool_)
        and 0 <= seat < 4
    ):
        return int(seat)
    raise SeatError(f"invalid seat {seat!r}: expected an int 0..3")


def seat_str(seat: int) -> str:
    """Return the compass letter (``"N"``, ``"E"``, ``"S"``, ``"W"``) of seat 0..3.

    Raises
    ------
    SeatError
        If ``seat`` is not an int 0..3.
    """
    return SEATS[_seat_index(seat)]


def play_seat_str(seat: int) -> str:
    """Return the play-order name of seat 0..3.

    The names are ``"eldest"``, ``"second"``, ``"third"`` and ``"dealer"``.

    Raises
    ------
    SeatError
        If ``seat`` is not an int 0..3.
    """
    return PLAY_SEATS[_seat_index(seat)]


def parse_declarers(declarers: DeclarersLike) -> tuple[int, ...]:
    """Parse a declarer side: ``"N"``, ``"NS"``, ``"N+E"``, ``0``, ``(0, 2)``, ``["eldest"]``.

    Parameters
    ----------
    declarers : str, int or iterable of str or int
        One seat, or several: a string of compass letters (``"NS"``), seat names
        separated by commas, spaces or ``+`` (``"eldest+third"``), a seat code, or an
        iterable of any of these.

    Returns
    -------
    tuple of int
        The seats (0..3), sorted: one (a lone declarer) or two (Prop and Cop partners); a
        three-seat side (a whole defence) is accepted too.

    Raises
    ------
    SeatError
        For an unknown seat, a repeated seat, or a side of no or four seats.
    """
    items: list[str | int]
    if isinstance(declarers, str):
        text = declarers.strip()
        if text.lower() in _SEAT_ALIASES:
            items = [text]
        elif "," in text or " " in text or "+" in text:
            items = [t for t in text.replace("+", ",").replace(" ", ",").split(",") if t]
        else:
            items = list(text)
    elif isinstance(declarers, int | np.integer):
        items = [int(declarers)]
    else:
        items = list(declarers)
    try:
        seats = [parse_seat(x) for x in items]
    except SeatError:
        raise SeatError(
            f"invalid declarer side {declarers!r}: "
            "expected one or two seats such as 'N', 'NS', 'NE'"
        ) from None
    if len(set(seats)) != len(seats):
        raise SeatError(f"invalid declarer side {declarers!r}: a seat is repeated")
    if not 1 <= len(seats) <= 3:
        raise SeatError(
            f"invalid declarer side {declarers!r}: expected one to three seats, got {len(seats)}"
        )
    return tuple(sorted(seats))


def parse_trump(text: str | int | None) -> int:
    """Parse a trump suit or no trump.

    Parameters
    ----------
    text : str, int or None
        A suit (``"S"``, ``"spades"``, ``"spade"``, ``"♠"``, ``"h"``, ...), no trump
        (``None``, ``"NT"``, ``"N"``, ``"notrump"``, ``"no-trump"``, ``"none"``, any
        case) or a trump code 0..4.

    Returns
    -------
    int
        Trump code: 0=S, 1=H, 2=D, 3=C, 4=NT.

    Raises
    ------
    TrumpError
        If the text names no suit and is not a no-trump spelling.
    """
    if text is None:
        return NT
    if isinstance(text, int | np.integer) and not isinstance(text, bool | np.bool_):
        if 0 <= text <= NT:
            return int(text)
        raise TrumpError(f"invalid trump {text!r}: expected 0..4 (0=S 1=H 2=D 3=C 4=NT)")
    if isinstance(text, str):
        value = _TRUMP_ALIASES.get(normalise_text(text.strip()).lower())
        if value is not None:
            return value
    raise TrumpError(f"unknown trump {text!r}: expected a suit (S H D C, ♠ ♥ ♦ ♣, spades...) or NT")


def trump_str(trump: int) -> str:
    """Return ``"S"``, ``"H"``, ``"D"``, ``"C"`` or ``"NT"`` for trump code 0..4.

    Raises
    ------
    TrumpError
        If ``trump`` is not an int 0..4.
    """
    if (
        isinstance(trump, int | np.integer)
        and not isinstance(trump, bool | np.bool_)
        and 0 <= trump <= NT
    ):
        return "NT" if trump == NT else SUITS[int(trump)]
    raise TrumpError(f"invalid trump {trump!r}: expected an int 0..4 (0=S 1=H 2=D 3=C 4=NT)")


def trump_symbol(trump: str | int | None) -> str:
    """The trump as shown to a player: a suit symbol (``"♠"``, ...) or ``"NT"``.

    ``trump`` is anything :func:`parse_trump` reads (a code 0..4, ``"H"``, ``"NT"``, ...).

    Raises
    ------
    TrumpError
        If ``trump`` names no trump.
    """
    code = parse_trump(trump)
    return "NT" if code == NT else SUIT_SYMBOLS[code]
