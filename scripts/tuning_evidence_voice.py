#!/usr/bin/env python3
"""Voice tuning of the evidence contract: invented references and amounts stated as what the
contract says, in sentences that also carry a proposal word ("Consider that Section 47.3 caps
liability at $2,480,000, which should be raised.", "We propose revisiting Section 47.3, which
sets …") or in a markdown table cell (`| Section 47.3 | Caps liability at $2,480,000 | High |`),
against genuine drafting proposals with the same kinds of values ("Consider adding: \"… shall
not exceed …\"", "We propose the following clause: …", a block-quoted drafted clause) that
must stay set aside.

  scripts/tuning_evidence_voice.py [BIN] [--show] [--second]

Outputs come from the pool outside the held-out set (tuning_evidence.py's rule), each plant
into its own copy at a blank line after a prose paragraph. Every value is invented and checked
absent from the output's source. Each template carries its expected outcome, written before
byop ran on the set: "flag" (the value must be a grounding finding on the planted lines) or
"aside" (no finding on the planted lines: the output's own proposal). Collateral: the copy's
findings outside the planted lines must be the original output's.

Baseline at its first commit (main d72d3bd, debug build), before any change for it: stated
values flagged 11/64 (plants 2/32), proposed values set aside 43/48 (plants 21/24: "Consider
adding: Section N sets the cap at $X." and a block-quoted clause after "We propose the
following clause:" were flagged), collateral 0 of 56. After the voice round (fc472f2): 64/64
and 48/48; the second batch 38/40 and 26/32 before any change for it, 40/40 and 32/32 after;
collateral 0 throughout.
"""
import os, random, re, shutil, sys

import tuning_evidence as te  # beside this script: Python puts its folder on the path
import tuning_evidence_fifth as fifth  # beside this script: Python puts its folder on the path

SEED = 41377
COPIES = 2

# (template, expected, position). {R}: an invented reference ("Section 47.3"), {A}: an invented
# amount. Positions: "paragraph" (its own paragraph), "append" (end of the paragraph before the
# slot), "bullet", "block" (the template is several lines, as written).
FLAG = [
    ("Consider that {R} caps liability at {A}, which should be raised.", "append"),
    ("We propose revisiting {R}, which sets the fee at {A}.", "paragraph"),
    ("Consider whether {R}, which requires a deposit of {A}, is commercially workable.", "paragraph"),
    ("The cap in {R} is {A}, which should be raised.", "append"),
    ("We propose that the parties revisit the deposit: {R} currently requires {A}.", "paragraph"),
    ("Consider negotiating {R}, which limits the supplier's liability to {A}.", "bullet"),
    ("We recommend pushing back on {R}, which provides for a termination fee of {A}.", "paragraph"),
    ("Consider that the Agreement, in {R}, sets a minimum purchase of {A}, which should be lowered.",
     "append"),
    ("We propose raising the threshold because {R} sets it at only {A}.", "paragraph"),
    ("{R} requires a security deposit of {A}, which should be reduced.", "bullet"),
    ("Consider that {R} gives the licensor a fee of {A}; this should be capped.", "append"),
    ("We propose deleting {R}, which obliges the customer to pay {A} on signing.", "paragraph"),
    # Tables: a reference in a cell is the contract's part, whatever the column.
    ("| Clause | What it says | Risk |\n|---|---|---|\n| {R} | Caps liability at {A} | High |",
     "block"),
    ("| # | Clause | Finding | Risk |\n|---|---|---|---|\n| 1 | {R} | Limits liability to {A} | High |",
     "block"),
    ("| Area | Finding | Risk |\n|---|---|---|\n| Liability | {R} caps liability at {A} | High |",
     "block"),
    ("| Risk | Finding | Severity |\n|---|---|---|\n| Risk 2 | {R} requires payment of {A} on signing | Medium |",
     "block"),
]
ASIDE = [
    ('Consider adding: "The Supplier\'s aggregate liability under {R} shall not exceed {A}."',
     "paragraph"),
    ("We propose the following clause: {R} Limitation of Liability. The Supplier's total liability "
     "shall not exceed {A}.", "paragraph"),
    ("Consider adding a new {R} that caps the supplier's liability at {A}.", "paragraph"),
    ("We propose inserting {R} (Liability Cap) to limit liability to {A}.", "bullet"),
    ("Suggested language:\n\n> {R} Cap. The Supplier's liability shall not exceed {A}.", "block"),
    ("Consider raising the cap to {A} in a new {R}.", "append"),
    ("We propose a fee of {A} under a new {R}.", "paragraph"),
    ("We propose the following clause:\n\n> {R} Termination Fee. The Customer shall pay a "
     "termination fee of {A}.", "block"),
    ("Consider adding: {R} sets the cap at {A}.", "paragraph"),
    ("We propose that {R} should cap liability at {A}.", "paragraph"),
    ("### Proposed changes\n\n| Clause | Proposed text |\n|---|---|\n| {R} (new) | The Supplier's "
     "liability shall not exceed {A}. |\n\n### Other points", "block"),
    ("Consider that a new {R} could cap liability at {A}.", "append"),
]
# A second batch (`--second`), written after the first batch's rules landed and measured
# before any change for it: other proposal words, verbs and table layouts; its own seed.
SEED_SECOND = 77405
FLAG_SECOND = [
    ("It may be worth revisiting the fact that {R} limits damages to {A}.", "append"),
    ("We suggest the client push back, since {R} fixes the termination payment at {A}.", "paragraph"),
    ("Negotiate harder here: {R} already imposes a {A} floor on purchases.", "bullet"),
    ("Because {R} states that the deposit is {A}, we would ask for a reduction.", "paragraph"),
    ("The client should note that {R} provides for liquidated damages of {A}.", "append"),
    ("Recommend seeking a carve-out, as {R} grants the licensor {A} on any change of control.",
     "paragraph"),
    ("Propose deleting the penalty, which {R} sets at {A}.", "bullet"),
    ("Ideally the threshold would be higher; {R} requires only {A} of insurance cover.", "append"),
    ("| Risk | Clause | Comment |\n|---|---|---|\n| High | {R} | Fixes the early-exit fee at {A}; negotiate down |",
     "block"),
    ("| Item | Provision | Current position | Recommendation |\n|---|---|---|---|\n| 3 | {R} | Caps the indemnity at {A} | Seek a higher cap |",
     "block"),
]
ASIDE_SECOND = [
    ("We suggest inserting a new {R} under which liability is capped at {A}.", "paragraph"),
    ("Proposed wording: {R} requires the Supplier to maintain cover of {A}.", "paragraph"),
    ("Ask for a new {R} that fixes the fee at {A}.", "bullet"),
    ("Replace the current text with: \"{R}. The Customer shall pay {A} on signing.\"", "paragraph"),
    ("If the parties agree, a new {R} could set the cap at {A}.", "append"),
    ("Suggested addition:\n\n> {R} Insurance. The Supplier shall maintain cover of at least {A}.",
     "block"),
    ("We would include the following text: {R} provides that liability is capped at {A}.",
     "paragraph"),
    ("| Clause | Proposed change |\n|---|---|\n| New {R} | Cap liability at {A} |", "block"),
]
SHAPES = ["sec_dotted", "clause", "sec_plain", "nested", "clause_sub"]


def amount(src, rng):
    digits = re.sub(r"[^0-9]", "", src)
    for _ in range(300):
        a = rng.randrange(1, 9) * 1_000_000 + rng.randrange(1, 999) * 1000
        if str(a) not in digits:
            return f"${a:,}"
    raise SystemExit("no absent amount")


def place(block, pos, lines, at):
    """(new lines replacing lines[at - drop:at], first planted line, last planted line, drop),
    planted lines as indices into the new lines."""
    if pos == "append":
        return [lines[at - 1] + " " + block], 0, 0, 1
    body = block.split("\n")
    if pos == "bullet":
        body = [f"- {block}"]
    return [""] + body + [""], 1, len(body), 0


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    bin_ = os.path.realpath(args[0] if args else os.path.join(te.ROOT, "target", "release", "byop"))
    show = "--show" in sys.argv
    second = "--second" in sys.argv
    rng = random.Random(SEED_SECOND if second else SEED)
    pool = te.tuning_pool(rng)
    tmp = te.workspace("byop-tuning-voice-")
    flag, aside = (FLAG_SECOND, ASIDE_SECOND) if second else (FLAG, ASIDE)
    jobs = [(t, "flag", p) for t, p in flag] + [(t, "aside", p) for t, p in aside]
    plants, originals = [], set()
    for t in te.targets(pool, jobs, COPIES):
        tpl, expect, pos = t.job
        ref, cap, _ = fifth.reference(SHAPES[(t.i + t.copy_no) % len(SHAPES)], t.src, rng)
        amt = amount(t.src, rng)
        block = tpl.replace("{R}", cap if tpl.startswith("{R}") else ref).replace("{A}", amt)
        block = re.sub(r"(\| |\n> )([a-z])", lambda m: m.group(1) + m.group(2).upper(), block)
        at = rng.choice(t.slots)
        ins, first, last, drop = place(block, pos, t.lines, at)
        rel = f"outputs/{t.name}__voice{t.copy_no}_{t.i}.ai.md"
        t.write(tmp, rel, at, ins, drop)
        t.keep_original(tmp)
        originals.add(t.orig)
        lo, hi = at - drop + first, at - drop + last  # planted lines, 0-based as in reports
        refv = re.search(r"(?:Section|Clause|clause|sub-clause)\s[\w.()]+", block).group(0).rstrip(".,")
        plants.append(dict(rel=rel, orig=t.orig, expect=expect, pos=pos, lo=lo, hi=hi, at=at,
                           shift=len(ins) - drop, values=[refv, amt], text=block, tpl=t.i))
    reps = te.reports(bin_, tmp, [p["rel"] for p in plants] + sorted(originals))
    rep_of = lambda rel: next((r for p, r in reps.items() if p.endswith(rel)), None)
    score = {"flag": [0, 0], "aside": [0, 0]}
    plant_ok = {"flag": [0, 0], "aside": [0, 0]}
    collateral = 0
    for p in plants:
        rep, orig = rep_of(p["rel"]), rep_of(p["orig"])
        fs = te.findings(rep) if rep else []
        on = [(c, ln, sp) for c, ln, sp in fs if ln is not None and p["lo"] <= ln <= p["hi"]]
        ok_all = True
        for v in p["values"]:
            hit = any(v in sp or (sp.strip(" ,.;") and sp.strip(" ,.;") in v and len(sp) > 3)
                      for _, _, sp in on)
            good = hit if p["expect"] == "flag" else not hit
            score[p["expect"]][0] += good
            score[p["expect"]][1] += 1
            ok_all &= good
            if show and not good:
                why = sorted({f"{c['kind']}:{c.get('reason')}" for r in (rep or {}).get("check_results", [])
                              for c in r.get("skipped_claims", [])
                              if p["lo"] - 1 <= c.get("line", 0) <= p["hi"] + 1})
                print("WRONG", p["expect"], p["tpl"], p["rel"].split("/")[1][:44], "|", v, "|",
                      p["text"].replace("\n", " / ")[:110], "|", ", ".join(why))
        plant_ok[p["expect"]][0] += ok_all
        plant_ok[p["expect"]][1] += 1
        # Collateral: findings off the planted lines, moved back to the original's numbering.
        append = p["pos"] == "append"
        changed = te.collateral(fs, orig, p, append)
        if changed is not None:
            collateral += 1
            if show:
                print("COLLATERAL", p["rel"], changed)
    shutil.rmtree(tmp)
    for k, label in (("flag", "stated as the contract's, must be flagged"),
                     ("aside", "proposed text, must stay set aside")):
        a, b = score[k]
        pa, pb = plant_ok[k]
        print(f"{label}: values {a}/{b}, plants {pa}/{pb}")
    print(f"collateral: {collateral} of {len(plants)} copies")


if __name__ == "__main__":
    main()
