#!/usr/bin/env python3
"""Tuning recall of the evidence contract: inventions planted into copies of corpus outputs
that are NOT in the held-out recall set, in phrasings written for tuning (never the held-out
script's). Use it freely while tuning; the held-out figure comes from heldout_evidence.py.

  scripts/tuning_evidence.py [BIN] [--show-misses]

For each of 40 outputs (chosen with a fixed seed from outputs outside the held-out 60), one
copy per claim kind with ONE new paragraph in the output's analysis stating a value of that
kind the source lacks. Caught = a failing grounding check's finding lies on the planted line.
"""
import itertools, json, os, random, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "contract-reviews"))
OUTPUTS = os.path.join(CORPUS, "outputs")
HELDOUT = os.path.join(ROOT, "tests", "data", "heldout", "evidence", "recall_set.json")
GROUNDING = ["quotes_grounded", "quotes_verbatim", "quotes_paraphrased", "references_grounded",
             "entities_grounded"]
SEED = 7122
N = 40

TERMS = ["Revenue Holdback Amount", "Transition Assistance Period", "Qualified Successor",
         "Designated Escrow Agent", "Minimum Purchase Commitment", "Step-In Event",
         "Benchmarking Window", "Service Credit Pool", "Retained Know-How", "Onboarding Fee Cap"]
ORGS = ["Brightwater Analytics Inc.", "Kestrel Ridge Partners LLP", "Ostara Bio Holdings Ltd",
        "Pembrook & Vale Corporation", "Tamsin Road Capital LLC", "Wexcombe Media GmbH",
        "Larchmont Assurance plc", "Quillon Data Services Inc."]
PEOPLE = ["Rosalind Achterberg", "Tobias Wrenfield", "Amara Lindqvist", "Callum Ferreira-Nolan",
          "Priyanka Valderrama", "Jonas Bexley", "Elodie Marchetti", "Samuel Okafor"]
CITATIONS = ["15 U.S.C. § 78j", "29 C.F.R. § 541.100", "N.Y. Gen. Oblig. Law § 5-1401",
             "Tex. Bus. & Com. Code § 17.46", "Directive 2006/123/EC", "Regulation (EU) No 1215/2012",
             "Pellham Industries v. Corvant Systems, 412 F.3d 118 (2d Cir. 2005)",
             "Cal. Lab. Code § 2870", "8 Del. C. § 145", "the Uniform Commercial Code § 2-314"]
PHRASINGS = {
    "defined_term": [
        'The Agreement defines "{v}" as the period within which the supplier must respond.',
        "Note that the contract relies on the {v} throughout its payment provisions.",
        "The {v} (as defined in the Agreement) limits what the customer can recover.",
        "Because “{v}” is a defined term of the Agreement, its scope matters here.",
        "The agreement ties the release of funds to the {v}, which neither party controls.",
    ],
    "party": [
        "The Agreement is between the Company and {v}, which acts as the supplier.",
        "{v} is named in the contract as the guarantor of the licensee's obligations.",
        "Notably, the counterparty is {v}, so any assignment needs its consent.",
    ],
    "person": [
        "The Agreement was signed on behalf of the customer by {v}, its Chief Financial Officer.",
        "Notices under the contract must be sent to the attention of {v}.",
        "The contract names {v} as the key person whose departure allows termination.",
        "Ms. {v} is identified in the Agreement as the escalation contact.",
    ],
    "legal_citation": [
        "The governing law clause expressly incorporates {v}, which broadens the remedies.",
        "The Agreement states that disputes are subject to {v}.",
        "Liability for misuse is measured under {v}, as the contract itself provides.",
        "Per the contract, compliance with {v} is a condition of payment.",
    ],
    "percentage": [
        "The Agreement caps annual price increases at {v}.",
        "Late payments accrue interest at {v} per annum under the contract.",
        "The contract gives the reseller a discount of {v} on list prices.",
        "Under the Agreement, {v} of the fees are held back until acceptance.",
    ],
    "amount": [
        "The Agreement sets a one-time onboarding fee of {v}.",
        "Liability under the contract is capped at {v} in the aggregate.",
    ],
    "date": [
        "The Agreement expires on {v}.",
        "The contract's first renewal date is {v}.",
    ],
}
WORDS = ["seventeen", "twenty-three", "thirty-seven", "forty-one", "eleven", "nineteen"]
MONTHS = ["January", "March", "May", "August", "October", "December"]


def norm(s):
    return " " + " ".join(re.findall(r"[a-z0-9]+", s.lower())) + " "


def value(kind, src, rng):
    n = norm(src)
    for _ in range(200):
        if kind == "defined_term":
            v = rng.choice(TERMS)
        elif kind == "party":
            v = rng.choice(ORGS)
        elif kind == "person":
            v = rng.choice(PEOPLE)
        elif kind == "legal_citation":
            v = rng.choice(CITATIONS)
        elif kind == "percentage":
            k = rng.randrange(3)
            if k == 0:
                v = f"{rng.randrange(11, 97)}.5%"
            elif k == 1:
                v = f"{rng.randrange(11, 97)} percent"
            else:
                v = f"{rng.choice(WORDS)} percent"
        elif kind == "amount":
            v = f"${rng.randrange(11, 990)},{rng.randrange(100, 999)}"
        else:
            v = f"{rng.choice(MONTHS)} {rng.randrange(2, 28)}, {rng.randrange(2031, 2045)}"
        key = norm(v).strip()
        if kind in ("percentage", "amount"):
            nums = {"seventeen": "17", "twenty-three": "23", "thirty-seven": "37", "forty-one": "41",
                    "eleven": "11", "nineteen": "19"}
            key = re.sub(r"[^0-9.]", "", nums.get(v.split()[0], v))
            if key and key in src:
                continue
        elif (" " + key + " ") in n:
            continue
        if kind == "person" and any((" " + w + " ") in n for w in key.split()):
            continue
        return v
    raise SystemExit("no absent value")


def source_of(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^\s+source:\s*(\S+)", text, re.M)
    return os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))


DRAFTY = re.compile(r"propos|redline|draft|revis|amend|suggest|recommend|new |insert|replace|"
                    r"language|clause text|\[(?:add|modify|delete)", re.I)


def slots(lines, body):
    """Blank lines right after a prose paragraph, outside code and drafted sections."""
    out, fence, heading = [], False, ""
    for i in range(body, len(lines)):
        s = lines[i].strip()
        if s.startswith("```") or s.startswith("~~~"):
            fence = not fence
            continue
        if fence:
            continue
        if s.startswith("#") or (s.startswith("**") and s.endswith("**") and len(s) < 90):
            heading = s
            continue
        prev = lines[i - 1].strip()
        if (s == "" and prev and prev[0].isalpha() and prev.endswith(".") and len(prev) > 60
                and not DRAFTY.search(heading) and not DRAFTY.search(prev)
                and '"' not in prev and not re.search(r"\bshall\b", prev)):
            out.append(i)
    return out


def findings(rep):
    out = []
    for r in rep.get("check_results", []):
        if r.get("check_id") not in GROUNDING or r.get("result") != "fail":
            continue
        for ev in r.get("evidence_citations", []):
            rng_ = ev.get("range") or {}
            out.append((r["check_id"], rng_.get("start", {}).get("line"), ev.get("span") or ""))
    return out


def tuning_pool(rng):
    """The corpus outputs outside the held-out set, shuffled by `rng`."""
    held = set(json.load(open(HELDOUT))["outputs"])
    pool = sorted(f[:-6] for f in os.listdir(OUTPUTS) if f.endswith(".ai.md") and f[:-6] not in held)
    rng.shuffle(pool)
    return pool


def workspace(prefix):
    """A temporary folder holding the corpus's contracts and prompts and an empty outputs/."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    for d in ("contracts", "prompts"):
        shutil.copytree(os.path.join(CORPUS, d), os.path.join(tmp, d))
    os.mkdir(os.path.join(tmp, "outputs"))
    return tmp


def reports(bin_, tmp, rels):
    """The evidence playbook's report of each planted copy, by document path."""
    reps = {}
    for k in range(0, len(rels), 100):
        p = subprocess.run([bin_, "check", "--mode", "deterministic", "--playbook", "evidence_contract_v1",
                            "--format", "json", "--db", os.path.join(tmp, "s.db"), "--fail-on", "never"]
                           + rels[k:k + 100], capture_output=True, text=True, cwd=tmp)
        rs = json.loads(p.stdout)
        for r in ([rs] if isinstance(rs, dict) else rs):
            reps[r["byop_report"]["document"]["path"]] = r["byop_report"]
    return reps


def body_start(lines):
    """The index of the first line after the front matter's closing `---`, or None."""
    return next((k + 1 for k in range(1, len(lines)) if lines[k].strip() == "---"), None)


class Target:
    """One planting job's output: its name, path, lines, slots (`slots`), source text, and
    which copy and job it is for."""

    def __init__(self, name, lines, slots_, copy_no, i, job):
        self.name, self.lines, self.slots, self.copy_no, self.i, self.job = (
            name, lines, slots_, copy_no, i, job)
        self.path = os.path.join(OUTPUTS, name + ".ai.md")
        self.orig = f"outputs/{name}.ai.md"
        self.src = open(source_of(self.path), encoding="utf-8", errors="replace").read()

    def write(self, tmp, rel, at, ins, drop):
        """Put `ins` in place of the `drop` lines before slot `at`; the copy is `rel` in `tmp`."""
        copy = self.lines[:at - drop] + ins + self.lines[at:]
        open(os.path.join(tmp, rel), "w", encoding="utf-8").write("\n".join(copy))

    def keep_original(self, tmp):
        """Copy the unplanted output into `tmp` (once) for the collateral comparison."""
        dest = os.path.join(tmp, self.orig)
        if not os.path.exists(dest):
            shutil.copy(self.path, dest)


def targets(pool, jobs, copies):
    """For each copy and each job, in order, the next output of `pool` that has a slot: the
    plant loop the hand-written batches share (each plant into its own copy of an output;
    a batch with more jobs than the pool has outputs goes round the pool again)."""
    names = itertools.cycle(pool)
    for copy_no in range(copies):
        for i, job in enumerate(jobs):
            while True:
                name = next(names)
                lines = open(os.path.join(OUTPUTS, name + ".ai.md"), encoding="utf-8").read().split("\n")
                body = body_start(lines)
                sl = slots(lines, body) if body else []
                if sl:
                    break
            yield Target(name, lines, sl, copy_no, i, job)


def off_plant(fs, lo, hi, shift, append):
    """Findings `fs` of a planted copy outside its planted lines `lo..hi`, in the original's
    line numbers (`shift` lines were added); for an appended plant its host line is left out."""
    off = sorted((c, ln - shift if ln is not None and ln > hi else ln, sp) for c, ln, sp in fs
                 if ln is None or not (lo <= ln <= hi))
    return [f for f in off if not (append and f[1] == lo)]


def original_findings(rep, lo, append):
    """The original output's findings, its appended plant's host line left out."""
    return sorted(f for f in (findings(rep) if rep else []) if not (append and f[1] == lo))


def collateral(fs, orig, p, append):
    """Did a planted copy change a finding outside its planted lines, against the original
    output `orig`? `None` when not, else the findings that differ (in the original's lines)."""
    off = off_plant(fs, p["lo"], p["hi"], p["shift"], append)
    base = original_findings(orig, p["lo"], append)
    return None if off == base else set(off) ^ set(base)


def score_plants(bin_, tmp, plants, show, miss_width=50):
    """Check every planted copy and print the catch rate per kind (and per position when the
    plants carry one). A plant is (rel, kind, line, paragraph, value[, position]); it is caught
    when a grounding finding within a line of it lies inside the planted paragraph. Removes
    `tmp` when done."""
    reps = reports(bin_, tmp, [p[0] for p in plants])
    per, perpos = {}, {}
    for rel, kind, line, para, v, *pos in plants:
        rep = next((r for p, r in reps.items() if p.endswith(rel)), None)
        hit = rep is not None and any(
            ln is not None and abs(ln - line) <= 1 and span and span in para for _, ln, span in findings(rep))
        for d, key in ((per, kind),) + (((perpos, pos[0]),) if pos else ()):
            c = d.setdefault(key, [0, 0])
            c[0] += hit
            c[1] += 1
        if show and not hit:
            why = sorted({f"{c['kind']}:{c.get('reason')}" for r in (rep or {}).get("check_results", [])
                          for c in r.get("skipped_claims", []) if abs(c.get("line", 0) - line) <= 1})
            print("MISS", kind, *pos, rel.split("/")[1][:miss_width], "|", para, "|", ", ".join(why))
    shutil.rmtree(tmp)
    tot = [sum(c[0] for c in per.values()), sum(c[1] for c in per.values())]
    for kind, (a, b) in per.items():
        print(f"{kind:15} {a}/{b} = {100 * a / b:.1f} %")
    print(f"{'total':15} {tot[0]}/{tot[1]} = {100 * tot[0] / tot[1]:.1f} %")
    if perpos:
        print("by position:", ", ".join(f"{p} {a}/{b}" for p, (a, b) in perpos.items()))


def main():
    bin_ = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-")
                            else os.path.join(ROOT, "target", "release", "byop"))
    show = "--show-misses" in sys.argv
    rng = random.Random(SEED)
    pool = tuning_pool(rng)
    tmp = workspace("byop-tuning-")
    plants, chosen = [], 0
    for name in pool:
        if chosen == N:
            break
        path = os.path.join(OUTPUTS, name + ".ai.md")
        lines = open(path, encoding="utf-8").read().split("\n")
        try:
            body = next(i for i in range(1, len(lines)) if lines[i].strip() == "---") + 1
        except StopIteration:
            continue
        sl = slots(lines, body)
        if not sl:
            continue
        chosen += 1
        src = open(source_of(path), encoding="utf-8", errors="replace").read()
        for kind, phr in PHRASINGS.items():
            v = value(kind, src, rng)
            para = rng.choice(phr).format(v=v)
            at = rng.choice(sl)
            copy = lines[:at] + ["", para] + lines[at:]
            rel = f"outputs/{name}__{kind}.ai.md"
            open(os.path.join(tmp, rel), "w", encoding="utf-8").write("\n".join(copy))
            plants.append((rel, kind, at + 1, para, v))
    score_plants(bin_, tmp, plants, show)


if __name__ == "__main__":
    main()
