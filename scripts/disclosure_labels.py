#!/usr/bin/env python3
"""Disclosure recall: sample corpus outputs for labelling, show them, and measure the rules.

  scripts/disclosure_labels.py sample            # round 1: the seeded stratified sample (file set)
  scripts/disclosure_labels.py sample2           # round 2: 6 more per model, 3 held out
  scripts/disclosure_labels.py sample3           # round 3: 4 more per model, all tune, outside
                                                 # the held-out set (reads only its file names)
  scripts/disclosure_labels.py sample4           # round 4: 6 more per model, all tune, outside
                                                 # rounds 1-3 and the held-out set's file names
  scripts/disclosure_labels.py sample5           # round 5: all outputs left outside rounds 1-4
                                                 # and the held-out set's file names
  scripts/disclosure_labels.py view FILE...      # compact view for a human labeller
  scripts/disclosure_labels.py measure [PLAYBOOK] [-v [--set=tune]]
                                                 # agreement of the real binary with the labels,
                                                 # per set and labelling round (-v: disagreements)

`measure` runs `target/debug/byop check --mode deterministic --format json` (build it first)
with the given playbook file (default: playbooks/ai_plugin_observability_v1.json), so a
tuned playbook can be measured without rebuilding.
"""
import json, os, random, re, subprocess, sys, collections

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "contract-reviews"))
OUT = os.path.join(CORPUS, "outputs")
LABELS = os.path.join(ROOT, "tests", "data", "labels")
NAME = re.compile(r"^contract_(\d+)_([a-z_]+?)(?:_(\d+))?__(.+)\.ai\.md$")


def parse(name):
    m = NAME.match(name)
    return {"task": m.group(2), "model": m.group(4)}


def sample():
    rng = random.Random(15)
    files = sorted(f for f in os.listdir(OUT) if f.endswith(".ai.md"))
    by_model = collections.defaultdict(list)
    for f in files:
        by_model[parse(f)["model"]].append(f)
    rows = []
    for model in sorted(by_model):
        pool = by_model[model][:]
        rng.shuffle(pool)
        # cover every task kind first, then fill at random
        chosen, seen = [], set()
        for f in pool:
            t = parse(f)["task"]
            if t not in seen:
                seen.add(t); chosen.append(f)
        chosen += [f for f in pool if f not in chosen][: 13 - len(chosen)]
        chosen = chosen[:13]
        rng.shuffle(chosen)
        for i, f in enumerate(chosen):
            rows.append((f, model, parse(f)["task"], "holdout" if i < 5 else "tune"))
    return rows


def sample2():
    """Round 2: outside the round-1 sample, seed 1502, 6 per model (every task kind first)."""
    rng = random.Random(1502)
    first = {f for f, *_ in sample()}
    files = sorted(f for f in os.listdir(OUT) if f.endswith(".ai.md") and f not in first)
    by_model = collections.defaultdict(list)
    for f in files:
        by_model[parse(f)["model"]].append(f)
    rows = []
    for model in sorted(by_model):
        pool = by_model[model][:]
        rng.shuffle(pool)
        chosen, seen = [], set()
        for f in pool:
            t = parse(f)["task"]
            if t not in seen:
                seen.add(t); chosen.append(f)
        chosen = (chosen + [f for f in pool if f not in chosen])[:6]
        rng.shuffle(chosen)
        for i, f in enumerate(chosen):
            rows.append((f, model, parse(f)["task"], "holdout" if i < 3 else "tune"))
    return rows


def sample_round(round_, seed, per_model):
    """A tune round drawn outside the other rounds and the held-out set's file names."""
    heldout = os.path.join(ROOT, "tests", "data", "heldout", "disclosure", "unchecked_areas_disclosure.json")
    skip = {r["file"] for r in json.load(open(heldout))["rows"]}
    skip |= {r["file"] for r in json.load(open(os.path.join(LABELS, "unchecked_areas_disclosure.json")))["rows"]
             if r.get("round") != round_}
    rng = random.Random(seed)
    by_model = collections.defaultdict(list)
    for f in sorted(f for f in os.listdir(OUT) if f.endswith(".ai.md") and f not in skip):
        by_model[parse(f)["model"]].append(f)
    rows = []
    for model in sorted(by_model):
        pool = by_model[model][:]
        rng.shuffle(pool)
        rows += [(f, model, parse(f)["task"], "tune") for f in pool[:per_model]]
    return rows


def sample3():
    """Round 3: seed 2211, 4 per model."""
    return sample_round(3, 2211, 4)


def sample4():
    """Round 4: seed 2911, 6 per model."""
    return sample_round(4, 2911, 6)


def sample5():
    """Round 5: every output left outside rounds 1-4 and the held-out set (seed 2912 orders
    them; the corpus had fewer left than a per-model quota would ask for)."""
    rows = sample_round(5, 2912, 10**6)
    random.Random(2912).shuffle(rows)
    return rows


CUES = re.compile(r"not provided|not included|not attached|not populated|not specified|not defined|"
    r"missing|absent|unavailable|redact|truncat|incomplete|excerpt|assum|verif|confirm|"
    r"consisten|clarif|ambigu|unclear|blank|placeholder|does not (?:contain|include|specify|define|address)|"
    r"referenced|would need|need to|outside|scope of|caveat|note:|not (?:reviewed|checked|analy)|"
    r"based (?:solely |only )?on|unknown|further|additional information|depend|legal advice|counsel|"
    r"\\b(?:i|we) (?:did|have|could|can|do|would|will|assume)|cannot|can't|unable|not clear|not stated|"
    r"not (?:available|visible|shown)|insufficient|gap", re.I)
CONTRACT = re.compile(r"\\bshall\\b|hereby|herein|hereunder|thereof|^\\W*\\[(?:ADD|MODIFY|DELETE|END)|^\\W*\\(?[a-z0-9]{1,4}[).]\\s", re.I)


def view(path):
    name = os.path.basename(path)
    text = open(os.path.join(OUT, name), encoding="utf-8").read()
    body = text.split("---\n", 2)[2] if text.startswith("---\n") else text
    print(f"===== {name} ({len(body)} chars)")
    print("HEAD:", body[:400].replace("\n", " / "))
    sents = re.split(r"(?<=[.!?;:])\s+|\n+", body[400:-700] if len(body) > 1100 else "")
    for s in sents:
        if CUES.search(s) and not CONTRACT.search(s) and len(s) < 500:
            print("  *", s.strip())
    print("TAIL:", body[-700:].replace("\n", " / ") if len(body) > 400 else "")


def load(name):
    return json.load(open(os.path.join(LABELS, name), encoding="utf-8"))


def run_byop(playbook, files):
    cmd = [os.path.join(ROOT, "target", "debug", "byop"), "check", "--mode", "deterministic",
           "--format", "json", "--fail-on", "never", "--db", "/tmp/byop15-measure/db.sqlite",
           "--playbook", playbook] + [os.path.join("outputs", f) for f in files]
    out = subprocess.run(cmd, cwd=CORPUS, capture_output=True, text=True)
    if out.returncode not in (0, 1, 3):
        sys.exit(out.stderr)
    reports = json.loads(out.stdout)
    return [r["byop_report"] for r in reports]


def local_verdict(c):
    """The rule's verdict: the check's result, or for evaluator checks run without an
    evaluator the local rule's outcome recorded in the notes."""
    if c["result"] != "indeterminate" or "Local rules:" not in c["notes"]:
        return c["result"]
    local = c["notes"].split("Local rules:", 1)[1]
    return "fail" if "No required text found" in local else "pass"


def measure(playbook):
    verbose = "-v" in sys.argv
    only = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--set=")), None)
    for check in ("unchecked_areas_disclosure", "escalation_signal"):
        rows = load(check + ".json")["rows"]
        files = [r["file"] for r in rows]
        got = {}
        for f, rep in zip(files, run_byop(playbook, files)):
            c = next(c for c in rep["check_results"] if c["check_id"] == check)
            got[f] = local_verdict(c)
        want_map = {"yes": "pass", "no": "fail"}
        groups = [(s, None) for s in ("tune", "holdout")]
        groups += [(s, n) for n in sorted({r.get("round", 1) for r in rows}) for s in ("tune", "holdout")]
        for s, rnd in groups:
            sel = [r for r in rows if r["label"] in want_map and r["set"] == s
                   and rnd in (None, r.get("round", 1))]
            agree = sum(got[r["file"]] == want_map[r["label"]] for r in sel)
            fp = sum(r["label"] == "no" and got[r["file"]] == "pass" for r in sel)
            fn = sum(r["label"] == "yes" and got[r["file"]] != "pass" for r in sel)
            name = s if rnd is None else f"{s} r{rnd}"
            print(f"{check:27} {name:10} n={len(sel):3} agree={agree:3} ({100*agree/max(1,len(sel)):.1f}%) false_pass={fp} missed={fn}")
        if verbose:
            for r in rows:
                g = got[r["file"]]
                if r["label"] in want_map and g != want_map[r["label"]] and only in (None, r["set"]):
                    print(f"  DISAGREE [{r['set']}] {r['file']} label={r['label']} rule={g}: {r['sentence'][:160]}")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "measure"
    rounds = {"sample": sample, "sample2": sample2, "sample3": sample3, "sample4": sample4,
              "sample5": sample5}
    if cmd in rounds:
        for r in rounds[cmd]():
            print(*r)
    elif cmd == "view":
        for p in sys.argv[2:]:
            view(p)
    else:
        args = [a for a in sys.argv[2:] if not a.startswith("-")]
        measure(args[0] if args else os.path.join(ROOT, "playbooks", "ai_plugin_observability_v1.json"))
