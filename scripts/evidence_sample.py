#!/usr/bin/env python3
"""Draw the precision sample of evidence-contract findings (docs/evidence-measurement.md):

  scripts/evidence_sample.py [BIN] [OUT.json] [N] [SEED]

runs `byop check --playbook evidence_contract_v1` once over every corpus output (one process,
so a debug build takes minutes, not an hour), takes every finding (an evidence citation of a
failing grounding check), draws N of them (default 40, all when there are fewer) with
random.Random(SEED) (default 2226) and writes them with the source passage each one points at,
for a second reader to judge against the source contract.
"""
import json, os, random, subprocess, sys, tempfile, collections

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "contract-reviews"))
CHECKS = ["quotes_grounded", "quotes_verbatim", "quotes_paraphrased", "references_grounded",
          "entities_grounded"]


def main():
    a = sys.argv[1:]
    bin_ = os.path.realpath(a[0]) if a else os.path.join(ROOT, "target", "release", "byop")
    out = a[1] if len(a) > 1 else "/tmp/byop-evidence-sample.json"
    n = int(a[2]) if len(a) > 2 else 40
    seed = int(a[3]) if len(a) > 3 else 2226
    files = sorted(f for f in os.listdir(os.path.join(CORPUS, "outputs")) if f.endswith(".ai.md"))
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([bin_, "check", "--mode", "deterministic", "--format", "json",
                            "--fail-on", "never", "--db", os.path.join(tmp, "db.sqlite"),
                            "--playbook", "evidence_contract_v1"]
                           + [os.path.join("outputs", f) for f in files],
                           cwd=CORPUS, capture_output=True, text=True)
    if p.returncode not in (0, 1, 3):
        sys.exit(p.stderr)
    findings = []
    per_check = collections.Counter()
    for f, rep in zip(files, json.loads(p.stdout)):
        for r in rep["byop_report"]["check_results"]:
            if r["check_id"] not in CHECKS or r["result"] != "fail":
                continue
            for c in r.get("evidence_citations", []):
                per_check[r["check_id"]] += 1
                findings.append({
                    "file": f, "check": r["check_id"], "location": c.get("location"),
                    "span": c.get("span"), "note": c.get("context"),
                    "source": (c.get("source") or {}).get("excerpt"),
                })
    for c in CHECKS:
        print(f"{c}: {per_check[c]} finding(s)")
    print(f"total: {len(findings)}")
    sample = findings if len(findings) <= n else random.Random(seed).sample(findings, n)
    sample.sort(key=lambda x: (x["file"], x["check"], x["location"] or ""))
    json.dump({"seed": seed, "total": len(findings), "per_check": per_check, "sample": sample},
              open(out, "w"), indent=1, ensure_ascii=False)
    print(f"sample of {len(sample)} written to {out}")


if __name__ == "__main__":
    main()
