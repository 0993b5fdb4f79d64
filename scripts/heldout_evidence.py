#!/usr/bin/env python3
"""Held-out measurement of the evidence contract (`evidence_contract_v1`).

Nothing here may be used to tune the grounding rules: the set is chosen at random from corpus
outputs that no tuning round or test has read, and only the figures are meant to be shared.

  scripts/heldout_evidence.py generate          # (re)write tests/data/heldout/evidence/recall_set.json
  scripts/heldout_evidence.py recall [BIN]      # plant, run BIN on every copy, print recall + collateral
  scripts/heldout_evidence.py precision [BIN]   # re-run the judged precision sample, print per tier

Recall: for each of 60 outputs, one copy per claim kind with ONE new paragraph in the output's
own analysis that states an invention of that kind (a section, amount, percentage, duration,
date, defined term, party or person, legal citation, quote) the source does not contain (checked
against the source text when the set is generated). The copies are written to a temporary folder
next to the original (so the `source:` path in the front matter still resolves) and deleted
afterwards. An invention is caught when a finding's span overlaps the planted paragraph.
No collateral: every finding outside the planted paragraph is the same as in the unplanted
original (compared by check, text and line, lines after the paragraph shifted back).
"""
import collections, json, os, random, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "contract-reviews"))
OUTPUTS = os.path.join(CORPUS, "outputs")
DATA = os.path.join(ROOT, "tests", "data", "heldout", "evidence")
SET = os.path.join(DATA, "recall_set.json")
SEED = 2211
N_OUTPUTS = 60
KINDS = ["reference", "amount", "percentage", "duration", "date", "defined_term", "party",
         "legal_citation", "quote"]
GROUNDING = ["quotes_grounded", "quotes_verbatim", "quotes_paraphrased", "references_grounded", "entities_grounded"]


# ---------------------------------------------------------------- choosing the outputs

def excluded_names():
    """Outputs named anywhere in the tuning measurement or the tests: never in the held-out set."""
    names = set()
    pat = re.compile(r"contract_\d{3}_[a-z_]+?_?\d*__[A-Za-z0-9.\-]+?(?=\.ai\.md|[\s\"'`|)(,]|$)")
    tests = os.path.join(ROOT, "tests")
    files = [os.path.join(ROOT, "docs", "evidence-measurement.md")]
    files += [os.path.join(tests, f) for f in sorted(os.listdir(tests)) if f.startswith("evidence")]
    files += [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(ROOT, "src", "engine")) for f in fs]
    if True:
        for f in files:
            try:
                text = open(f, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            for m in pat.finditer(text):
                names.add(m.group(0).removesuffix(".ai.md"))
    return names


def source_of(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^\s+source:\s*(\S+)", text, re.M)
    return os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))


# ---------------------------------------------------------------- where a paragraph may go

DRAFTY = re.compile(r"propos|redline|draft|revis|amend|new (?:section|clause)|\[(?:add|modify|delete)|"
                    r"insert|replace|language|clause text|suggest|sample|model clause|rider|addendum|"
                    r"exhibit|schedule|annex|wording|marked|track|modif|contract document|full text|updated agreement", re.I)
SEPARATOR = re.compile(r"^\s*(?:[=]{3,}|[-]{3,}|[*]{3,}|[_]{3,}|[─━═]{3,})\s*$")
MARKERS = re.compile(r"\[(?:ADD|MODIFY|DELETE|INSERT)|```|~~|\bshall\b", re.I)


CLAUSE_ITEM = re.compile(r"^\s*(?:\*\*)?\((?:[a-z]{1,2}|[ivx]{1,5}|\d{1,2})\)\s")


def is_heading(line, alone=False):
    """A markdown or bold heading, a short label ending in a colon, or (when the line is a
    block of its own) a short line with no sentence punctuation, such as `Redlines to Section 1`."""
    s = line.strip()
    return (s.startswith("#") or re.fullmatch(r"\*\*[^*]+\*\*:?", s) is not None
            or (len(s) < 70 and s.endswith(":") and not s.startswith(("-", "*")))
            or (alone and 0 < len(s) < 60 and s[-1] not in ".!?;," and not s.startswith(("-", "*", "•"))))


def blocks(lines):
    """(first line, last line) of each blank-line separated block outside code fences."""
    out, start, fence = [], None, False
    for i, l in enumerate(lines):
        if l.strip().startswith(("```", "~~~")):
            fence = not fence
            if start is None:
                start = i
            continue
        if not l.strip() and not fence:
            if start is not None:
                out.append((start, i - 1)); start = None
        elif start is None:
            start = i
    if start is not None:
        out.append((start, len(lines) - 1))
    return out


def copied(block, src_words, n=8):
    """Text copied from the contract: a run of n words the source has, a line in capitals only
    (`QUANTUM INSIGHTS CORP.`) or a signature-block line (`By: /s/ …`)."""
    w = re.findall(r"[a-z0-9]+", block.lower())
    if any(" " + " ".join(w[i:i + n]) + " " in src_words for i in range(max(0, len(w) - n + 1))):
        return True
    return not re.search(r"[a-z]", block) or re.match(r"\s*(?:By|Name|Title|Date|Its):", block) is not None


def analysis_slots(lines, body_start, src_words=""):
    """Line indices before which a new paragraph sits in the output's own analysis: between two
    prose blocks (no quote, table, code, indented continuation, drafting marker or `shall`),
    the previous block not a label that introduces what follows, and no heading above it (back
    to the previous top-level heading) that names drafted or proposed text."""
    # a reproduced contract follows the first ==== rule: nothing after it is analysis
    end = next((i for i in range(body_start, len(lines)) if re.match(r"^\s*={5,}\s*$", lines[i])), len(lines))
    bl = [b for b in blocks(lines) if b[0] >= body_start and b[1] < end]
    slots = []
    for k in range(1, len(bl)):
        p0, p1 = bl[k - 1]
        n0, n1 = bl[k]
        prev = "\n".join(lines[p0:p1 + 1]); nxt = "\n".join(lines[n0:n1 + 1])
        if MARKERS.search(prev) or MARKERS.search(nxt):
            continue
        if any(lines[j].lstrip().startswith((">", "|")) or lines[j].startswith(("    ", "\t"))
               for j in list(range(p0, p1 + 1)) + list(range(n0, n1 + 1))):
            continue
        if lines[p1].rstrip().endswith(":") or is_heading(lines[p1], True):
            continue
        if copied(prev, src_words) or copied(nxt, src_words):
            continue  # contract text the output reproduces (a signature block, a clause)
        if CLAUSE_ITEM.match(lines[p0]) or CLAUSE_ITEM.match(lines[n0]):
            continue  # between the lettered items of a clause the output drafts
        if SEPARATOR.match(lines[p1]) or SEPARATOR.match(lines[n0]):
            continue
        alone = {a for a, b in bl if a == b}
        heads = [lines[j] for j in range(body_start, n0) if is_heading(lines[j], j in alone)]
        # every heading between the last top-level heading and here is in scope
        scope = []
        for h in reversed(heads):
            scope.append(h)
            if h.startswith("# ") or h.startswith("## "):
                break
        if any(DRAFTY.search(h) for h in scope):
            continue
        # and the three blocks before must be free of drafting markers too
        if any(MARKERS.search("\n".join(lines[a:b + 1])) for a, b in bl[max(0, k - 4):k]):
            continue
        slots.append(n0)
    return slots


# ---------------------------------------------------------------- inventions

PHRASINGS = {
    "reference": [
        "Section {n}.{m} of the Agreement provides that either party may assign its rights without the other party's consent.",
        "Under Clause {n}({a}) of the contract, the supplier may suspend performance on written notice.",
        "The termination rights sit in Article {n} of the Agreement, which allows termination for convenience.",
        "As § {n}.{m} of the agreement makes clear, the confidentiality obligations survive termination.",
        "Section {n} of the contract already requires the parties to meet and confer before any claim is filed.",
    ],
    "amount": [
        "The Agreement caps each party's total liability at {v}.",
        "Under the contract, the distributor owes a one-time onboarding fee of {v}.",
        "The contract requires the customer to maintain insurance cover of at least {v}.",
        "According to the Agreement, late delivery triggers liquidated damages of {v} per incident.",
    ],
    "percentage": [
        "The Agreement sets late-payment interest at {v} per month.",
        "Under the contract, the reseller keeps a discount of {v} on the list price.",
        "The contract allows a price increase of up to {v} at each renewal.",
        "According to the Agreement, {v} of each payment is held back until acceptance.",
    ],
    "duration": [
        "The Agreement gives the defaulting party {v} to cure a material breach.",
        "Under the contract, the non-compete runs for {v} after termination.",
        "The contract keeps the confidentiality obligations in force for {v} after expiry.",
        "According to the Agreement, either party may terminate on {v} written notice.",
    ],
    "date": [
        "The Agreement expires on {v}.",
        "Under the contract, the first payment falls due on {v}.",
        "The contract's initial term runs until {v}, with no automatic renewal.",
        "According to the Agreement, the exclusivity period ends on {v}.",
    ],
    "defined_term": [
        "The Agreement defines \u201c{v}\u201d broadly, which widens the obligations of the receiving side.",
        "Under the contract, every {v} is excluded from the fee calculation.",
        "The contract relies on the defined term \"{v}\" to limit the supplier's exposure.",
        "According to the Agreement, any {v} must be approved in writing before it takes effect.",
    ],
    "party": [
        "The Agreement names {v} as guarantor of the other side's obligations.",
        "According to the contract, {v} signs on behalf of the supplier.",
        "The contract makes {v} a third-party beneficiary of the warranty.",
        "Under the Agreement, notices must also be copied to {v}.",
    ],
    "legal_citation": [
        "The Agreement expressly incorporates {v} into the parties' obligations.",
        "Under the contract, disputes about data handling are subject to {v}.",
        "The contract states that the parties waive the protections of {v}.",
        "According to the Agreement, the non-solicitation covenant is to be read in line with {v}.",
    ],
    "quote": [
        "The Agreement states: \u201c{v}\u201d",
        "Under the contract, \"{v}\", which shifts the risk to the other side.",
        "The relevant clause reads \u201c{v}\u201d and leaves no room for negotiation.",
        "The contract is explicit that \"{v}.\"",
    ],
}

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
TERMS = ["Reconciliation Window", "Deferred Launch Credits", "Escrow Release Event",
         "Priority Service Tier", "Residual Know-How Carve-Out", "Quarterly True-Up Amount",
         "Benchmark Review Period", "Transition Assistance Fee", "Dormant Account Balance",
         "Strategic Account Override", "Legacy Inventory Pool", "Joint Steering Ledger"]
ORGS = ["Halvorsen Logistics GmbH", "Quenby Trust Partners LLC", "Okonkwo Maritime Holdings Ltd.",
        "Varga & Lindqvist AB", "Tessaract Capital Advisors Inc.", "Bellwether Pine Insurance Co."]
PEOPLE = ["Marguerite Oyelaran", "Dmitri Castellanos", "Harriet Vanterpool", "Ikenna Abernathy",
          "Solveig Marchetti", "Baptiste Onwuachi"]
CITATIONS = ["42 U.S.C. § 1983", "Cal. Civ. Code § 1542", "Regulation (EU) 2019/1150",
             "Directive 2011/83/EU", "N.Y. Gen. Oblig. Law § 5-1401", "Tex. Bus. & Com. Code § 17.46",
             "15 U.S.C. § 1681b", "29 C.F.R. § 1910.1200"]
QUOTES = [
    "all disputes shall be resolved exclusively by binding arbitration in Reykjavik, Iceland",
    "neither party may disclose the existence of this Agreement to any external auditor",
    "the licensee shall pay a surcharge for every unit shipped outside business hours",
    "any renewal shall be automatic unless the distributor objects by registered courier",
    "the reseller forfeits all accrued commissions upon any change of control of the reseller",
    "the consultant shall maintain a permanent office within ten miles of the headquarters",
    "the supplier may substitute equivalent products without notice at its sole election",
    "each party waives any right to a jury trial in any proceeding in Ontario",
    "the receiving party shall destroy all copies within forty-eight hours of any request",
    "title to all prototypes passes to the customer upon delivery to the carrier",
]
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
         11: "eleven", 13: "thirteen", 17: "seventeen", 19: "nineteen"}


def norm(s):
    return re.sub(r"\s+", " ", re.sub(r"[^a-z0-9$%.,§/ ]", " ", s.lower())).strip()


def absent(src, *needles):
    n = norm(src)
    return all(norm(x) not in n for x in needles if x)


def token_absent(src, tok):
    return re.search(r"(?<![\w.])" + re.escape(tok) + r"(?![\w])", src) is None


def invent(kind, src, rng):
    """An invention of `kind` and the strings whose absence from the source proves it new."""
    for _ in range(500):
        if kind == "reference":
            n = rng.randint(41, 97); m = rng.randint(2, 9); a = rng.choice("cdefgh")
            if token_absent(src, str(n)):
                return dict(n=n, m=m, a=a), f"{n}"
        elif kind == "amount":
            sig = rng.randint(1001, 9899)
            if sig % 10 == 0 or not (token_absent(src, str(sig)) and absent(src, f"{sig:,}")):
                continue
            style = rng.randrange(4)
            s1, s2 = str(sig)[0], str(sig)[1:]
            if style == 0:
                v = f"${s1},{s2},000"
            elif style == 1:
                v = f"USD {s1}.{s2[:2]} million"
                if not absent(src, f"{s1}.{s2[:2]}"):
                    continue
            elif style == 2:
                v = f"\u20ac{s1}{s2[:2]},{s2[2]}00"
            else:
                v = f"${sig:,}.00"
            return dict(v=v), v
        elif kind == "percentage":
            p = rng.choice([7, 13, 17, 23, 27, 31, 37, 41, 43, 47, 53]) if rng.random() < .8 else round(rng.uniform(1, 9), 1)
            v = f"{p}%" if rng.random() < .6 else f"{p} percent"
            if all(token_absent(src, x) for x in (f"{p}",)):
                return dict(v=v), v
        elif kind == "duration":
            num = rng.choice([11, 13, 17, 19, 23, 29, 37, 43, 53, 67, 73, 83])
            unit = rng.choice(["days", "months", "business days", "years", "weeks"])
            if unit == "years":
                num = rng.choice([11, 13, 17, 19])
            if not token_absent(src, str(num)) or (num in WORDS and not absent(src, WORDS[num])):
                continue
            v = f"{WORDS[num]} ({num}) {unit}" if num in WORDS and rng.random() < .4 else f"{num} {unit}"
            return dict(v=v), v
        elif kind == "date":
            y = rng.randint(2031, 2039); mo = rng.randrange(12); d = rng.randint(2, 27)
            if not token_absent(src, str(y)):
                continue
            v = rng.choice([f"{MONTHS[mo]} {d}, {y}", f"{d} {MONTHS[mo]} {y}", f"{y}-{mo + 1:02d}-{d:02d}"])
            return dict(v=v), v
        elif kind == "defined_term":
            v = rng.choice(TERMS)
            if absent(src, v):
                return dict(v=v), v
        elif kind == "party":
            v = rng.choice(ORGS + PEOPLE)
            if all(absent(src, w) for w in v.replace(".", "").split() if w[0].isupper() and len(w) > 3
                   and w not in ("Holdings", "Partners", "Capital", "Trust", "Insurance", "Logistics", "Maritime", "Advisors", "Pine")):
                return dict(v=v), v
        elif kind == "legal_citation":
            v = rng.choice(CITATIONS)
            key = re.findall(r"\d[\d./\-]*\w*", v)
            if all(absent(src, k) for k in key):
                return dict(v=v), v
        elif kind == "quote":
            v = rng.choice(QUOTES)
            w = norm(v).split()
            if all(" ".join(w[i:i + 5]) not in norm(src) for i in range(len(w) - 4)):
                return dict(v=v), v
    raise SystemExit(f"no {kind} invention absent from the source")


def generate():
    rng = random.Random(SEED)
    excl = excluded_names()
    pool = sorted(f[:-6] for f in os.listdir(OUTPUTS) if f.endswith(".ai.md") and f[:-6] not in excl)
    rng.shuffle(pool)
    rows, chosen = [], []
    for name in pool:
        if len(chosen) == N_OUTPUTS:
            break
        path = os.path.join(OUTPUTS, name + ".ai.md")
        lines = open(path, encoding="utf-8").read().split("\n")
        body = next(i for i in range(1, len(lines)) if lines[i].strip() == "---") + 1
        src = open(source_of(path), encoding="utf-8", errors="replace").read()
        slots = analysis_slots(lines, body, " " + " ".join(re.findall(r"[a-z0-9]+", src.lower())) + " ")
        if not slots:
            continue  # no prose paragraph break in the analysis (a pure redline, a code block)
        chosen.append(name)
        for kind in KINDS:
            params, value = invent(kind, src, rng)
            tmpl = rng.randrange(len(PHRASINGS[kind]))
            text = PHRASINGS[kind][tmpl].format(**params)
            if kind == "reference":
                value = re.search(r"(?:Section|Clause|Article|§) ?\d+(?:\.\d+|\([a-z]\))?", text).group(0)
            rows.append(dict(output=name, kind=kind, phrasing=tmpl, value=value, paragraph=text,
                             before_line=rng.choice(slots) + 1))
    os.makedirs(DATA, exist_ok=True)
    about = ("Held-out recall set for evidence_contract_v1: never tune on it. Outputs chosen with "
             f"random.Random({SEED}) from corpus outputs not named in docs/evidence-measurement.md, "
             "tests/evidence*.rs or src/engine/; one planted paragraph per (output, kind), inserted as its own paragraph "
             "before 1-based line `before_line` of the output; each invention was checked absent from "
             "the source contract by scripts/heldout_evidence.py generate.")
    json.dump(dict(_about=about, seed=SEED, outputs=chosen, plants=rows), open(SET, "w"), indent=1,
              ensure_ascii=False)
    print(f"{len(chosen)} outputs, {len(rows)} plants -> {os.path.relpath(SET, ROOT)}")


# ---------------------------------------------------------------- running byop

def run_many(bin_, root, rels, db):
    """`byop check` over many outputs of one corpus folder (the workspace: the outputs'
    `source:` paths lead out of outputs/ into contracts/), in one process per 100 files;
    the report of each relative path (None when the run failed)."""
    out = {}
    for k in range(0, len(rels), 100):
        chunk = rels[k:k + 100]
        p = subprocess.run([bin_, "check", "--mode", "deterministic", "--playbook", "evidence_contract_v1",
                            "--format", "json", "--db", db, "--fail-on", "never"] + chunk,
                           capture_output=True, text=True, cwd=root)
        if p.returncode not in (0, 1):
            sys.stderr.write(p.stderr)
            continue
        reps = json.loads(p.stdout)
        reps = [reps] if isinstance(reps, dict) else reps
        for r in reps:
            out[r["byop_report"]["document"]["path"]] = r["byop_report"]
    return out


def findings(rep):
    """(check, first line, last line, text) of every evidence citation of a failing grounding check."""
    out = []
    for r in rep.get("check_results", []):
        c = r.get("check_id")
        if c not in GROUNDING or r.get("result") != "fail":
            continue
        for ev in r.get("evidence_citations", []):
            rng_ = ev.get("range") or {}
            a = rng_.get("start", {}).get("line"); b = rng_.get("end", {}).get("line", a)
            out.append((c, a, b, ev.get("span") or ""))
    return out


def results(rep):
    return {r.get("check_id"): (r.get("result"), r.get("notes", "")) for r in rep.get("check_results", [])
            if r.get("check_id") in GROUNDING}


def work_dir():
    """A private copy of the corpus layout (contracts/, prompts/, outputs/) in a temporary
    folder, so the outputs' relative `source:` paths resolve and nothing is written to the corpus."""
    tmp = tempfile.mkdtemp(prefix="byop-heldout-")
    for d in ("contracts", "prompts"):
        shutil.copytree(os.path.join(CORPUS, d), os.path.join(tmp, d))
    os.mkdir(os.path.join(tmp, "outputs"))
    return tmp


def plant(lines, before_line, paragraph):
    i = before_line - 1
    return lines[:i] + [paragraph, ""] + lines[i:]


def recall(bin_):
    s = json.load(open(SET))
    tmp = work_dir()
    db = os.path.join(tmp, "store.db")
    base, caught, by_kind, on_value, collat, errors = {}, 0, collections.defaultdict(lambda: [0, 0, 0]), 0, 0, []
    verdicts = collections.Counter(); caught_by = collections.Counter()
    limit = int(os.environ.get("HELDOUT_LIMIT", "0"))
    if limit:
        s["outputs"] = s["outputs"][:limit]
        s["plants"] = [p for p in s["plants"] if p["output"] in s["outputs"]]
    try:
        rels = []
        for name in s["outputs"]:
            shutil.copy(os.path.join(OUTPUTS, name + ".ai.md"), os.path.join(tmp, "outputs", name + ".ai.md"))
            rels.append(f"outputs/{name}.ai.md")
        for k, row in enumerate(s["plants"]):
            lines = open(os.path.join(OUTPUTS, row["output"] + ".ai.md"), encoding="utf-8").read().split("\n")
            with open(os.path.join(tmp, "outputs", f"p{k:03d}.ai.md"), "w", encoding="utf-8") as fh:
                fh.write("\n".join(plant(lines, row["before_line"], row["paragraph"])))
            rels.append(f"outputs/p{k:03d}.ai.md")
        reps = run_many(bin_, tmp, rels, db)
        for name in s["outputs"]:
            rep = reps.get(f"outputs/{name}.ai.md")
            if rep is None:
                errors.append(name)
            base[name] = findings(rep) if rep else []
        for k, row in enumerate(s["plants"]):
            rep = reps.get(f"outputs/p{k:03d}.ai.md")
            by_kind[row["kind"]][1] += 1
            if rep is None:
                errors.append(f"p{k:03d}"); continue
            para = row["before_line"]  # 1-based line of the planted paragraph in the copy
            fs = findings(rep)
            hit = [f for f in fs if f[1] is not None and f[1] + 1 <= para <= (f[2] or f[1]) + 1]
            if hit:
                caught += 1; by_kind[row["kind"]][0] += 1
                if any(row["value"].lower() in (f[3] or "").lower() or (f[3] or "").lower() in row["paragraph"].lower() for f in hit):
                    on_value += 1; by_kind[row["kind"]][2] += 1
            res = results(rep)
            if not hit:
                verdicts[" ".join(sorted(f"{c}={v[0]}" for c, v in res.items() if v[0] not in ("pass", "fail"))) or "missed, grounding checks pass/fail"] += 1
            else:
                for c in sorted({f[0] for f in hit}):
                    caught_by[(row["kind"], c)] += 1
            outside = sorted((c, (a if a + 1 < para else a - 2), t) for c, a, b, t in fs if not (a + 1 <= para <= b + 1))
            if outside != sorted((c, a, t) for c, a, b, t in base[row["output"]]):
                collat += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    total = len(s["plants"])
    print(f"held-out recall, {len(s['outputs'])} outputs, {total} planted paragraphs ({bin_})")
    print(f"{'kind':16} caught  (on the invented value)")
    for kind in KINDS:
        c, n, v = by_kind[kind]
        print(f"{kind:16} {c:3}/{n:<3} {100 * c / max(n, 1):5.1f} %  ({v})")
    print(f"{'overall':16} {caught:3}/{total:<3} {100 * caught / max(total, 1):5.1f} %  ({on_value})")
    print("caught by: " + ", ".join(f"{k}/{c}={n}" for (k, c), n in sorted(caught_by.items())))
    print("missed, other grounding results: " + ", ".join(f"{k}: {n}" for k, n in verdicts.most_common()))
    print(f"collateral: {collat} of {total} planted copies changed a finding outside the planted paragraph")
    if errors:
        print(f"errors: {len(errors)} documents without a report, first: {errors[0]}")


# ---------------------------------------------------------------- precision sample

def sample(bin_):
    """Every finding of BIN over the whole corpus, and a seeded sample of at least 40 of them
    (all of them when there are fewer) written for judging."""
    tmp = work_dir()
    db = os.path.join(tmp, "store.db")
    allf = []
    try:
        names = sorted(f for f in os.listdir(OUTPUTS) if f.endswith(".ai.md"))
        for f in names:
            shutil.copy(os.path.join(OUTPUTS, f), os.path.join(tmp, "outputs", f))
        reps = run_many(bin_, tmp, [f"outputs/{f}" for f in names], db)
        for f in names:
            for r in (reps.get(f"outputs/{f}") or {}).get("check_results", []):
                if r.get("check_id") in GROUNDING and r.get("result") == "fail":
                    for ev in r.get("evidence_citations", []):
                        allf.append(dict(file=f[:-6], check=r["check_id"], line=ev["range"]["start"]["line"],
                                         text=ev.get("span", ""), context=ev.get("context", "")))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rows = random.Random(SEED + 1).sample(allf, min(len(allf), max(40, len(allf) // 2)))
    rows.sort(key=lambda r: (r["file"], r["line"], r["check"]))
    print(f"{len(allf)} findings over the corpus; {len(rows)} sampled")
    return allf, rows


def same_span(a, b):
    """The same finding when its text is the judged one with markup or quote marks changed."""
    a, b = (re.sub(r"[^a-z0-9]+", " ", x.lower()).strip() for x in (a, b))
    return bool(a) and bool(b) and (a in b or b in a)


def precision(bin_):
    path = os.path.join(DATA, "precision_sample.json")
    s = json.load(open(path))
    tmp = work_dir()
    db = os.path.join(tmp, "store.db")
    tiers = collections.Counter(); still = collections.Counter(); checks = collections.Counter()
    try:
        files = sorted({row["file"] for row in s["rows"]})
        for f in files:
            shutil.copy(os.path.join(OUTPUTS, f + ".ai.md"), os.path.join(tmp, "outputs", f + ".ai.md"))
        reps = run_many(bin_, tmp, [f"outputs/{f}.ai.md" for f in files], db)
        for row in s["rows"]:
            rep = reps.get(f"outputs/{row['file']}.ai.md")
            now = [x for x in (findings(rep) if rep else []) if x[1] == row["line"] and same_span(x[3], row["text"])]
            tiers[row["verdict"]] += 1
            if now:
                still[row["verdict"]] += 1
                checks[(now[0][0], row["verdict"])] += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"precision sample: {len(s['rows'])} judged findings of commit {s['commit']} ({bin_})")
    for t in ["fabrication", "misquote", "paraphrase", "false_alarm"]:
        print(f"  {t:12} judged {tiers[t]:3}   still flagged {still[t]:3}")
    print("  still flagged, by check and verdict:")
    for (c, t), n in sorted(checks.items()):
        print(f"    {c:20} {t:12} {n}")
    hi = sum(n for (c, t), n in checks.items() if c in ("quotes_grounded", "references_grounded", "entities_grounded"))
    fab = sum(n for (c, t), n in checks.items() if c in ("quotes_grounded", "references_grounded", "entities_grounded") and t == "fabrication")
    print(f"  high-severity findings that are fabrications: {fab} of {hi}")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "recall"
    b = os.path.realpath(sys.argv[2]) if len(sys.argv) > 2 else os.path.join(ROOT, "target", "release", "byop")
    {"generate": lambda: generate(), "recall": lambda: recall(b), "precision": lambda: precision(b),
     "sample": lambda: json.dump(sample(b)[1], open("/dev/stdout", "w"), indent=1, ensure_ascii=False)}[cmd]()
