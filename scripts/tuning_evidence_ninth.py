#!/usr/bin/env python3
"""Ninth tuning recall of the evidence contract: 150 references, durations and defined terms
in sentences written blind by another writer after the eighth round
(tests/data/grounding/tuning_ninth.json, in the sixth batch's format: kind, text, the
invented value's exact span, the outcome expected of it — "flag" or "aside" — and a
position), written before byop ran on them. Planted as the sixth batch is
(`tuning_evidence_sixth.run`: each in its own copy of an output outside the held-out set, the
value checked absent from that output's source, collateral compared with the original), with
its own seed; a table row is planted under a neutral header with as many columns as it has
cells.

  scripts/tuning_evidence_ninth.py [BIN] [--show]

Baseline at its first commit (main 8df8631, debug build), before any rule change for it:
stated values flagged 75/125 = 60.0 % (references 19/25, durations 29/50, defined terms
27/50; by position append 12/25, block 15/23, bullet 14/25, paragraph 16/27, table 18/25), the
output's own set aside 23/25 (references 4/5, durations 10/10, defined terms 9/10); no plant
skipped (no value in its output's source); collateral 0 of 150 copies.
"""
import os

import tuning_evidence as te  # beside this script: Python puts its folder on the path
import tuning_evidence_sixth as sixth

SEED = 91283
DATA = os.path.join(te.ROOT, "tests", "data", "grounding", "tuning_ninth.json")

# Templates left out, by their text's opening words, and why (none so far).
DROPPED = {}

HEADS = {
    3: "| Topic | Term | Comment |\n|---|---|---|",
    4: "| Topic | Term | Comment | Severity |\n|---|---|---|---|",
}


def table_head(row):
    """A neutral header with as many columns as the row has cells."""
    return HEADS[row.strip().count("|") - 1]


if __name__ == "__main__":
    sixth.run(DATA, SEED, "ninth", DROPPED, table_head)
