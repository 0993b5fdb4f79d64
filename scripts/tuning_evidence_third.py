#!/usr/bin/env python3
"""Third tuning recall of the evidence contract: same pool rule and "caught" rule as
tuning_evidence.py, over 60 other outputs (neither the held-out set nor the broad script's), with
sentence shapes neither earlier writer used, planted in the places a review puts text that is not
plain analysis: after a label, between the lettered items of a drafted clause, under a heading
naming proposed text, right after a line copied from the contract, after a `====` rule.

  scripts/tuning_evidence_third.py [BIN] [--show-misses] [--kinds=a,b]

Weighted to the kinds the rules fit least (defined terms, percentages, durations, references),
with a few of the others as a control. Expected values are worked out here, before byop runs.

Baseline at its first commit (main 4e61457, debug build): 151/300 = 50.3 % (defined terms 18/60,
percentages 32/60, durations 25/60, references 45/60, amounts 4/20, dates 12/20, parties 15/20;
by position: paragraph 40/54, drafting heading 8/54, copied 28/44, lettered 0/34, rule 41/62,
label 34/52). Some phrasings carry a modal ("may", "must") and so read as proposals under the
present voice rules; whether that is right is a question this set raises, not settles.
"""
import os, random, re, sys

import tuning_evidence as te  # beside this script: Python puts its folder on the path
import tuning_evidence_broad as broad  # beside this script: Python puts its folder on the path

SEED = 51733
N = 60

TERMS = ["Escrow Release Event", "Liquidity Reserve", "Qualifying Change Order", "Holdback Sum",
         "Minimum Volume Commitment", "Transition Fee", "Key Personnel Event", "Look-Back Period",
         "Retention Amount", "Deemed Acceptance Date", "Peak Season Surcharge", "Re-Tender Notice"]
WORDS = broad.WORDS

PHRASINGS = {
    "defined_term": [
        "The {v} triggers payment of the deferred fees.",
        "The Agreement relies on the term {v} to decide when the deposit is returned.",
        "The {v} is capped, so the customer cannot recover more than that figure.",
        "Key defined terms include Effective Date, Services and {v}.",
        "If a {v} occurs, the supplier may suspend delivery.",
        "Everything in the payment schedule hangs off the {v}.",
        "The licensor alone decides whether the {v} has happened.",
    ],
    "percentage": [
        "The supplier may raise its prices by {v} each year.",
        "Late payments accrue interest at a rate of {v}.",
        "The discount is {v} on every order above the threshold.",
        "Liability for data loss is limited to up to {v} of the fees paid.",
        "The agent's commission is {v} of gross receipts.",
        "The contract lets the buyer retain {v} until final acceptance.",
    ],
    "duration": [
        "The supplier has a {h} cure period for any material breach.",
        "Claims must be raised within {d} after delivery.",
        "The agreement runs for an initial {d} period and then renews.",
        "Either side may end the agreement on {n} notice.",
        "Confidentiality obligations survive for {d} after expiry.",
        "The customer has {d} to reject defective goods.",
    ],
    "reference": [
        "{v} deal with the supplier's liability for lost data.",
        "The indemnity is set out in {v}.",
        "See {v} for the payment mechanics.",
        "The carve-outs in {v} are narrower than market.",
        "Termination for convenience is governed by {v}.",
        "{v} requires thirty days' written notice of any price change.",
    ],
    "amount": ["The contract sets a cap of {v} on the supplier's liability."],
    "date": ["The exclusivity period expires on {v}."],
    "party": ["The parent guarantee is given by {org}."],
}
POSITIONS = ["paragraph", "label", "lettered", "drafting", "copied", "rule"]


def fill(kind, tpl, src, rng):
    n, low = te.norm(src), src.lower()
    for _ in range(200):
        if kind == "defined_term":
            v = rng.choice(TERMS)
            if (" " + te.norm(v).strip() + " ") in n:
                continue
            return tpl.format(v=v), v
        if kind == "percentage":
            num = rng.choice([x for x in WORDS if x > 10])
            k = rng.randrange(5)
            if k == 0:
                v, key = f"{num}.5 per cent", f"{num}.5"
            elif k == 1:
                v, key = f"{num}%", str(num)
            elif k == 2:
                v, key = f"0.{num % 10 or 7}5 percent per month", f"0.{num % 10 or 7}5"
            elif k == 3:
                v, key = f"{num} per cent", str(num)
            else:
                v, key = f"{num}.25%", f"{num}.25"
            if re.search(rf"\b{re.escape(key)}\b\s*(?:%|per)", low):
                continue
            return tpl.format(v=v), v
        if kind == "duration":
            unit = rng.choice(["days", "months", "years", "Business Days"])
            num, w = broad.absent_number(src, rng, 6, 16) if unit == "years" else broad.absent_number(src, rng, 11, 80)
            k = rng.randrange(3)
            d = f"{w} ({num}) {unit}" if k == 0 else f"{num} {unit}" if k == 1 else f"{w} {unit}"
            sing = unit.split()[-1][:-1].lower()
            h = f"{w}-{sing}" if k == 2 and w else f"{num}-{sing}"
            if "{h}" in tpl:
                return tpl.format(h=h), h
            if "{n}" in tpl:
                return tpl.format(n=f"{num} {unit}'"), f"{num} {unit}"
            if "initial {d} period" in tpl:
                d = f"{w} ({num}) {unit[:-1]}" if k == 0 else f"{num} {unit[:-1]}" if k == 1 else f"{w} {unit[:-1]}"
            return tpl.format(d=d), d
        if kind == "reference":
            k = rng.randrange(5)
            a, b = rng.randrange(31, 60), rng.randrange(2, 9)
            if k == 0:
                v, keys = f"Sections {a}.{b} and {a}.{b + 1}", [f"{a}.{b}"]
            elif k == 1:
                v, keys = f"subsection (c) of Section {a}", [f"section {a}"]
            elif k == 2:
                v, keys = f"Clause {a}.{b}.1", [f"{a}.{b}"]
            elif k == 3:
                v, keys = f"Schedule {b + 9}, Part B", [f"schedule {b + 9}"]
            else:
                v, keys = f"Section {a}({'cdefg'[b % 5]})", [f"section {a}"]
            if any(key in low for key in keys):
                continue
            s = tpl.format(v=v)
            return s[0].upper() + s[1:], v
        if kind == "amount":
            v = f"£{rng.randrange(11, 990)},{rng.randrange(100, 999)}"
            if re.sub(r"[^0-9]", "", v) in re.sub(r"[^0-9]", "", src):
                continue
            return tpl.format(v=v), v
        if kind == "date":
            v = f"{rng.randrange(2, 28)} {rng.choice(te.MONTHS)} {rng.randrange(2031, 2045)}"
            if (" " + te.norm(v).strip() + " ") in n:
                continue
            return tpl.format(v=v), v
        if kind == "party":
            org = rng.choice(broad.ORGS)
            if (" " + org.split()[0].lower() + " ") in n:
                continue
            return tpl.format(org=org), org
    raise SystemExit("no absent value")


def copied_line(src, rng):
    """A run of at least eight words of the source, as a review quotes it."""
    sents = [s.strip() for s in re.split(r"(?<=[.;])\s+", " ".join(src.split()))
             if 10 <= len(s.split()) <= 30 and '"' not in s and s[:1].isupper()]
    return rng.choice(sents) if sents else None


def place(sentence, pos, src, rng):
    """Lines to insert and the offset of the planted sentence's line among them."""
    if pos == "label":
        return ["", f"**{rng.choice(['Risk', 'Note', 'Issue', 'Why it matters'])}:** {sentence}"], 1
    if pos == "lettered":
        return ["", "**Proposed clause:**", "", "(a) The Supplier shall keep the records for audit;",
                f"(b) {sentence}", "(c) The Customer shall pay any undisputed amount."], 4
    if pos == "drafting":
        return ["", "### Proposed Redline Revisions", "", sentence, ""], 3
    if pos == "copied":
        c = copied_line(src, rng)
        if c:
            return ["", f"> {c}", "", sentence], 3
    if pos == "rule":
        return ["", "====", "", sentence], 3
    return ["", sentence], 1


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    bin_ = os.path.realpath(args[0] if args else os.path.join(te.ROOT, "target", "release", "byop"))
    show = "--show-misses" in sys.argv
    only = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--kinds=")), None)
    # the broad script's outputs, by its own choice rule, are left out
    taken, brng = set(), random.Random(broad.SEED)
    for name in te.tuning_pool(brng):
        if len(taken) == broad.N:
            break
        lines = open(os.path.join(te.OUTPUTS, name + ".ai.md"), encoding="utf-8").read().split("\n")
        body = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if body and te.slots(lines, body):
            taken.add(name)
    rng = random.Random(SEED)
    pool = [p for p in te.tuning_pool(rng) if p not in taken]
    tmp = te.workspace("byop-tuning-third-")
    plants, chosen = [], 0
    for name in pool:
        if chosen == N:
            break
        path = os.path.join(te.OUTPUTS, name + ".ai.md")
        lines = open(path, encoding="utf-8").read().split("\n")
        body = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        sl = te.slots(lines, body) if body else []
        if not sl:
            continue
        chosen += 1
        src = open(te.source_of(path), encoding="utf-8", errors="replace").read()
        for kind, phr in PHRASINGS.items():
            tpl, pos, at = rng.choice(phr), rng.choice(POSITIONS), rng.choice(sl)
            if kind in ("amount", "date", "party") and chosen % 3:
                continue
            if only and kind not in only:
                continue
            sentence, v = fill(kind, tpl, src, rng)
            ins, k = place(sentence, pos, src, rng)
            copy = lines[:at] + ins + lines[at:]
            rel = f"outputs/{name}__{kind}.ai.md"
            open(os.path.join(tmp, rel), "w", encoding="utf-8").write("\n".join(copy))
            plants.append((rel, kind, at + k, ins[k], v, pos))
    te.score_plants(bin_, tmp, plants, show, miss_width=40)


if __name__ == "__main__":
    main()
