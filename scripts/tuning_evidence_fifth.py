#!/usr/bin/env python3
"""Fifth tuning recall of the evidence contract: hand-written phrasings of the three kinds the
held-out summary still found short (defined terms, references, durations), each planted twice
into copies of tuning outputs (outside the held-out set, by the narrow script's pool rule), in
the places an analysis puts a statement: its own paragraph, after a label, as a bullet, at the
end of an existing paragraph, under a risk heading. Proposed-text positions are left out on
purpose (tuning_evidence_third.py has them).

  scripts/tuning_evidence_fifth.py [BIN] [--show-misses] [--kinds=a,b] [--second]

Every planted value is invented and checked absent from the output's source, so every planted
sentence is expected to be flagged; that expectation was written before byop ran on the set.
Caught = a failing grounding check's finding within a line of the plant whose span lies in the
planted sentence (tuning_evidence.py's rule).

Baseline at its first commit (main 441fb91, debug build): 70/124 = 56.5 % (defined terms 9/40,
references 40/44, durations 21/40; by position paragraph 13/25, label 15/25, bullet 12/25,
append 16/25, heading 14/24). After the time-limit, term-reading and reference rounds
(5d0872e): 115/124 = 92.7 % (terms 35/40, references 41/44, durations 39/40). Second batch:
45/60 before any change for it, 53/60 after.
"""
import os, random, re, sys

import tuning_evidence as te  # beside this script: Python puts its folder on the path

SEED = 60529
COPIES = 2

TERMS = ["Milestone Rebate", "Float Reserve", "Tier Two Incident", "Rollover Allowance",
         "Demobilisation Charge", "Continuity Event", "Lock-Up Amount", "Service Uplift",
         "Exit Support Window", "Volume Shortfall Credit", "Early Pay Incentive", "Hardship Event"]
NUM = {14: "fourteen", 15: "fifteen", 18: "eighteen", 21: "twenty-one", 28: "twenty-eight",
       35: "thirty-five", 40: "forty", 45: "forty-five", 50: "fifty", 55: "fifty-five",
       60: "sixty", 75: "seventy-five", 7: "seven", 8: "eight", 9: "nine", 11: "eleven",
       13: "thirteen", 16: "sixteen", 17: "seventeen", 19: "nineteen"}
ROMAN = {34: "XXXIV", 37: "XXXVII", 39: "XXXIX", 41: "XLI", 43: "XLIII", 46: "XLVI"}

# {T}: an invented defined term.
TERM_PHRASINGS = [
    "The buyer earns a {T} for each late delivery.",
    "{T}s are calculated monthly and credited against the next invoice.",
    "The concept of {T} drives the whole pricing model.",
    "The Agreement uses {T} to mean the rebate owed for a missed deadline.",
    "The supplier must pay a {T} if a milestone slips.",
    "Payments are withheld until a {T} occurs.",
    "No {T} can be claimed after termination.",
    "The customer may set a {T} off against future invoices.",
    "Under this structure, {T} is owed quarterly.",
    "The {T} provisions are one-sided in the supplier's favour.",
    "The licensee forfeits its {T} on any breach.",
    "Each party's {T} is capped at the fees paid in that year.",
    "{T} applies only in the first contract year.",
    "The contract's {T} mechanism rewards early payment.",
    "A {T} is payable within ten days of the quarter end.",
    "Disputes over a {T} go to an independent expert.",
    "The buyer's only remedy is a {T}, nothing more.",
    "What counts as a {T} is left to the supplier.",
    "The customer receives a {T} whenever uptime falls short.",
    "The Agreement treats a missed delivery window as a {T}.",
]
# {R}: an invented reference (see `reference`).
REF_PHRASINGS = [
    ("The supplier's audit rights are set out in {R}.", "sec_dotted"),
    ("Under {r}, either party may terminate for insolvency.", "clause"),
    ("Pursuant to {R}, the licensee must keep the source code in escrow.", "sec_dotted"),
    ("See {R} for the service levels and credits.", "schedule"),
    ("The payment mechanics ({R}) favour the supplier.", "sec_plain"),
    ("{R} caps the supplier's liability at the fees paid.", "nested"),
    ("The exclusivity carve-out in {R} is narrow.", "para_sign"),
    ("{R} lets the customer withhold disputed amounts.", "paragraph"),
    ("{R} lists the approved subcontractors.", "exhibit"),
    ("{R} deals with force majeure.", "article"),
    ("The indemnity at {r} covers third-party IP claims only.", "clause_sub"),
    ("Termination for convenience sits in {R} of the Agreement.", "sec_plain"),
    ("As {R} makes clear, the warranty excludes consequential losses.", "sec_dotted"),
    ("The non-solicitation covenant (see {R}) runs both ways.", "clause"),
    ("The price review mechanism is in {R}.", "annex"),
    ("The customer's step-in right appears at {r} of the Agreement.", "nested"),
    ("Data protection obligations are in {R}.", "appendix"),
    ("The dispute process, under {r}, begins with escalation to senior managers.", "clause"),
    ("The Agreement's {R} requires the supplier to maintain cyber insurance.", "sec_plain"),
    ("{R} sets the service credit regime.", "clause_triple"),
    ("The liability cap ({R}) excludes data breaches.", "nested"),
    ("Assignment is restricted by {r}.", "sub_clause"),
]
# {d}: an invented duration, as written; `unit` its unit; `form` how it is spelt.
DUR_PHRASINGS = [
    ("The supplier must deliver the goods within {d} of an order.", "days", "digits"),
    ("The Agreement provides a {h} notice period for non-renewal.", "day", "hyphen"),
    ("The licence is granted for a term of {d}.", "years", "both"),
    ("The customer must raise any dispute no later than {d} after the invoice date.", "days", "words"),
    ("Either party may terminate on {d}' notice.", "months", "words"),
    ("Acceptance testing must be completed in {d}.", "business days", "digits"),
    ("The restrictive covenants apply for {d} following termination.", "months", "digits"),
    ("Invoices are paid {d} from receipt.", "days", "digits"),
    ("The warranty period runs {d} from delivery.", "months", "digits"),
    ("The supplier has a {h} window to fix defects.", "day", "hyphen"),
    ("Confidentiality obligations continue for {d} after the Agreement ends.", "years", "both"),
    ("The buyer may return goods up to {d} after delivery.", "days", "digits"),
    ("Renewal notices are due {d} before the end of the term.", "days", "words"),
    ("Price changes need {d}' written notice.", "months", "words"),
    ("The lock-in period is {d}.", "months", "digits"),
    ("The exclusivity period lasts {d} from the Effective Date.", "months", "both"),
    ("Records are kept for {d} after the last payment.", "years", "words"),
    ("The supplier can suspend service after {d} of non-payment.", "business days", "digits"),
    ("The customer gets {d} to report a security incident.", "hours", "digits"),
    ("Payment falls due {d} after the end of each month.", "days", "digits"),
]
# A second batch (`--second`), written after the first batch's rules landed and measured
# before any rule was changed for it: how those rules carry to phrasings they were not made
# on. Same kinds, positions and "caught" rule; its own seed.
SEED_SECOND = 88213
TERM_SECOND = [
    "The reseller loses its Exit Support Window if it misses a payment.",
    "A Float Reserve sits with the escrow agent until completion.",
    "Lock-Up Amounts are released in two tranches.",
    "The supplier's Tier Two Incident obligations are vague.",
    "Customers can convert a Rollover Allowance into service credits.",
    "Only the licensor can declare a Continuity Event.",
    "The Agreement ties every price review to the Service Uplift.",
    "Nothing limits how often a Hardship Event can be invoked.",
    "The notion of Early Pay Incentive appears only in the payment terms.",
    "On termination the buyer owes a Demobilisation Charge.",
]
REF_SECOND = [
    ("{R} would let the supplier suspend performance without notice.", "sec_plain"),
    ("{R} could be read as excluding indirect losses.", "clause"),
    ("Read together, {r} and the fee schedule leave the customer without a remedy.", "sec_dotted"),
    ("The reference to {r} is the only place the fees appear.", "schedule"),
    ("{R}, which the Agreement incorporates, sets the price list.", "exhibit"),
    ("The cap in {r} is unusually low.", "paragraph"),
    ("The termination right in {r} is mutual.", "article"),
    ("The definitions in {r} are narrow.", "clause_sub"),
    ("Audit rights ({r}) extend to subcontractors.", "para_sign"),
    ("The carve-outs listed at {r} swallow the rule.", "nested"),
]
DUR_SECOND = [
    ("The licensee has {d} to cure a payment default.", "days", "words"),
    ("Rent reviews happen every {d}.", "months", "digits"),
    ("The customer is locked in for {d} from signing.", "months", "both"),
    ("Claims are barred unless brought within {d}.", "years", "words"),
    ("The supplier gives {d}' notice of any price change.", "days", "digits"),
    ("A {h} exclusivity period follows launch.", "month", "hyphen"),
    ("Refunds are processed {d} after cancellation.", "business days", "digits"),
    ("Support requests get a response in {d}.", "hours", "digits"),
    ("The non-solicit lasts {d} after the last project.", "months", "words"),
    ("Payment is due no later than {d} after acceptance.", "days", "digits"),
]
POSITIONS = ["paragraph", "label", "bullet", "append", "heading"]


def numbered_absent(src, n):
    low = src.lower()
    return not (re.search(rf"(?:^|\s){n}\.(?:\s|\d)", src, re.M)
                or re.search(rf"(?:section|clause|article|paragraph|§)\s*{n}\b", low)
                or re.search(rf"^\s*{n}\s", src, re.M))


def reference(shape, src, rng):
    """(as written mid-sentence, capitalised to open one, the reference a finding must hold)."""
    low = src.lower()
    for _ in range(300):
        a, b, c = rng.randrange(31, 99), rng.randrange(2, 9), rng.randrange(2, 6)
        sub, roman = rng.choice("cdefg"), rng.choice(["ii", "iii", "iv"])
        if shape == "article":
            a = rng.choice(list(ROMAN))
        if shape in ("schedule", "annex", "appendix"):
            word = {"schedule": "Schedule", "annex": "Annex", "appendix": "Appendix"}[shape]
            if f"{word.lower()} {a}" in low:
                continue
            v = f"{word} {a}"
            return v, v, v
        if shape == "exhibit":
            letter = rng.choice("KMNPQRTVW")
            if f"exhibit {letter.lower()}" in low:
                continue
            v = f"Exhibit {letter}"
            return v, v, v
        if not numbered_absent(src, a):
            continue
        v = {
            "sec_dotted": f"Section {a}.{b}",
            "sec_plain": f"Section {a}",
            "clause": f"clause {a}",
            "nested": f"Section {a}.{b}({sub})({roman})",
            "para_sign": f"§ {a}.{b}",
            "paragraph": f"Paragraph {a}({sub})",
            "article": f"Article {ROMAN.get(a, a)}",
            "clause_sub": f"clause {a}.{b}(a)",
            "clause_triple": f"Clause {a}.{b}.{c}",
            "sub_clause": f"sub-clause {a}.{b}",
        }[shape]
        return v, v[0].upper() + v[1:], v.replace("sub-clause", "clause")
    raise SystemExit("no absent reference")


def duration(unit, form, src, rng):
    """(the duration as the sentence writes it, the hyphenated adjective form, the words a
    finding must hold)."""
    low = src.lower()
    base = unit.split()[-1].rstrip("s")
    hi = 20 if base == "year" else 80
    lo = 3 if base == "year" else 7
    for _ in range(300):
        n = rng.choice([k for k in NUM if lo <= k <= hi])
        w = NUM[n]
        if re.search(rf"(?:\b{n}\b|\b{w}\b)[\s\-()\d]*(?:business\s+|calendar\s+)?{base}", low):
            continue
        d = {"digits": f"{n} {unit}", "words": f"{w} {unit}", "both": f"{w} ({n}) {unit}"}.get(form)
        h = f"{n}-{base}"
        return d, h, (h if form == "hyphen" else d)
    raise SystemExit("no absent duration")


def place(sentence, pos, lines, at):
    """(new lines, index of the planted line among them, lines replaced before `at`)."""
    if pos == "label":
        return ["", f"**Risk:** {sentence}"], 1, 0
    if pos == "bullet":
        return ["", f"- {sentence}", "- The other terms of this part are unchanged."], 1, 0
    if pos == "append":
        return [lines[at - 1] + " " + sentence], 0, 1
    if pos == "heading":
        return ["", "### Key risks", "", sentence], 3, 0
    return ["", sentence], 1, 0


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    bin_ = os.path.realpath(args[0] if args else os.path.join(te.ROOT, "target", "release", "byop"))
    show = "--show-misses" in sys.argv
    only = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--kinds=")), None)
    second = "--second" in sys.argv
    rng = random.Random(SEED_SECOND if second else SEED)
    pool = te.tuning_pool(rng)
    terms, refs, durs = ((TERM_SECOND, REF_SECOND, DUR_SECOND) if second
                         else (TERM_PHRASINGS, REF_PHRASINGS, DUR_PHRASINGS))
    jobs = ([("defined_term", p, None) for p in terms]
            + [("reference", p, s) for p, s in refs]
            + [("duration", p, (u, f)) for p, u, f in durs])
    jobs = [j for j in jobs if not only or j[0] in only]
    tmp = te.workspace("byop-tuning-fifth-")
    plants = []
    for t in te.targets(pool, jobs, COPIES):
        kind, tpl, extra = t.job
        if kind == "defined_term":
            term = next(x for x in rng.sample(TERMS, len(TERMS))
                        if (" " + te.norm(x).strip() + " ") not in te.norm(t.src))
            sentence, v = re.sub(r"\b([Aa]) ([AEIOU])", r"\1n \2", tpl.format(T=term)), term
        elif kind == "reference":
            low_, cap, v = reference(extra, t.src, rng)
            sentence = tpl.format(r=low_, R=low_ if not tpl.startswith("{R}") else cap)
        else:
            d, h, v = duration(*extra, t.src, rng)
            sentence = tpl.format(d=d, h=h)
        pos = POSITIONS[(t.i + t.copy_no * 2) % len(POSITIONS)]
        at = rng.choice(t.slots)
        ins, k, drop = place(sentence, pos, t.lines, at)
        rel = f"outputs/{t.name}__{kind}{t.copy_no}_{t.i}.ai.md"
        t.write(tmp, rel, at, ins, drop)
        plants.append((rel, kind, at - drop + k, sentence, v, pos))
    te.score_plants(bin_, tmp, plants, show, miss_width=40)


if __name__ == "__main__":
    main()
