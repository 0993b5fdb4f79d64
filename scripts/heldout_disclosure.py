#!/usr/bin/env python3
"""Held-out agreement of `unchecked_areas_disclosure` with hand labels
(tests/data/heldout/disclosure/unchecked_areas_disclosure.json). Never tune on this set;
share figures only.

  scripts/heldout_disclosure.py [BIN] [PLAYBOOK]

A rule `pass` agrees with `yes`, `fail` with `no`; a false pass is a `no` output the rule
passes. Figures for the whole set and for the outputs that copy redaction markers.
"""
import json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "contract-reviews"))
LABELS = os.path.join(ROOT, "tests", "data", "heldout", "disclosure", "unchecked_areas_disclosure.json")
CHECK = "unchecked_areas_disclosure"


def local_verdict(c):
    """The check's result, or for a check that needs an evaluator and ran without one, the
    verdict of its local rule as recorded in the notes."""
    if c["result"] != "indeterminate" or "Local rules:" not in c["notes"]:
        return c["result"]
    return "fail" if "No required text found" in c["notes"].split("Local rules:", 1)[1] else "pass"


def main():
    args = sys.argv[1:]
    bin_ = os.path.realpath(args[0]) if args else os.path.join(ROOT, "target", "release", "byop")
    playbook = os.path.realpath(args[1]) if len(args) > 1 else os.path.join(ROOT, "playbooks", "ai_plugin_observability_v1.json")
    rows = json.load(open(LABELS))["rows"]
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([bin_, "check", "--mode", "deterministic", "--format", "json", "--fail-on", "never",
                            "--db", os.path.join(tmp, "db.sqlite"), "--playbook", playbook]
                           + [os.path.join("outputs", r["file"]) for r in rows],
                           cwd=CORPUS, capture_output=True, text=True)
    if p.returncode not in (0, 1, 3):
        sys.exit(p.stderr)
    reports = [r["byop_report"] for r in json.loads(p.stdout)]
    got = {}
    for r, rep in zip(rows, reports):
        c = next(c for c in rep["check_results"] if c["check_id"] == CHECK)
        got[r["file"]] = local_verdict(c)
    want = {"yes": "pass", "no": "fail"}
    print(f"held-out {CHECK} ({bin_})")
    for name, sel in [("all", rows), ("copying redaction markers", [r for r in rows if r["copies_markers"]])]:
        sel = [r for r in sel if r["label"] in want]
        agree = sum(got[r["file"]] == want[r["label"]] for r in sel)
        fp = sum(r["label"] == "no" and got[r["file"]] == "pass" for r in sel)
        missed = sum(r["label"] == "yes" and got[r["file"]] != "pass" for r in sel)
        print(f"  {name:27} n={len(sel):3} agree={agree:3} ({100 * agree / max(1, len(sel)):.1f} %) "
              f"false passes={fp} missed disclosures={missed}")


if __name__ == "__main__":
    main()
