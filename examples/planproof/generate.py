#!/usr/bin/env python3
"""Synthetic permutations of the hand-written scenarios.

For each base scenario (scenarios/<name>.md without "__") and each variant, writes five
permutations, each changing something a validator must not care about:

  names      people and organisations renamed consistently in notes and plans
  order      the notes' list items and the plan's items in reverse order
  urgency    must-do wording rephrased ("MUST" -> "Urgent:", "today!!" -> "- top priority", ...)
             or, where a scenario has no must-do wording, the task cues ("need to" -> "gotta")
  shift      every clock time (and current_time) one hour later, on the same day
  mixed      names + order + urgency together

Each permutation's expected validation is its base scenario's, by construction: the
expectations in expected.json are copied, never computed by byop. Re-run after editing a
base scenario:  python3 examples/planproof/generate.py
"""
import json, os, re, glob

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ["v1_naive", "v4_repair"]
NAMES = {
    "Dana": "Keisha", "Priya": "Ines", "Marcus": "Tomas", "Jonas": "Felix", "Clara": "Noor",
    "Kenji": "Hiro", "Yuki": "Emi", "Maya": "Zoe", "Omar": "Rafael", "Sam": "Alex",
    "Ananya": "Divya", "Lena": "Greta", "Das": "Roy", "Chen": "Park", "Acme": "Initech",
    "Brightline": "Northwind", "Berlin": "Lisbon",
}
URGENCY = [
    ("MUST finish", "Urgent: finish"),
    ("today!!", "- top priority"),
    ("must go out today", "has to go out by end of day"),
    ("party is today!", "party is tonight, non-negotiable"),
    ("finalize the press release today", "finalize the press release ASAP"),
]
CUES = [("need to ", "gotta "), ("should ", "have to "), ("Need to ", "Gotta "), ("Want to ", "Have to ")]


def split_fm(text):
    assert text.startswith("---\n")
    end = text.index("\n---\n", 4)
    return text[: end + 5], text[end + 5 :]


def rename(text):
    for a, b in NAMES.items():
        text = re.sub(rf"\b{a}\b", b, text)
    return text


def reverse_notes(body):
    lines = body.split("\n")
    idx = [i for i, l in enumerate(lines) if re.match(r"^\s*[-*]\s", l)]
    items = [lines[i] for i in idx][::-1]
    for i, l in zip(idx, items):
        lines[i] = l
    return "\n".join(lines)


def reverse_plan(body):
    if body.lstrip().startswith("{"):
        d = json.loads(body)
        d["plan"] = d["plan"][::-1]
        return json.dumps(d, indent=2, ensure_ascii=False) + "\n"
    lines = body.split("\n")
    # Plan items: list lines before the first Assumptions/Questions heading.
    stop = next((i for i, l in enumerate(lines) if re.search(r"(?i)assumption|question", l) and not re.match(r"^\s*([-*]|\d+\.)\s", l)), len(lines))
    idx = [i for i in range(stop) if re.match(r"^\s*([-*]|\d+\.)\s", lines[i])]
    items = [lines[i] for i in idx][::-1]
    for i, l in zip(idx, items):
        lines[i] = l
    return "\n".join(lines)


def urgency(body):
    out = body
    for a, b in URGENCY:
        out = out.replace(a, b)
    if out == body:
        for a, b in CUES:
            out = out.replace(a, b)
    return out


TIME = re.compile(r"(?<![\d:.])(\d{1,2})(?::(\d{2}))?(\s*)(am|pm|AM|PM|a\.m\.|p\.m\.)?(?![\d])")


def shift_times(text):
    """Every clock time one hour later: '3 PM' -> '4 PM', '9:30-9:45' -> '10:30-10:45',
    '12-1pm' -> '1-2pm'. Bare numbers that are not times ('chapters 4-6', 'bed 4', '1:1')
    stay as they are."""
    out, last = [], 0
    for m in TIME.finditer(text):
        h, mm, sp, mer = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        rest = text[m.end():]
        nxt = re.match(r"\s*(?:-|–|—|to|until)\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm|AM|PM)?", rest)
        prev = text[: m.start()]
        if mm is None and mer is None:
            # A bare hour is a time only as the start of a range whose end is explicit.
            if not (nxt and (nxt.group(2) or nxt.group(3))):
                continue
            if text[max(0, m.start() - 2): m.start()] in ("1:",):
                continue
        if mm is not None and len(mm) != 2:
            continue
        if prev.endswith(":") or re.search(r"\d:$", prev):
            continue
        twelve = mer is not None or (nxt is not None and nxt.group(3) is not None and h <= 12)
        if mer is None and mm is None and nxt is None:
            continue
        if twelve:
            nh = h % 12 + 1
            if mer:
                pm = mer.lower().startswith("p")
                if h == 11:
                    pm = not pm
                mer_out = (mer[0].upper() if mer[0].isupper() else mer[0].lower()) + mer[1:]
                mer_out = ("P" if pm else "A") + mer[1:] if mer[0].isupper() else ("p" if pm else "a") + mer[1:]
            else:
                mer_out = ""
            new = f"{nh}" + (f":{mm}" if mm else "") + sp + mer_out
        else:
            nh = h + 1
            new = (f"{nh:02d}" if m.group(1).startswith("0") or len(m.group(1)) == 2 and nh >= 10 else f"{nh}") + (f":{mm}" if mm else "") + sp
            if len(m.group(1)) == 2 and m.group(1).startswith("0"):
                new = f"{nh:02d}" + (f":{mm}" if mm else "") + sp
        out.append(text[last:m.start()])
        out.append(new)
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def shift_fm(fm):
    def one(m):
        date, h, rest = m.group(1), int(m.group(2)), m.group(3)
        return f'current_time: "{date}T{h + 1:02d}{rest}"'
    return re.sub(r'current_time: "([\d-]+)T(\d{2})([^"]*)"', one, fm)


PERMS = {
    "names": (lambda fm: fm, rename, rename),
    "order": (lambda fm: fm, reverse_notes, reverse_plan),
    "urgency": (lambda fm: fm, urgency, lambda b: b),
    "shift": (shift_fm, shift_times, shift_times),
    "mixed": (lambda fm: fm, lambda b: urgency(reverse_notes(rename(b))), lambda b: reverse_plan(rename(b))),
}


def main():
    for f in glob.glob(os.path.join(HERE, "scenarios", "*__*.md")) + glob.glob(os.path.join(HERE, "variants", "*", "*__*.md")):
        os.remove(f)
    with open(os.path.join(HERE, "expected.json")) as fh:
        expected = json.load(fh)
    base = sorted(k for k in expected if not k.startswith("_") and "__" not in k)
    for k in [k for k in expected if "__" in k]:
        del expected[k]
    for name in base:
        sfm, notes = split_fm(open(os.path.join(HERE, "scenarios", f"{name}.md")).read())
        for perm, (ffm, fnotes, fplan) in PERMS.items():
            new = f"{name}__{perm}"
            with open(os.path.join(HERE, "scenarios", f"{new}.md"), "w") as fh:
                fh.write(ffm(sfm) + fnotes(notes))
            for v in VARIANTS:
                vfm, plan = split_fm(open(os.path.join(HERE, "variants", v, f"{name}.md")).read())
                vfm = ffm(vfm).replace(f"scenarios/{name}.md", f"scenarios/{new}.md")
                with open(os.path.join(HERE, "variants", v, f"{new}.md"), "w") as fh:
                    fh.write(vfm + fplan(plan))
            expected[new] = expected[name]
    with open(os.path.join(HERE, "expected.json"), "w") as fh:
        json.dump(expected, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print(f"{len(base)} scenarios, {len(base) * len(PERMS)} permutations")


if __name__ == "__main__":
    main()
