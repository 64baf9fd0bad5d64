"""Double-dummy solver for Solo Whist.

Given all four hands (13 cards each, or an ending where every hand holds the same number of
cards), the trump suit or no trump, the seat on lead and the declarer side, it answers how
many tricks the declarer side takes when every player plays perfectly with all cards
visible, or the faster question "can the side take at least ``target`` tricks?".

* Normal contracts (Prop and Cop, Solo, Abundance, Royal Abundance, Declared, slams): the
  declarer side maximises its tricks and the other side minimises them.  The declarer side
  is one seat, or two seats (Prop and Cop partners, adjacent or opposite).
* Misère contracts (``misere=True``): exactly one declarer, who minimises his tricks while
  the other three maximise them; ``target`` then asks "can the declarer hold himself to at
  most ``target`` tricks?".

Modules
-------
* :mod:`.question`: :class:`Question`, what is asked (trump, leader, declarers, misère,
  target, and the deals to ask it on).
* :mod:`.single`: one deal on the calling thread: :func:`solve`, :func:`solve_leads` (every
  opening lead), and two diagnostics of the search: :func:`search_positions` (an answer and
  the size of its search) and :func:`move_order` (the order it tries the moves of a
  position in).
* :mod:`.batch`: arrays of deals (the sampler's output) in numba's threads, GIL released:
  :func:`solve_batch`, and :func:`solve_questions` for several questions in one run;
  :func:`run_stoppable` runs a batch kernel so that Ctrl-C stops its workers at once (every
  long-running kernel takes a ``stop`` flag as its last argument).
* the numba kernels, private: ``_kernels`` (entry points), ``_search`` (the search),
  ``_moves`` (move ordering), ``_bounds`` (bounds), ``_table`` (transposition table),
  ``_bits`` (lookup tables and shared encodings).

Seats are 0..3 clockwise: N E S W for a :class:`~solo_analysis.deal.Deal`, eldest, second,
third, dealer for a sampler array (:mod:`solo_analysis.cards`).  ``max_positions=None``
means no limit on the search (:data:`NO_LIMIT` for the kernels).
"""

from ._kernels import NO_LIMIT
from .batch import run_stoppable, solve_batch, solve_questions
from .question import Question
from .single import move_order, search_positions, solve, solve_leads

__all__ = [
    "NO_LIMIT",
    "Question",
    "move_order",
    "run_stoppable",
    "search_positions",
    "solve",
    "solve_batch",
    "solve_leads",
    "solve_questions",
]
