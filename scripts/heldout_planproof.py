#!/usr/bin/env python3
"""Held-out PlanProof agreement: `byop check` on every plan of tests/data/heldout/planproof
against the hand-worked metrics in its expected.json. Never tune on this set; share figures only.

  scripts/heldout_planproof.py [BIN] [-v]

Prints agreement per metric, the plans with every metric right, and how many plans that
should pass were rejected. -v lists the plans that disagree (for the set's author, not for
tuning).
"""
import json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SET = os.path.join(ROOT, "tests", "data", "heldout", "planproof")
METRICS = ["constraints_declared", "constraints_violated", "time_available_minutes",
           "time_planned_minutes", "time_overflow_minutes", "hallucination_flags"]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose = "-v" in sys.argv
    bin_ = os.path.realpath(args[0]) if args else os.path.join(ROOT, "target", "release", "byop")
    exp = json.load(open(os.path.join(SET, "expected.json")))["plans"]
    agree = {m: 0 for m in ["status"] + METRICS + ["coverage"]}
    all_right, should_pass, rejected, unread, unread_pass = 0, 0, 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "store.db")
        for name, want in sorted(exp.items()):
            plan = os.path.join("tests", "data", "heldout", "planproof", "plans", name + ".md")
            p = subprocess.run([bin_, "check", "--mode", "deterministic", "--format", "json", "--db", db,
                                "--fail-on", "never", plan], capture_output=True, text=True, cwd=ROOT)
            got = {}
            try:
                v = json.loads(p.stdout)["byop_report"]["validation"]
                got = dict(v.get("metrics", {}), status=v.get("status"))
            except (ValueError, KeyError, TypeError):
                unread += 1
            wrong = []
            if got.get("status") == want["status"]:
                agree["status"] += 1
            else:
                wrong.append(f"status {got.get('status')} (want {want['status']})")
            for m in METRICS:
                if got.get(m) == want[m]:
                    agree[m] += 1
                else:
                    wrong.append(f"{m} {got.get(m)} (want {want[m]})")
            ratio = want["coverage"][0] / want["coverage"][1]
            if got.get("context_coverage_ratio") is not None and abs(got["context_coverage_ratio"] - ratio) < 1e-6:
                agree["coverage"] += 1
            else:
                wrong.append(f"coverage {got.get('context_coverage_ratio')} (want {ratio:.3f})")
            all_right += not wrong
            if want["status"] == "pass":
                should_pass += 1
                rejected += got.get("status") != "pass"
                unread_pass += got.get("status") != "pass" and not got.get("time_planned_minutes")
            if verbose and wrong:
                print(f"  {name}: " + "; ".join(wrong))
    n = len(exp)
    print(f"held-out PlanProof: {n} plans, {len({w['layout'] for w in exp.values()})} layouts, "
          f"{len({w['notes'] for w in exp.values()})} notes files ({bin_})")
    print("agreement per metric: " + ", ".join(f"{m} {k}/{n}" for m, k in agree.items()))
    print(f"plans with every metric right: {all_right}/{n} ({100 * all_right / n:.1f} %)")
    print(f"should-pass plans rejected: {rejected} of {should_pass} "
          f"({unread_pass} of them with no planned minutes read: the plan was not read)")
    if unread:
        print(f"plans with no validation object in the report: {unread}")


if __name__ == "__main__":
    main()
