#!/usr/bin/env python3
"""Seed fuzz/corpus/<target>/ from the real corpus, the playbooks and the README's byop.toml,
so each target starts from realistic input. Idempotent; writes only under corpus/."""
import json, os, random, re, sys
from pathlib import Path

here = Path(__file__).resolve().parent
root = here.parent
reviews = Path(os.environ.get("BYOP_CORPUS", root.parent / "shared/corpus/contract-reviews"))
rng = random.Random(14)
MAX = 65536

def put(target, name, data: bytes):
    d = here / "corpus" / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data[:MAX])

outputs = sorted((reviews / "outputs").glob("*.ai.md")) if reviews.exists() else []
docs = [p.read_bytes() for p in rng.sample(outputs, min(40, len(outputs)))]
docs += [p.read_bytes() for p in (root / "examples").rglob("*.md")][:20]
for i, d in enumerate(docs):
    put("front_matter", f"doc{i}", d)
    put("positions", f"doc{i}", d[:8192])
    put("suppressions", f"doc{i}", d[:4096] + b"\n<!-- byop-disable-next-line certainty_language -->\n"
        b"<!-- byop-disable all -->\nx\n<!-- byop-enable all -->\n<!-- byop-disable-file escalation_signal -->\n")
    body = d.decode("utf-8", "replace")
    sents = [s for s in re.split(r"(?<=[.!?])\s+", body) if 20 < len(s) < 300]
    if sents:
        q = rng.choice(sents)
        words = q.split()
        if len(words) > 8:  # an ellipsis quote and a misquote too
            put("locator", f"doc{i}e", d[:16384] + b"\xff" + " ".join(words[:3] + ["..."] + words[-3:]).encode())
            words[len(words) // 2] = "notthere"
        put("locator", f"doc{i}", d[:16384] + b"\xff" + " ".join(words).encode())
    # A review and the contract it names (front matter `source:`), as the grounding target
    # reads them: output 0xFF source.
    m = re.search(r"^\s*source:\s*(\S+)", body, re.M)
    src = (reviews / "outputs" / m.group(1)).resolve() if m else None
    if src and src.is_file():
        put("grounding", f"doc{i}", d[:24576].replace(b"\xff", b"") + b"\xff" + src.read_bytes()[:40000])
    ops = bytes(rng.randrange(256) for _ in range(60))
    put("incremental_edits", f"doc{i}", d[:2048].replace(b"\xff", b"") + b"\xff" + ops)

for p in (root / "playbooks").glob("*.json"):
    put("playbook_json", p.stem, p.read_bytes())
readme = (root / "README.md").read_text()
tomls = re.findall(r"```toml\n(.*?)```", readme, re.S)
for i, t in enumerate(tomls):
    put("byop_toml", f"readme{i}", t.encode())
put("byop_toml", "evidence", b'[evidence]\nallowed_origins = ["https://law.go.kr"]\n[evaluator]\nruns = 3\n')
for i, result in enumerate(["pass", "fail", "indeterminate"]):
    v = {"result": result, "confidence": 0.8, "evidence_citations": [
        {"quote": "The clause is enforceable.", "location_hint": "line 3"}], "notes": "n"}
    put("verdict", f"v{i}", json.dumps(v).encode())
    put("verdict", f"v{i}fenced", b"Here you go:\n```json\n" + json.dumps(v).encode() + b"\n```\n")
print("seeded", sum(1 for _ in (here / "corpus").rglob("*") if _.is_file()), "inputs")
