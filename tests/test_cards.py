"""Tests for card, hand and deal notation (solo_analysis.cards)."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solo_analysis import Deal, Hand, card_str, parse_card
from solo_analysis.cards import (
    FULL_MASK,
    NT,
    RANKS,
    SEATS,
    SUIT_SYMBOLS,
    SUITS,
    card_rank,
    card_suit,
    make_card,
    parse_seat,
    parse_suit,
    parse_trump,
    seat_str,
    trump_str,
)
from solo_analysis.errors import (
    CardCountError,
    CardError,
    DealError,
    DuplicateCardError,
    HandError,
    SeatError,
    SoloAnalysisError,
    TrumpError,
)
from solo_analysis.hand import canonical_pbn_mask, cards_from_text, parse_pbn_hand

PBN = "AKQ.JT9.876.5432"
DEAL_PBN = "N:AKQ.JT9.876.5432 JT9.876.5432.AKQ 876.5432.AKQ.JT9 5432.AKQ.JT9.876"


def one_line_quoting(exc: BaseException, text: str) -> None:
    message = str(exc)
    assert "\n" not in message
    assert repr(text) in message


# ---------------------------------------------------------------------------
# encoding


def test_encoding_constants() -> None:
    assert SUITS == "SHDC"
    assert RANKS == "23456789TJQKA"
    assert SEATS == "NESW"
    assert SUIT_SYMBOLS == "♠♥♦♣"
    assert NT == 4
    assert parse_card("2S") == 0
    assert parse_card("AS") == 12
    assert parse_card("2H") == 13
    assert parse_card("AC") == 51
    assert make_card(3, 12) == 51
    assert (card_suit(38), card_rank(38)) == (2, 12)


# ---------------------------------------------------------------------------
# cards


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AS", "AS"),
        ("SA", "AS"),
        ("as", "AS"),
        ("sA", "AS"),
        ("10H", "TH"),
        ("H10", "TH"),
        ("TH", "TH"),
        ("th", "TH"),
        ("ht", "TH"),
        ("♠A", "AS"),
        ("A♠", "AS"),
        ("A♤", "AS"),
        ("♡10", "TH"),
        ("10♥", "TH"),
        ("♢k", "KD"),
        ("♦K", "KD"),
        ("7♧", "7C"),
        ("♣7", "7C"),
        ("7h", "7H"),
        ("  QD ", "QD"),
        ("A♠\ufe0f", "AS"),
    ],
)
def test_parse_card_formats(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize(
    "text, problem",
    [
        ("1S", "unknown rank"),
        ("S1", "unknown rank"),
        ("XH", "unknown rank"),
        ("ASS", "unknown rank"),
        ("AX", "unknown suit"),
        ("10X", "unknown suit"),
        ("", "malformed"),
        ("A", "malformed"),
        ("10", "malformed"),
        ("ZZZZ", "malformed"),
        ("XY", "malformed"),
        ("ﬆ", "malformed"),
    ],
)
def test_parse_card_errors(text: str, problem: str) -> None:
    with pytest.raises(CardError, match=problem) as info:
        parse_card(text)
    one_line_quoting(info.value, text)


def test_parse_card_not_text() -> None:
    with pytest.raises(CardError):
        parse_card(12)  # type: ignore[arg-type]


def test_card_str() -> None:
    assert card_str(12) == "AS"
    assert card_str(21) == "TH"
    assert card_str(39) == "2C"
    assert card_str(12, symbols=True) == "A♠"
    assert card_str(21, symbols=True) == "10♥"
    assert card_str(np.int8(51)) == "AC"


@pytest.mark.parametrize("code", [-1, 52, 1.0, "AS", True, None])
def test_card_str_invalid(code: object) -> None:
    with pytest.raises(CardError) as info:
        card_str(code)  # type: ignore[arg-type]
    assert repr(code) in str(info.value)


@pytest.mark.parametrize("code", range(52))
def test_card_round_trip(code: int) -> None:
    assert parse_card(card_str(code)) == code
    assert parse_card(card_str(code, symbols=True)) == code
    assert parse_card(card_str(code).lower()) == code
    assert parse_card(card_str(code)[::-1]) == code


# ---------------------------------------------------------------------------
# seats, suits, trumps


@pytest.mark.parametrize(
    "text, seat",
    [
        ("N", 0),
        ("n", 0),
        ("north", 0),
        ("North", 0),
        ("E", 1),
        ("east", 1),
        ("s", 2),
        ("SOUTH", 2),
        ("w", 3),
        ("West", 3),
        (0, 0),
        (3, 3),
    ],
)
def test_parse_seat(text: str | int, seat: int) -> None:
    assert parse_seat(text) == seat


@pytest.mark.parametrize("text", ["X", "", "nort", 4, -1, None, "NE"])
def test_parse_seat_errors(text: object) -> None:
    with pytest.raises(SeatError) as info:
        parse_seat(text)  # type: ignore[arg-type]
    assert repr(text) in str(info.value)


def test_seat_str() -> None:
    assert [seat_str(i) for i in range(4)] == list("NESW")
    with pytest.raises(SeatError, match="4"):
        seat_str(4)


@pytest.mark.parametrize(
    "text, trump",
    [
        ("S", 0),
        ("s", 0),
        ("spades", 0),
        ("Spade", 0),
        ("♠", 0),
        ("♤", 0),
        ("h", 1),
        ("Hearts", 1),
        ("♥", 1),
        ("D", 2),
        ("diamonds", 2),
        ("♦", 2),
        ("c", 3),
        ("clubs", 3),
        ("♣", 3),
        ("♧", 3),
        (None, 4),
        ("NT", 4),
        ("nt", 4),
        ("N", 4),
        ("notrump", 4),
        ("no-trump", 4),
        ("No Trumps", 4),
        ("none", 4),
        (2, 2),
        (4, 4),
    ],
)
def test_parse_trump(text: str | None, trump: int) -> None:
    assert parse_trump(text) == trump


@pytest.mark.parametrize("text", ["X", "", "trumps", 5, -1, 1.0, "SH"])
def test_parse_trump_errors(text: object) -> None:
    with pytest.raises(TrumpError) as info:
        parse_trump(text)  # type: ignore[arg-type]
    assert repr(text) in str(info.value)


def test_trump_str_and_parse_suit() -> None:
    assert [trump_str(t) for t in range(5)] == ["S", "H", "D", "C", "NT"]
    assert [parse_suit(s) for s in ("S", "hearts", "♦", "c", 3)] == [0, 1, 2, 3, 3]
    with pytest.raises(CardError, match="'NT'"):
        parse_suit("NT")
    with pytest.raises(TrumpError):
        trump_str(5)


# ---------------------------------------------------------------------------
# hands

HAND_FORMATS = [
    "AKQ.JT9.876.5432",
    "akq.j109.876.5432",
    " AKQ . J10 9 . 876 . 5432 ",
    "AS KS QS JH TH 9H 8D 7D 6D 5C 4C 3C 2C",
    "AS KS QS JH 10H 9H 8D 7D 6D 5C 4C 3C 2C",
    "as ks qs jh th 9h 8d 7d 6d 5c 4c 3c 2c",
    "SA SK SQ HJ H10 H9 D8 D7 D6 C5 C4 C3 C2",
    "AS,KS,QS,JH,TH,9H,8D,7D,6D,5C,4C,3C,2C",
    "AS, KS, QS, JH, TH, 9H, 8D, 7D, 6D, 5C, 4C, 3C, 2C",
    "2C 3C 4C 5C 6D 7D 8D 9H TH JH QS KS AS",
    "A♠ K♠ Q♠ J♥ 10♥ 9♥ 8♦ 7♦ 6♦ 5♣ 4♣ 3♣ 2♣",
    "♠A ♠K ♠Q ♥J ♥10 ♥9 ♦8 ♦7 ♦6 ♣5 ♣4 ♣3 ♣2",
    "S:AKQ H:JT9 D:876 C:5432",
    "s:akq h:j109 d:876 c:5432",
    "C:5432 D:876 H:JT9 S:AKQ",
    "S: AKQ, H: JT9, D: 876, C: 5432",
    "♠AKQ ♥JT9 ♦876 ♣5432",
    "♠ AKQ ♥ J109 ♦ 876 ♣ 5432",
    "S AKQ H JT9 D 876 C 5432",
    "SAKQ HJT9 D876 C5432",
]


@pytest.mark.parametrize("text", HAND_FORMATS)
def test_hand_formats_agree(text: str) -> None:
    assert Hand.parse(text) == Hand.parse(PBN)


@pytest.mark.parametrize(
    "text",
    [
        "AKQJT98765432...",
        "AKQJT98765432.-.-.-",
        "S:AKQJT98765432",
        "S:AKQJT98765432 H:- D:- C:-",
        "♠AKQJT98765432 ♥- ♦ ♣-",
        "S AKQJT98765432 H - D - C -",
    ],
)
def test_hand_voids(text: str) -> None:
    hand = Hand.parse(text)
    assert str(hand) == "AKQJT98765432..."
    assert hand.lengths() == (13, 0, 0, 0)


def test_hand_views() -> None:
    hand = Hand.parse(PBN)
    assert hand.codes == (12, 11, 10, 22, 21, 20, 32, 31, 30, 42, 41, 40, 39)
    assert [card_str(c) for c in hand] == "AS KS QS JH TH 9H 8D 7D 6D 5C 4C 3C 2C".split()
    arr = hand.to_array()
    assert arr.dtype == np.int8 and arr.tolist() == list(hand.codes)
    assert len(hand) == 13
    assert hand.mask == sum(1 << c for c in hand.codes)
    assert Hand.from_mask(hand.mask) == hand
    assert hand.lengths() == (3, 3, 3, 4)
    assert hand.suit_length(3) == 4 and hand.suit_length("C") == 4 and hand.suit_length("♣") == 4
    assert hand.ranks_in("H") == (9, 8, 7)
    assert hand.suit_mask(0) == 0b1110000000000
    assert hand.hcp() == 4 + 3 + 2 + 1
    assert Hand.parse("AKQJ.AKQJ.AKQJ.A").hcp() == 34
    assert "AS" in hand and "as" in hand and "♠A" in hand and 12 in hand and np.int8(12) in hand
    assert "2S" not in hand and 0 not in hand and 99 not in hand and 1.5 not in hand
    with pytest.raises(CardError):
        _ = "XX" in hand


def test_hand_str_repr() -> None:
    hand = Hand.parse("S:AKQ H:T D:- C:5432", n_cards=None)
    assert str(hand) == "AKQ.T..5432"
    assert repr(hand) == "Hand('AKQ.T..5432')"
    assert eval(repr(hand)) == hand
    assert str(Hand()) == "..."
    assert eval(repr(Hand())) == Hand()
    html = Hand.parse(PBN)._repr_html_()
    assert "\n" not in html
    assert all(sym in html for sym in SUIT_SYMBOLS)
    assert html.count("color:") == 2  # hearts and diamonds
    assert "J109" in html


def test_hand_immutable_hashable() -> None:
    a = Hand.parse(PBN)
    b = Hand(reversed(a.codes))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Hand.parse("AKQ.JT9.876.543", n_cards=None)
    assert a != PBN
    with pytest.raises(AttributeError):
        a._mask = 0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(a)) == a
    assert Hand(a) == a
    assert Hand(np.array(a.codes, dtype=np.int8)) == a


def test_hand_constructor_errors() -> None:
    with pytest.raises(DuplicateCardError, match="'AS'"):
        Hand([12, 11, 12])
    with pytest.raises(CardError, match="52"):
        Hand([52])
    with pytest.raises(CardError):
        Hand([1.0])  # type: ignore[list-item]
    with pytest.raises(HandError):
        Hand(5)  # type: ignore[arg-type]
    with pytest.raises(HandError, match=str(1 << 52)):
        Hand.from_mask(1 << 52)
    with pytest.raises(HandError):
        Hand.from_mask(-1)


@pytest.mark.parametrize(
    "text, error, fragment",
    [
        ("AKQ.JT9.876.543", CardCountError, "12 cards"),
        ("AKQJT98765432.A..", CardCountError, "14 cards"),
        ("AS KS", CardCountError, "2 cards"),
        ("", CardCountError, "0 cards"),
        ("AKQ.JT9.876", HandError, "dots"),
        ("AKQ.JT9.876.54.32", HandError, "dots"),
        ("AKQ.S.876.5432", HandError, "unexpected suit"),
        ("AKQ.JT9.876.5431", CardError, "unknown rank '1'"),
        ("AKQ.JT9.876.543X", CardError, "unknown rank 'X'"),
        ("AKQ.JT9.8760.543", CardError, "unknown rank '0'"),
        ("AS KS 1H", CardError, "unknown rank '1'"),
        ("AS KS QX", CardError, "unknown suit 'X'"),
        ("AS K", CardError, "malformed"),
        ("xyz abc", CardError, "malformed"),
        ("hello world", CardError, "unknown rank 'E'"),
        ("S:AKQ H:J-", HandError, "void"),
        ("S:- AK", HandError, "void"),
        ("S:AKZ", CardError, "unknown rank 'Z'"),
        ("AKQ.AKQ.AKQ.AKQA", DuplicateCardError, "'AC'"),
        ("AS KS AS", DuplicateCardError, "'AS'"),
        ("S:AK H:2 S:K", DuplicateCardError, "'KS'"),
    ],
)
def test_hand_parse_errors(text: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment) as info:
        Hand.parse(text)
    one_line_quoting(info.value, text)


def test_hand_parse_n_cards() -> None:
    assert len(Hand.parse("A.K.Q.J", n_cards=4)) == 4
    assert len(Hand.parse("A.K.Q.J", n_cards=None)) == 4
    assert len(Hand.parse("...", n_cards=None)) == 0
    assert len(Hand.parse("", n_cards=None)) == 0
    with pytest.raises(CardCountError, match="expected 5"):
        Hand.parse("A.K.Q.J", n_cards=5)
    with pytest.raises(CardCountError, match="at most 13"):
        Hand.parse("AKQJT98765432.A..", n_cards=None)
    with pytest.raises(HandError, match="n_cards"):
        Hand.parse(PBN, n_cards=14)
    with pytest.raises(HandError):
        Hand.parse(None)  # type: ignore[arg-type]


def test_cards_from_text() -> None:
    assert cards_from_text("AS, 10h ♦2") == [12, 21, 26]
    assert cards_from_text("") == []
    assert cards_from_text("S:AK C:2") == [12, 11, 39]
    assert cards_from_text("AKQJT98765432.AK..") == list(range(12, -1, -1)) + [25, 24]
    with pytest.raises(DuplicateCardError, match="'AS'") as info:
        cards_from_text("AS 10H SA")
    one_line_quoting(info.value, "AS 10H SA")
    with pytest.raises(CardError) as info2:
        cards_from_text("AS 1H")
    one_line_quoting(info2.value, "AS 1H")


# ---------------------------------------------------------------------------
# deals


def test_deal_from_pbn() -> None:
    deal = Deal.from_pbn(DEAL_PBN)
    assert deal["N"] == Hand.parse(PBN) == deal["n"] == deal[0] == deal["north"]
    assert deal["E"] == Hand.parse("JT9.876.5432.AKQ") == deal[1]
    assert deal["w"] == Hand.parse("5432.AKQ.JT9.876")
    assert list(deal) == list(deal.hands)
    assert deal.n_cards == 13
    assert str(deal) == deal.to_pbn() == DEAL_PBN
    assert (
        deal.to_pbn(first="E")
        == "E:JT9.876.5432.AKQ 876.5432.AKQ.JT9 5432.AKQ.JT9.876 AKQ.JT9.876.5432"
    )
    assert Deal.from_pbn(deal.to_pbn("W")) == deal
    assert Deal.from_pbn(DEAL_PBN[2:]) == deal  # no seat prefix: N first
    assert Deal.from_pbn("  n : " + DEAL_PBN[2:].lower()) == deal
    assert Deal.from_pbn(f'[Deal "{DEAL_PBN}"]') == deal
    assert Deal(DEAL_PBN) == deal
    assert Deal(deal.hands) == deal
    assert Deal([str(h) for h in deal]) == deal
    assert eval(repr(deal)) == deal
    assert repr(deal) == f"Deal({DEAL_PBN!r})"
    assert hash(deal) == hash(Deal.from_pbn(DEAL_PBN)) and deal != DEAL_PBN
    assert pickle.loads(pickle.dumps(deal)) == deal
    with pytest.raises(SeatError):
        deal["X"]


def test_deal_array() -> None:
    deal = Deal.from_pbn(DEAL_PBN)
    arr = deal.to_array()
    assert arr.shape == (4, 13) and arr.dtype == np.int8
    assert arr[0].tolist() == list(deal["N"].codes)
    assert Deal.from_array(arr) == deal
    assert Deal.from_array(arr[:, ::-1].astype(np.int64)) == deal
    assert Deal.from_array(arr.tolist()) == deal


def test_deal_endings() -> None:
    deal = Deal.from_pbn("S:A... K... Q... J...")
    assert deal["S"] == Hand([12]) and deal["W"] == Hand([11]) and deal["N"] == Hand([10])
    assert deal.n_cards == 1
    assert deal.to_array().shape == (4, 1)
    assert Deal.from_array(deal.to_array()) == deal


def test_deal_random() -> None:
    a = Deal.random(seed=7)
    assert a == Deal.random(seed=7)
    assert a != Deal.random(seed=8)
    assert a.n_cards == 13
    assert sorted(a.to_array().ravel().tolist()) == list(range(52))
    assert Deal.random(np.random.default_rng(3)) == Deal.random(3)
    Deal.random()


def test_deal_html() -> None:
    html = Deal.from_pbn(DEAL_PBN)._repr_html_()
    assert html.startswith("<table") and html.count("<tr>") == 3
    for seat in SEATS:
        assert f"<b>{seat}</b>" in html
    # N in the top row, W left and E right in the middle row, S at the bottom.
    rows = html.split("<tr>")[1:]
    assert "<b>N</b>" in rows[0] and "<b>S</b>" in rows[2]
    assert rows[1].index("<b>W</b>") < rows[1].index("<b>E</b>")
    assert html.count("color:") == 8


@pytest.mark.parametrize(
    "text, error, fragment",
    [
        ("N:A... K... Q... A...", DuplicateCardError, "'AS' is in both N's and W's"),
        ("E:A... K... A... J...", DuplicateCardError, "'AS' is in both E's and W's"),
        ("N:A... K... Q... JT...", CardCountError, "W=2"),
        ("N:... ... ... ...", CardCountError, "0 cards"),
        ("X:A... K... Q... J...", SeatError, "'X'"),
        ("N:A... K... Q...", DealError, "found 3"),
        ("N:A... K... Q... J... T...", DealError, "found 5"),
        ("N:A... K... Q... JS", DealError, "suit-dot"),
        ("N:A... K... Q... X...", CardError, "unknown rank 'X'"),
        ("N:A... K... Q... J.S..", HandError, "unexpected suit"),
        ("N:A... K... Q... JJ...", DuplicateCardError, "'JS'"),
        ("", DealError, "found 0"),
    ],
)
def test_deal_pbn_errors(text: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment) as info:
        Deal.from_pbn(text)
    one_line_quoting(info.value, text)


def test_deal_constructor_errors() -> None:
    with pytest.raises(DealError, match="got 3"):
        Deal([Hand([0]), Hand([1]), Hand([2])])
    with pytest.raises(DuplicateCardError, match="N's and S's"):
        Deal([Hand([0]), Hand([1]), Hand([0]), Hand([3])])
    with pytest.raises(CardCountError, match="N=1, E=1, S=1, W=0"):
        Deal([Hand([0]), Hand([1]), Hand([2]), Hand()])
    with pytest.raises(CardCountError, match=re.escape("expected 1..13")):
        Deal([Hand(), Hand(), Hand(), Hand()])
    with pytest.raises(DealError):
        Deal(5)  # type: ignore[arg-type]
    with pytest.raises(DealError, match="shape"):
        Deal.from_array(np.zeros((3, 13), dtype=np.int8))
    with pytest.raises(DealError, match="shape"):
        Deal.from_array(np.zeros(52, dtype=np.int8))
    with pytest.raises(DealError, match="dtype"):
        Deal.from_array(np.zeros((4, 1)) + 0.5)
    with pytest.raises(CardError, match=re.escape("0..51")):
        Deal.from_array(np.array([[0], [1], [2], [52]]))
    with pytest.raises(DuplicateCardError, match="'2S'"):
        Deal.from_array(np.array([[0, 0], [1, 2], [3, 4], [5, 6]]))
    with pytest.raises(DuplicateCardError, match="N's and E's"):
        Deal.from_array(np.array([[0], [0], [2], [3]]))
    with pytest.raises(CardCountError):
        Deal.from_array(np.zeros((4, 0), dtype=np.int8))


# ---------------------------------------------------------------------------
# property tests

hands = st.sets(st.integers(0, 51), max_size=13).map(Hand)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    k = draw(st.integers(1, 13))
    cards = draw(st.permutations(range(52)))
    return Deal([cards[i * k : (i + 1) * k] for i in range(4)])


@given(hands)
def test_hand_str_round_trip(hand: Hand) -> None:
    assert Hand.parse(str(hand), n_cards=None) == hand
    assert Hand.parse(str(hand), n_cards=len(hand)) == hand


@given(hands)
def test_hand_repr_round_trip(hand: Hand) -> None:
    assert eval(repr(hand)) == hand


@given(hands, st.booleans(), st.sampled_from([" ", ",", ", "]))
def test_hand_card_list_round_trip(hand: Hand, symbols: bool, sep: str) -> None:
    text = sep.join(card_str(c, symbols=symbols) for c in hand)
    assert Hand.parse(text, n_cards=None) == hand
    assert cards_from_text(text) == list(hand.codes)


@given(hands)
def test_hand_mask_round_trip(hand: Hand) -> None:
    assert Hand.from_mask(hand.mask) == hand
    assert Hand(hand.to_array()) == hand
    assert sum(hand.lengths()) == len(hand)


@given(deals(), st.sampled_from(SEATS))
def test_deal_pbn_round_trip(deal: Deal, first: str) -> None:
    assert Deal.from_pbn(deal.to_pbn()) == deal
    assert Deal.from_pbn(deal.to_pbn(first=first)) == deal
    assert eval(repr(deal)) == deal


@given(hands)
def test_canonical_pbn_fast_path_reads_every_hand(hand: Hand) -> None:
    assert canonical_pbn_mask(str(hand)) == hand.mask  # str: the canonical suit-dot form


@given(st.text(st.sampled_from(list("AKQJT98765432akqt10.- S"))))
def test_canonical_pbn_fast_path_agrees_with_the_parser(text: str) -> None:
    """The fast path reads a hand only where the full parser reads the same cards."""
    mask = canonical_pbn_mask(text)
    if mask is None:
        return
    codes = parse_pbn_hand(text)
    assert len(codes) == len(set(codes))  # the parser's duplicate check would pass
    assert mask == sum(1 << c for c in codes)


@pytest.mark.parametrize(
    "text",
    # the last, a card twice: the parser names it
    ["akq.jt9.876.5432", "AKQ.J10.9.", "AKQ.JT9.876", "A K...", "AA..."],
)
def test_canonical_pbn_fast_path_leaves_other_forms_to_the_parser(text: str) -> None:
    assert canonical_pbn_mask(text) is None


@given(deals())
def test_deal_array_round_trip(deal: Deal) -> None:
    arr = deal.to_array()
    assert arr.shape == (4, deal.n_cards)
    assert Deal.from_array(arr) == deal


_HAND_ALPHABET = st.sampled_from(
    list('AKQJT9876543210SHDCshdcXx.-:, \t♠♥♦♣♤♡♢♧\ufe0f[]"') + ["ﬆ", "ß"]
)


@given(st.one_of(st.text(), st.text(_HAND_ALPHABET)), st.sampled_from([13, None, 2]))
def test_hand_parse_fuzz(text: str, n_cards: int | None) -> None:
    try:
        hand = Hand.parse(text, n_cards=n_cards)
    except SoloAnalysisError as exc:
        assert "\n" not in str(exc)
        assert repr(text) in str(exc)
    else:
        assert len(hand) <= 13
        assert n_cards is None or len(hand) == n_cards


@given(st.one_of(st.text(), st.text(_HAND_ALPHABET)))
def test_deal_and_card_parse_fuzz(text: str) -> None:
    for parse in (Deal.from_pbn, parse_card, cards_from_text, parse_trump, parse_seat):
        try:
            parse(text)
        except SoloAnalysisError as exc:
            assert "\n" not in str(exc)
            assert repr(text) in str(exc) or repr(text.strip()) in str(exc)


def test_full_mask() -> None:
    assert Hand.from_mask(FULL_MASK).codes[0] == 12
    assert len(Hand.from_mask(FULL_MASK)) == 52


@pytest.mark.parametrize(
    ("text", "dotted"),
    [
        ("AKQJT9 AK AK2 32", "AKQJT9.AK.AK2.32"),
        ("akq jt9 876 5432", "AKQ.JT9.876.5432"),
        ("AKQJT9, AK, AK2, 32", "AKQJT9.AK.AK2.32"),
        ("AKQJT9/AK/AK2/32", "AKQJT9.AK.AK2.32"),
        ("AKQJT98765432 - - -", "AKQJT98765432..."),
    ],
)
def test_suits_separated_by_spaces_suggest_the_dotted_form(text: str, dotted: str) -> None:
    with pytest.raises(CardError) as info:
        Hand.parse(text)
    message = str(info.value)
    assert f"did you mean {dotted!r} (suits separated by dots)?" in message
    assert "\n" not in message and repr(text) in message  # one line, quoting the input
    Hand.parse(dotted, n_cards=None)  # the suggestion reads


@pytest.mark.parametrize("text", ["AX KS QS JS", "AKQJT9 AK AK2", "AS KS QS J"])
def test_no_dotted_suggestion_where_it_would_be_a_guess(text: str) -> None:
    with pytest.raises(CardError) as info:
        Hand.parse(text)
    assert "did you mean" not in str(info.value)
