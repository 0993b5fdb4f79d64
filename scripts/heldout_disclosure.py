#!/usr/bin/env python3
"""Held-out agreement of `unchecked_areas_disclosure` with hand labels
(tests/data/heldout/disclosure/unchecked_areas_disclosure.json). Never tune on this set;
share figures only.

  scripts/heldout_disclosure.py [--fresh] [BIN] [PLAYBOOK]

A rule `pass` agrees with `yes`, `fail` with `no`; a false pass is a `no` output the rule
passes. Figures for the whole set and for the outputs that copy redaction markers.

--fresh measures the second held-out set instead (tests/data/heldout/disclosure2/): 40 outputs
written for it by a writer who had not seen the rule, answering corpus prompts against corpus
contracts, labelled by the writer and again blind by a second reader (they agree on all 40).
Each output is checked against its contract and prompt, named in a copy's front matter.
"""
import json, os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "contract-reviews"))
LABELS = os.path.join(ROOT, "tests", "data", "heldout", "disclosure", "unchecked_areas_disclosure.json")
FRESH = os.path.join(ROOT, "tests", "data", "heldout", "disclosure2")
CHECK = "unchecked_areas_disclosure"


def local_verdict(c):
    """The check's result, or for a check that needs an evaluator and ran without one, the
    verdict of its local rule as recorded in the notes."""
    if c["result"] != "indeterminate" or "Local rules:" not in c["notes"]:
        return c["result"]
    return "fail" if "No required text found" in c["notes"].split("Local rules:", 1)[1] else "pass"


def run(bin_, playbook, files, cwd, tmp):
    p = subprocess.run([bin_, "check", "--mode", "deterministic", "--format", "json", "--fail-on", "never",
                        "--db", os.path.join(tmp, "db.sqlite"), "--playbook", playbook] + files,
                       cwd=cwd, capture_output=True, text=True)
    if p.returncode not in (0, 1, 3):
        sys.exit(p.stderr)
    return [r["byop_report"] for r in json.loads(p.stdout)]


def fresh_copies(rows, tmp):
    """The fresh outputs laid out as the corpus is, in `tmp` (a source must lie in the checked
    workspace): each output copied with front matter naming its contract and prompt, copied
    beside it. Returns the outputs' paths relative to `tmp`."""
    files = []
    for r in rows:
        for companion in (r["source"], r["prompt"]):
            os.makedirs(os.path.join(tmp, os.path.dirname(companion)), exist_ok=True)
            shutil.copyfile(os.path.join(CORPUS, companion), os.path.join(tmp, companion))
        text = open(os.path.join(FRESH, r["file"]), encoding="utf-8").read()
        path = os.path.join("outputs", os.path.basename(r["file"]))
        os.makedirs(os.path.join(tmp, "outputs"), exist_ok=True)
        with open(os.path.join(tmp, path), "w", encoding="utf-8") as f:
            f.write(f"---\nbyop:\n  source: ../{r['source']}\n  prompt: ../{r['prompt']}\n---\n{text}")
        files.append(path)
    return files


WANT = {"yes": "pass", "no": "fail"}


def print_figures(rows, got):
    """Agreement, false passes and missed disclosures of verdicts `got` (by file) with the
    rows' labels, for all rows and for the outputs copying redaction markers."""
    for name, sel in [("all", rows), ("copying redaction markers", [r for r in rows if r.get("copies_markers")])]:
        sel = [r for r in sel if r["label"] in WANT]
        agree = sum(got[r["file"]] == WANT[r["label"]] for r in sel)
        fp = sum(r["label"] == "no" and got[r["file"]] == "pass" for r in sel)
        missed = sum(r["label"] == "yes" and got[r["file"]] != "pass" for r in sel)
        print(f"  {name:27} n={len(sel):3} agree={agree:3} ({100 * agree / max(1, len(sel)):.1f} %) "
              f"false passes={fp} missed disclosures={missed}")


def main():
    args = sys.argv[1:]
    fresh = "--fresh" in args
    args = [a for a in args if a != "--fresh"]
    bin_ = os.path.realpath(args[0]) if args else os.path.join(ROOT, "target", "release", "byop")
    playbook = os.path.realpath(args[1]) if len(args) > 1 else os.path.join(ROOT, "playbooks", "ai_plugin_observability_v1.json")
    rows = json.load(open(os.path.join(FRESH, "labels.json") if fresh else LABELS))["rows"]
    with tempfile.TemporaryDirectory() as tmp:
        if fresh:
            reports = run(bin_, playbook, fresh_copies(rows, tmp), tmp, tmp)
        else:
            reports = run(bin_, playbook, [os.path.join("outputs", r["file"]) for r in rows], CORPUS, tmp)
    got = {}
    for r, rep in zip(rows, reports):
        c = next(c for c in rep["check_results"] if c["check_id"] == CHECK)
        got[r["file"]] = local_verdict(c)
    print(f"held-out {'(fresh) ' if fresh else ''}{CHECK} ({bin_})")
    print_figures(rows, got)

if __name__ == "__main__":
    main()
