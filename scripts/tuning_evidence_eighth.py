#!/usr/bin/env python3
"""Eighth tuning recall of the evidence contract: 160 references, durations and defined terms
in sentences written blind by another writer after the seventh round
(tests/data/grounding/tuning_eighth.json, in the sixth batch's format: kind, text, the
invented value's exact span, the outcome expected of it — "flag" or "aside" — and a
position), written before byop ran on them. Planted as the sixth batch is
(`tuning_evidence_sixth.run`: each in its own copy of an output outside the held-out set, the
value checked absent from that output's source, collateral compared with the original), with
its own seed; a table row is planted under a neutral header with as many columns as it has
cells.

  scripts/tuning_evidence_eighth.py [BIN] [--show]

Baseline at its first commit (main 03c77c1, debug build), before any rule change for it:
stated values flagged 66/121 = 54.5 % (references 15/31, durations 26/42, defined terms
25/48; by position append 19/30, block 3/12, bullet 10/29, paragraph 25/36, table 9/14), the
output's own set aside 23/30 (references 7/8, durations 7/10, defined terms 9/12); 9 plants
skipped as the source has the value (8 durations, 1 reference); collateral 0 of 151 copies.
"""
import os

import tuning_evidence as te  # beside this script: Python puts its folder on the path
import tuning_evidence_sixth as sixth

SEED = 80917
DATA = os.path.join(te.ROOT, "tests", "data", "grounding", "tuning_eighth.json")

# Templates left out, by their text's opening words, and why (none so far).
DROPPED = {}

HEADS = {
    3: "| Issue | Provision | Observation |\n|---|---|---|",
    4: "| Issue | Provision | Observation | Risk |\n|---|---|---|---|",
}


if __name__ == "__main__":
    sixth.run(DATA, SEED, "eighth", DROPPED, sixth.head_by_cells(HEADS))
