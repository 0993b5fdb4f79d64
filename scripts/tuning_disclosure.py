#!/usr/bin/env python3
"""Agreement of `unchecked_areas_disclosure` with a TUNING set of outputs written fresh (never
a held-out set): a folder holding `labels.json` (rows of file, source, prompt, label yes|no,
sentence, why, copies_markers) and the outputs it names, laid out as the second held-out set is.

  scripts/tuning_disclosure.py [-v] [BIN] [SET_DIR] [PLAYBOOK]

Defaults: target/debug/byop, tests/data/labels/disclosure_fresh3, the built-in starter
playbook's file. Each output is checked against its contract and prompt (copied beside it,
named in front matter). -v lists every disagreement with the labeller's reason and the rule's
notes, so a tuning round can read its failures. The held-out sets have their own script
(`heldout_disclosure.py`), which prints figures only.
"""
import json, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import heldout_disclosure as h  # noqa: E402  (shares the runner and the copy layout)

ROOT = h.ROOT


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    bin_ = os.path.realpath(args[0]) if args else os.path.join(ROOT, "target", "debug", "byop")
    folder = os.path.realpath(args[1]) if len(args) > 1 else os.path.join(ROOT, "tests", "data", "labels", "disclosure_fresh3")
    playbook = os.path.realpath(args[2]) if len(args) > 2 else os.path.join(ROOT, "playbooks", "ai_plugin_observability_v1.json")
    if "heldout" in folder.split(os.sep):
        sys.exit("this script is for tuning sets; measure a held-out set with heldout_disclosure.py")
    rows = json.load(open(os.path.join(folder, "labels.json"), encoding="utf-8"))["rows"]
    h.FRESH = folder
    with tempfile.TemporaryDirectory() as tmp:
        reports = h.run(bin_, playbook, h.fresh_copies(rows, tmp), tmp, tmp)
    got, notes = {}, {}
    for r, rep in zip(rows, reports):
        c = next(c for c in rep["check_results"] if c["check_id"] == h.CHECK)
        got[r["file"]] = h.local_verdict(c)
        notes[r["file"]] = c["notes"]
    print(f"tuning {h.CHECK} ({os.path.relpath(folder, ROOT)}, {bin_})")
    h.print_figures(rows, got)
    if verbose:
        for r in rows:
            if r["label"] in h.WANT and got[r["file"]] != h.WANT[r["label"]]:
                kind = "FALSE PASS" if r["label"] == "no" else "MISSED"
                print(f"\n{kind} {r['file']} ({r.get('style', '')}): {r['why']}")
                if r.get("sentence"):
                    print(f"  labelled sentence: {r['sentence']}")
                print("  rule: " + notes[r["file"]].replace("\n", "\n        "))


if __name__ == "__main__":
    main()
