#!/usr/bin/env python3
"""Sixth tuning recall of the evidence contract: references, durations and defined terms in
sentences written blind by another writer (tests/data/grounding/tuning_sixth.json, each with
the invented value's exact span and the outcome expected of it, written before byop ran on
them): "flag" (stated as what the contract says: a grounding finding must cover the value) or
"aside" (the output's own proposal, question, market or law comment: no finding on it). Each
is planted in its position — a paragraph of its own, the end of an analysis paragraph, a
bullet, a row of a table (under a header written here), or a block of several lines as
written — into its own copy of an output from the pool outside the held-out set
(tuning_evidence.py's rule).

  scripts/tuning_evidence_sixth.py [BIN] [--show]

The value is checked absent from that output's source; a plant whose value the source has is
skipped and counted. Collateral: a copy's findings off the planted lines must be the original
output's.

Baseline at its first commit (main 987bf17, release build), before any rule change for it:
stated values flagged 85/133 = 63.9 % (references 35/44, durations 32/44, defined terms
18/45; by position append 14/24, block 5/8, bullet 27/38, paragraph 30/47, table 9/16), the
output's own set aside 20/27 (references 6/9, durations 8/9, defined terms 6/9); 5 plants
skipped as the source has the value (3 durations, 2 references); collateral 0 of 160 copies.
After the sixth round's rules (branch s14-recall, docs/evidence-measurement.md "recall round
6"): stated 99/133 (references 39/44, durations 34/44, defined terms 26/45), the output's own
23/27, collateral 0 of 160. The misses left are listed there by cause.
"""
import json, os, random, re, shutil, sys

import tuning_evidence as te  # beside this script: Python puts its folder on the path

SEED = 66043
DATA = os.path.join(te.ROOT, "tests", "data", "grounding", "tuning_sixth.json")

# Templates left out, by their text's opening words, and why (none so far).
DROPPED = {}

# The header a table row is planted under (every row has four cells).
TABLE_HEAD = "| Issue | Provision | Observation | Risk |\n|---|---|---|---|"

NUMBER_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                     "eighty": 80, "ninety": 90})
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
            "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}
WORD_OF = {n: w for w, n in NUMBER_WORDS.items()}
WORD_OF.update({n + k: f"{WORD_OF[n]}-{WORD_OF[k]}" for n in range(20, 100, 10) for k in range(1, 10)})


def numbers(claim):
    """The numbers a duration claim names: its digits when it has any ("forty-seven (47)"),
    else its number words ("eleven", "forty-seven") or ordinals ("fifth")."""
    low = claim.lower()
    digits = {float(d) for d in re.findall(r"\d+(?:\.\d+)?", low)}
    if digits:
        return digits
    out = set()
    for w in re.findall(r"[a-z]+(?:-[a-z]+)?", low):
        parts = w.split("-")
        if all(p in NUMBER_WORDS for p in parts):
            out.add(float(sum(NUMBER_WORDS[p] for p in parts)))
        elif w in ORDINALS:
            out.add(float(ORDINALS[w]))
    return out


UNITS = ["hour", "day", "week", "month", "year", "anniversary", "net"]


def duration_in(src, claim):
    """Does the source state this duration (its number, in digits or words, before its unit)?
    A compound one ("4 years and 3 months") counts when any of its parts is there."""
    low = src.lower()
    if " and " in claim and not re.search(r"hundred and", claim):
        return any(duration_in(src, part) for part in claim.split(" and "))
    unit = next((u for u in UNITS if u in claim.lower()), None)
    for n in numbers(claim):
        forms = {f"{n:g}"} | ({WORD_OF[int(n)]} if n == int(n) and int(n) in WORD_OF else set())
        for f in forms:
            num = rf"(?<![\w.-]){re.escape(f)}(?:st|nd|rd|th)?\b"
            if unit == "net" and re.search(rf"\bnet\s*{num}|{num}[\s\-()]*days", low):
                return True
            if unit and unit != "net" and re.search(
                    rf"{num}[\s\-()\d]*(?:business\s+|calendar\s+)?{unit}", low):
                return True
    return False


REF = re.compile(r"(?i)(sections?|secs?\.|s\.|clauses?|cl\.|sub-clause|articles?|art\.|paragraphs?|para\.|"
                 r"sub-paragraph|§§?|¶|schedules?|exhibits?|annex(?:es)?|appendix|appendices)\s*"
                 r"([0-9]+[A-Za-z]*|[IVXL]+\b|[A-Z]\b|\([a-z]+\))")
WORD_KIND = {"sec": "section", "s": "section", "cl": "clause", "sub": "clause", "art": "article",
             "para": "paragraph", "§": "section", "¶": "paragraph"}


def reference_in(src, claim):
    """Does the source have any part this reference claim names ("Section 27.4" -> a 27.4 or,
    for a single number, a section 27; "Annex IX"; "Exhibit K")? Conservative: any part
    present counts."""
    low = src.lower()
    full = re.findall(r"\d+(?:\.\d+)+", claim)
    for f in full:
        if re.search(rf"(?:^|[\s(]){re.escape(f)}(?:\.|\s|\))", src, re.M):
            return True
    attached = False
    for m in REF.finditer(claim):
        word, label = m.group(1).lower().rstrip("s."), m.group(2)
        # A paragraph of an exhibit or schedule ("Exhibit F, ¶ 3") is its part, not the
        # contract's numbered paragraph 3.
        if label.startswith("(") or attached:
            continue
        lab = label.lower()
        if word.startswith(("schedule", "exhibit", "annex", "appendi")):
            attached = True
            stem = word[:5]
            if re.search(rf"\b{stem}\w*\s+{re.escape(lab)}\b", low):
                return True
            continue
        if re.fullmatch(r"[ivxl]+", lab):
            if re.search(rf"\b(?:article|section|clause)\s+{lab}\b", low):
                return True
            continue
        n = re.match(r"\d+", label)
        if n and not full_covers(full, n.group(0)):
            k = n.group(0)
            if (re.search(rf"^\s*{k}\.(?:\s|\d)", src, re.M)
                    or re.search(rf"(?:section|clause|article|paragraph|§)\s*{k}\b", low)):
                return True
    return False


def full_covers(full, n):
    return any(f.split(".")[0] == n for f in full)


def present(kind, claim, src):
    if kind == "defined_term":
        term = claim.strip("\"“”'‘’")
        return (" " + te.norm(term).strip() + " ") in te.norm(src)
    if kind == "duration":
        return duration_in(src, claim)
    return reference_in(src, claim)


def place(t, at, table_head=lambda row: TABLE_HEAD):
    """(new lines inserted at slot `at`, first planted line, last planted line, 0 lines
    replaced), planted lines as indices into the new lines; "append" is placed by the caller.
    A table row is planted under `table_head(row)`."""
    text, pos = t["text"], t["position"]
    if pos == "bullet" and re.match(r"\s*(?:[-*+]|\d+[.)])\s", text):
        # Written as a list item already ("- **Label:** …", "1. The …"): as written.
        body = text.split("\n")
    elif pos == "bullet":
        body = [f"- {text}"]
    elif pos == "table":
        body = table_head(text).split("\n") + [text]
    else:
        body = text.split("\n")
    return [""] + body + [""], 1, len(body), 0


def main():
    run(DATA, SEED, "sixth", DROPPED)


def head_by_cells(heads):
    """A table head chooser for `run`: from `heads` (cell count -> header and rule lines),
    the neutral header with as many columns as the planted row has cells."""
    return lambda row: heads[row.strip().count("|") - 1]


def run(data, seed, tag, dropped, table_head=lambda row: TABLE_HEAD):
    """Plant the batch `data` (with `seed` choosing outputs and slots, `tag` naming the
    copies, templates opening with a `dropped` key left out) and print its figures."""
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    bin_ = os.path.realpath(args[0] if args else os.path.join(te.ROOT, "target", "release", "byop"))
    show = "--show" in sys.argv
    rng = random.Random(seed)
    pool = te.tuning_pool(rng)
    templates = json.load(open(data, encoding="utf-8"))
    jobs = [t for t in templates if not any(t["text"].startswith(k) for k in dropped)]
    tmp = te.workspace(f"byop-tuning-{tag}-")
    plants, originals, skipped = [], set(), {}
    for tg in te.targets(pool, jobs, 1):
        t = tg.job
        if present(t["kind"], t["claim"], tg.src):
            skipped[t["kind"]] = skipped.get(t["kind"], 0) + 1
            continue
        at = rng.choice(tg.slots)
        if t["position"] == "append":
            ins, first, last, drop = [tg.lines[at - 1] + " " + t["text"]], 0, 0, 1
        else:
            ins, first, last, drop = place(t, at, table_head)
        rel = f"outputs/{tg.name}__{tag}{tg.i}.ai.md"
        tg.write(tmp, rel, at, ins, drop)
        tg.keep_original(tmp)
        originals.add(tg.orig)
        plants.append(dict(rel=rel, orig=tg.orig, t=t, lo=at - drop + first, hi=at - drop + last,
                           shift=len(ins) - drop, i=tg.i))
    reps = te.reports(bin_, tmp, [p["rel"] for p in plants] + sorted(originals))
    rep_of = lambda rel: next((r for p, r in reps.items() if p.endswith(rel)), None)
    score, bypos, collateral = {}, {}, 0
    for p in plants:
        t = p["t"]
        rep, orig = rep_of(p["rel"]), rep_of(p["orig"])
        fs = te.findings(rep) if rep else []
        claim = t["claim"]
        hit = any(ln is not None and p["lo"] <= ln <= p["hi"] and len(sp.strip(" ,.;*_")) > 1
                  and (sp.strip(" ,.;*_") in claim or claim in sp) for _, ln, sp in fs)
        good = hit if t["expect"] == "flag" else not hit
        for d, key in ((score, (t["kind"], t["expect"])), (bypos, (t["position"], t["expect"]))):
            c = d.setdefault(key, [0, 0])
            c[0] += good
            c[1] += 1
        if show and not good:
            why = sorted({f"{c['kind']}:{c.get('reason')}" for r in (rep or {}).get("check_results", [])
                          for c in r.get("skipped_claims", [])
                          if p["lo"] - 1 <= c.get("line", 0) <= p["hi"] + 1})
            print("WRONG", t["expect"], t["kind"], t["position"], p["i"], p["rel"].split("/")[1][:40],
                  "|", claim, "|", t["text"].replace("\n", " / ")[:140], "|", ", ".join(why))
        append = t["position"] == "append"
        changed = te.collateral(fs, orig, p, append)
        if changed is not None:
            collateral += 1
            if show:
                print("COLLATERAL", p["rel"], changed)
    shutil.rmtree(tmp)
    for expect, label in (("flag", "stated as the contract's, must be flagged"),
                          ("aside", "the output's own, must stay set aside")):
        print(label + ":")
        for kind in ("reference", "duration", "defined_term"):
            a, b = score.get((kind, expect), [0, 0])
            if b:
                print(f"  {kind:13} {a}/{b} = {100 * a / b:.1f} %")
        a = sum(v[0] for k, v in score.items() if k[1] == expect)
        b = sum(v[1] for k, v in score.items() if k[1] == expect)
        print(f"  {'total':13} {a}/{b} = {100 * a / max(b, 1):.1f} %")
    print("flag by position:", ", ".join(f"{k[0]} {a}/{b}" for k, (a, b) in sorted(bypos.items())
                                          if k[1] == "flag"))
    print("skipped, value in the source:", ", ".join(f"{k} {v}" for k, v in sorted(skipped.items())) or "none")
    print(f"collateral: {collateral} of {len(plants)} copies")


if __name__ == "__main__":
    main()
