"""Bidding: the auction's procedure, hand features, and the bidding policy.

:mod:`~solo_analysis.bidding.auction` replays an auction under a rule set's procedure and says
which calls are legal; :mod:`~solo_analysis.bidding.features` computes the hand features the
odds tables are cut by; :mod:`~solo_analysis.bidding.policy` is the replaceable bidding policy
the advice conditions its deals on (what a seat that passed, or called Solo, may hold).
"""

from .auction import COP, PASS, Auction, Call, parse_auction, parse_call

__all__ = ["COP", "PASS", "Auction", "Call", "parse_auction", "parse_call"]
