"""Bidding-odds tables: how often random hands make each contract, by seat and hand features.

A run deals random deals from a seed, solves every contract for every seat as the rules say it
is played (:mod:`~solo_analysis.tables.evaluate`), summarises the results into frequency and
feature tables with 95 % intervals (:mod:`~solo_analysis.tables.summary`) and writes them
resumably (:mod:`~solo_analysis.tables.store`, :mod:`~solo_analysis.tables.run`).
"""

from ..bidding.features import FEATURES, hand_features
from .evaluate import evaluate_chunk, evaluate_deals, result_columns
from .run import DEFAULT_CHUNK_SIZE, TableRun, run_tables
from .store import load_run
from .summary import (
    FEATURE_TABLES,
    THIN,
    compare_runs,
    contract_frequencies,
    feature_table,
    feature_tables,
    prop_pairs,
    unsolved_mask,
)

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "FEATURES",
    "FEATURE_TABLES",
    "THIN",
    "TableRun",
    "compare_runs",
    "contract_frequencies",
    "evaluate_chunk",
    "evaluate_deals",
    "feature_table",
    "feature_tables",
    "hand_features",
    "load_run",
    "prop_pairs",
    "result_columns",
    "run_tables",
    "unsolved_mask",
]
