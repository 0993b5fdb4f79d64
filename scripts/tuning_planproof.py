#!/usr/bin/env python3
"""PlanProof tuning agreement: `byop check` on every plan of tests/data/planproof_tuning
against the hand-worked metrics in its expected.json (worked out before byop was run on it).
This set is for tuning: read its failures freely. tests/planproof_tuning.rs asserts it.

  scripts/tuning_planproof.py [BIN] [-v]
"""
import json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SET = os.path.join(ROOT, "tests", "data", "planproof_tuning")
METRICS = ["constraints_declared", "constraints_violated", "time_available_minutes",
           "time_planned_minutes", "time_overflow_minutes", "hallucination_flags"]


def check(bin_, db, name, want):
    plan = os.path.join(SET, "plans", name + ".md")
    p = subprocess.run([bin_, "check", "--mode", "deterministic", "--format", "json", "--db", db,
                        "--fail-on", "never", plan], capture_output=True, text=True, cwd=ROOT)
    try:
        v = json.loads(p.stdout)["byop_report"]["validation"]
    except (ValueError, KeyError, TypeError):
        return ["no validation object: " + p.stderr.strip()[:200]]
    got = dict(v.get("metrics", {}), status=v.get("status"))
    wrong = [] if got["status"] == want["status"] else [f"status {got['status']} (want {want['status']}): {v.get('errors')}"]
    unread = any("Plan could not be read" in e for e in v.get("errors", []))
    if want.get("unread"):
        return wrong + ([] if unread else ["plan was read (want 'Plan could not be read')"])
    if unread:
        wrong.append(f"not read: {v.get('errors')}")
    for m in METRICS:
        if got.get(m) != want[m]:
            wrong.append(f"{m} {got.get(m)} (want {want[m]})")
    ratio = want["coverage"][0] / want["coverage"][1]
    if got.get("context_coverage_ratio") is None or abs(got["context_coverage_ratio"] - ratio) > 1e-6:
        wrong.append(f"coverage {got.get('context_coverage_ratio')} (want {ratio:.3f})")
    return wrong


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    bin_ = os.path.realpath(args[0]) if args else os.path.join(ROOT, "target", "debug", "byop")
    exp = json.load(open(os.path.join(SET, "expected.json")))["plans"]
    right = 0
    known = sum(1 for w in exp.values() if w.get("known_miss"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, want in sorted(exp.items()):
            wrong = check(bin_, os.path.join(tmp, "store.db"), name, want)
            right += not wrong
            if wrong and "-v" in sys.argv:
                print(f"  {name}: " + "; ".join(wrong))
    print(f"tuning PlanProof: {right}/{len(exp)} plans with every metric right"
          f" ({known} marked known_miss)")


if __name__ == "__main__":
    main()
