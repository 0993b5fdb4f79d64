#!/usr/bin/env python3
"""Broad tuning recall of the evidence contract: like tuning_evidence.py (same pool of outputs
outside the held-out set, same "caught" rule), but with many more phrasings per claim kind,
written for tuning, and planted in several positions: a paragraph of its own, a bullet, a
numbered item, a table cell, and with the invented value in bold.

  scripts/tuning_evidence_broad.py [BIN] [--show-misses] [--kinds a,b]

The narrow set fitted the recognisers to a handful of sentence shapes; this one varies the
shape (subject, after "Under", as a list item, in a table, bold), the value's spelling
("15 percent", "fifteen per cent (15%)", "a 3-year term", "Clause 14.3(b)", "§ 41.2") and
the kind of party (companies with Inc./Ltd./GmbH/LLC, holdings without a suffix, people with a
title), so that a rule that only matches one writer's phrasing shows up as a miss.
"""
import importlib.util, json, os, random, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("tuning_evidence", os.path.join(HERE, "tuning_evidence.py"))
te = importlib.util.module_from_spec(spec)
spec.loader.exec_module(te)

SEED = 90417
N = 60

TERMS = ["Escrow Release Event", "Service Credits", "Committed Spend", "Reference Customer",
         "Excused Delay", "Performance Bond Amount", "Designated Carrier", "Stabilisation Period",
         "Approved Subprocessor", "Margin Adjustment", "Territory Exclusivity Fee",
         "Critical Milestone", "Buy-Back Price", "Key Account", "Shortfall Payment"]
ORGS = ["Halvorsen Logistics Inc.", "Brightmoor Capital Ltd.", "Teague & Ostrow LLP",
        "Vantor Systems GmbH", "Calder Ridge Holdings LLC", "Norwick Foods plc",
        "Ellery Biosciences Corp.", "Mirabel Freight Limited", "Ashgrove Software, Inc.",
        "Pennant Reach Corporation"]
BARE_ORGS = ["Ardent Holdings", "Corvel Group", "Strathmore Partners", "Quenby Ventures"]
PEOPLE = [("Helena", "Varga"), ("Marcus", "Oyelaran"), ("Ines", "Dunmore"), ("Rafael", "Sokolov"),
          ("Greta", "Halloway"), ("Declan", "Achebe"), ("Miriam", "Castellanos")]
TITLES = ["Chief Executive Officer", "General Counsel", "Chief Operating Officer", "Managing Director"]
WORDS = {11: "eleven", 13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen", 17: "seventeen",
         18: "eighteen", 19: "nineteen", 21: "twenty-one", 25: "twenty-five", 27: "twenty-seven",
         33: "thirty-three", 35: "thirty-five", 45: "forty-five", 55: "fifty-five", 65: "sixty-five",
         75: "seventy-five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 12: "twelve"}
ROMAN = ["XIX", "XXI", "XXIII", "XXIV", "XXVII", "XXXI"]

PHRASINGS = {
    "defined_term": [
        '"{v}" means, under the Agreement, the amount withheld from each payment until acceptance.',
        'The Agreement defines "{v}" as any delay the supplier could not reasonably foresee.',
        "The supplier's exposure turns on the capitalised term {v} (as defined in the Agreement).",
        'The contract appoints an independent party to hold the deposit (the "{v}").',
        "Under the Agreement, the {v} is reset at the start of each contract year.",
        "The {v} is the main protection the customer has against late delivery.",
        "The customer's remedies for a missed date are tied to the {v}.",
        "Payment of the final instalment depends on the {v} as the contract defines it.",
        'Note the definition of "{v}", which the licensor can change unilaterally.',
        "The contract measures the rebate against the {b}, not against list prices.",
        "The contract uses the defined term ‘{v}’ for the amount withheld.",
        "The Agreement's {b} is what triggers the buy-back.",
    ],
    "party": [
        "{org} is the supplier under the Agreement and carries the indemnity.",
        "Under the Agreement, {org} guarantees the licensee's payment obligations.",
        "The Guarantor, {bare}, must cover any shortfall in the fees.",
        "{org} signed the Agreement as the customer's parent company.",
        "The customer under this contract is {org}.",
        "Payments flow to {org} rather than to the licensor directly.",
        "The counterparty here is {bare}, a subsidiary of the licensor.",
        "The contract was signed by {first} {last}, {title} of the supplier.",
        "{first} {last} ({title}) is the contact for notices under the Agreement.",
        "Mr. {last} is named in the contract as the key employee.",
        "The Agreement lists {org} as an approved subcontractor.",
        "Liability for the hosting services sits with {org}.",
        "The Agreement names Harwick & Sons Co. as the distributor's guarantor.",
    ],
    "percentage": [
        "A {v} late fee applies to overdue invoices under the Agreement.",
        "Under the Agreement, the supplier keeps {v} of all net revenue.",
        "The royalty rate is {v} of net sales.",
        "The customer may withhold {v} of each invoice pending acceptance.",
        "Price increases are capped at {v} per year.",
        "{V} of the purchase price is held in escrow until completion.",
        "The distributor earns a commission of {v} on every renewal.",
        "The reseller's margin is fixed at {v} for the first two years.",
        "Overdue amounts bear interest at {v} per month.",
    ],
    "duration": [
        "The supplier must cure any breach within {d} of notice.",
        "The Agreement has an initial {h} term.",
        "Under the Agreement, either party may terminate on {d} notice.",
        "The warranty period is {d} from delivery.",
        "The non-compete lasts for {d} after termination.",
        "Invoices are payable {d} after receipt.",
        "There is a {h} notice period for non-renewal.",
        "The licensee has {d} to remove the software after expiry.",
        "The licence is granted for a term of {d}.",
    ],
    "reference": [
        "{v} provides that the supplier may suspend performance for non-payment.",
        "Under {v}, the customer bears the cost of any re-performance.",
        "The audit right in {v} extends to subcontractors.",
        "{v} limits the licensee's remedies to a refund of the fees paid.",
        "As set out in {v}, termination fees are payable on demand.",
        "The escalation procedure is in {v}.",
        "The supplier's data-loss liability is capped by {v}.",
        "Exclusivity is granted by {v} for the whole territory.",
    ],
    "amount": [
        "The Agreement sets an annual minimum fee of {v}.",
        "Under the contract, the customer pays a deposit of {v} on signing.",
        "The termination fee is {v}.",
    ],
    "date": [
        "The initial term ends on {v}.",
        "Under the Agreement, the first price review takes place on {v}.",
    ],
}
POSITIONS = ["paragraph", "bullet", "numbered", "table", "bold"]


norm = te.norm


def absent_number(src, rng, lo=11, hi=80, units=r"(?:day|week|month|year)"):
    low = src.lower()
    for _ in range(200):
        n = rng.choice([k for k in WORDS if lo <= k <= hi] or [rng.randrange(lo, hi)])
        w = WORDS.get(n, "")
        pat = rf"(?:\b{n}\b|\b{w}\b)[\s\-()\d]*{units}" if w else rf"\b{n}\b[\s\-()]*{units}"
        if not re.search(pat, low):
            return n, w
    raise SystemExit("no absent number")


def fill(kind, tpl, src, rng):
    """The planted sentence and the invented value (as it must appear in a finding)."""
    n = norm(src)
    low = src.lower()
    for _ in range(200):
        if kind == "defined_term":
            v = rng.choice(TERMS)
            if (" " + norm(v).strip() + " ") in n:
                continue
            return tpl.format(v=v, b=v), v
        if kind == "party":
            org, bare = rng.choice(ORGS), rng.choice(BARE_ORGS)
            (first, last), title = rng.choice(PEOPLE), rng.choice(TITLES)
            keys = [org.split()[0], bare.split()[0], first, last]
            if any((" " + k.lower() + " ") in n for k in keys):
                continue
            s = tpl.format(org=org, bare=bare, first=first, last=last, title=title)
            v = (org if "{org}" in tpl else bare if "{bare}" in tpl else last if "{last}" in tpl
                 else "Harwick & Sons Co.")
            if "Harwick" in tpl and "harwick" in low:
                continue
            return s, v
        if kind == "percentage":
            k = rng.randrange(5)
            num = rng.choice([x for x in WORDS if x > 10])
            if k == 0:
                v = f"{num}.5%"
                key = f"{num}.5"
            elif k == 1:
                v, key = f"{num} percent", str(num)
            elif k == 2:
                v, key = f"{WORDS[num]} per cent ({num}%)", str(num)
            elif k == 3:
                v, key = f"{WORDS[num]} percent", str(num)
            else:
                v, key = f"{num}%", str(num)
            if re.search(rf"\b{re.escape(key)}\b\s*(?:%|per)", low) or re.search(rf"\b{WORDS[num]}\b\s+per", low):
                continue
            s = tpl.replace("{V}", v[0].upper() + v[1:]).format(v=v)
            return s, v
        if kind == "duration":
            unit = rng.choice(["days", "months", "years", "weeks"])
            num, w = absent_number(src, rng, 11, 80)
            if unit == "years":
                num, w = absent_number(src, rng, 6, 16)
            k = rng.randrange(3)
            d = f"{w} ({num}) {unit}" if k == 0 else f"{num} {unit}" if k == 1 else f"{w} {unit}"
            if "{d} notice" in tpl:
                d = d + "'"
            h = f"{num}-{unit[:-1]}"
            return tpl.format(d=d, h=h), (h if "{h}" in tpl else d.rstrip("'"))
        if kind == "reference":
            k = rng.randrange(8)
            a, b = rng.randrange(31, 60), rng.randrange(2, 9)
            if k == 0:
                v, keys = f"Clause {a}.{b}(b)", [f"{a}.{b}"]
            elif k == 1:
                v, keys = f"Schedule {b + 9}", [f"schedule {b + 9}"]
            elif k == 2:
                letter = rng.choice("KMPRTW")
                v, keys = f"Exhibit {letter}, paragraph {b}", [f"exhibit {letter.lower()}"]
            elif k == 3:
                r = rng.choice(ROMAN)
                v, keys = f"Article {r}", [f"article {r.lower()}"]
            elif k == 4:
                v, keys = f"§ {a}.{b}", [f"{a}.{b}"]
            elif k == 5:
                v, keys = f"Section {a}.{b}", [f"{a}.{b}"]
            elif k == 6:
                v, keys = f"Annex {b + 9}", [f"annex {b + 9}"]
            else:
                v, keys = f"Sch. {b + 9}", [f"schedule {b + 9}", f"sch. {b + 9}"]
            if any(key in low for key in keys):
                continue
            s = tpl.format(v=v)
            return s[0].upper() + s[1:], v
        if kind == "amount":
            v = f"${rng.randrange(11, 990)},{rng.randrange(100, 999)}"
            if re.sub(r"[^0-9]", "", v) in re.sub(r"[^0-9]", "", src):
                continue
            return tpl.format(v=v), v
        if kind == "date":
            v = f"{rng.choice(te.MONTHS)} {rng.randrange(2, 28)}, {rng.randrange(2031, 2045)}"
            if (" " + norm(v).strip() + " ") in n:
                continue
            return tpl.format(v=v), v
    raise SystemExit("no absent value")


def place(sentence, value, pos):
    """Lines to insert and the offset of the sentence's line among them."""
    if pos == "bullet":
        return ["", "- " + sentence], 1
    if pos == "numbered":
        return ["", "1. " + sentence], 1
    if pos == "table":
        return ["", "| Point | What the contract says |", "|---|---|", f"| Note | {sentence} |", ""], 3
    if pos == "bold":
        return ["", sentence.replace(value, f"**{value}**", 1)], 1
    return ["", sentence], 1


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    bin_ = os.path.realpath(args[0] if args else os.path.join(te.ROOT, "target", "release", "byop"))
    show = "--show-misses" in sys.argv
    only = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--kinds=")), None)
    rng = random.Random(SEED)
    pool = te.tuning_pool(rng)
    tmp = te.workspace("byop-tuning-broad-")
    plants, chosen = [], 0
    for name in pool:
        if chosen == N:
            break
        path = os.path.join(te.OUTPUTS, name + ".ai.md")
        lines = open(path, encoding="utf-8").read().split("\n")
        try:
            body = next(i for i in range(1, len(lines)) if lines[i].strip() == "---") + 1
        except StopIteration:
            continue
        sl = te.slots(lines, body)
        if not sl:
            continue
        chosen += 1
        src = open(te.source_of(path), encoding="utf-8", errors="replace").read()
        for kind, phr in PHRASINGS.items():
            tpl, pos, at = rng.choice(phr), rng.choice(POSITIONS), rng.choice(sl)
            if only and kind not in only:
                continue
            sentence, v = fill(kind, tpl, src, rng)
            ins, k = place(sentence, v, pos)
            copy = lines[:at] + ins + lines[at:]
            rel = f"outputs/{name}__{kind}.ai.md"
            open(os.path.join(tmp, rel), "w", encoding="utf-8").write("\n".join(copy))
            plants.append((rel, kind, at + k, ins[k], v, pos))
    te.score_plants(bin_, tmp, plants, show, miss_width=40)


if __name__ == "__main__":
    main()
