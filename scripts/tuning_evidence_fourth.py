#!/usr/bin/env python3
"""Fourth tuning recall of the evidence contract: hand-written phrasings of three kinds (defined
terms, percentages, durations) planted one at a time as a paragraph after the opening paragraph of one
tuning output (not in the held-out set; the script checks). Every planted value is invented, so
every sentence is expected to be flagged; the expectation was written before byop ran.

  scripts/tuning_evidence_fourth.py [BIN] [OUTPUT_NAME]

Terms and percentages (34): 10/34 at main 1758f26 plus the first recall commit, 26/34 after
the second. Durations (16, added next): 10/16 before the duration markers, 16/16 after; all
50: 42/50. Prints each miss with the set-aside reasons on its line.
"""
import json, os, subprocess, sys, tempfile, shutil
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus", "contract-reviews"))
held=set(json.load(open(os.path.join(ROOT, 'tests/data/heldout/evidence/recall_set.json')))['outputs'])
name=sys.argv[2] if len(sys.argv)>2 else "contract_005_review_3__gpt-5"
assert name not in held and name+".ai.md" not in held
T="Milestone Credit"
P=[("term",T,s) for s in [
 f'Under the Agreement, the {T} is paid quarterly.',
 f'{T} is a defined term in the Agreement.',
 f'The Agreement uses {T} to mean the rebate owed for delay.',
 f'Payments depend on whether a {T} has accrued.',
 f'The {T} definition is broad.',
 f'Any {T} is set off against fees.',
 f'Each {T} expires after a year.',
 f'{T}s are calculated monthly.',
 f'The concept of {T} drives pricing.',
 f'The buyer earns a {T} for each delay.',
 f'All {T}s lapse on termination.',
 f'The Agreement ties the rebate to the {T}.',
 f'Delays give rise to a {T} under Section 2.',
 f'The supplier owes the customer a {T} when a deadline slips.',
 f'Rebates are defined as {T}s.',
 f'The contract calls this rebate the {T}.',
]]+[("pct",v,s) for v,s in [
 ("14%",'The Agreement sets interest at 14%.'),
 ("14%",'A 14% holdback applies to every invoice.'),
 ("14%",'The royalty rate is fourteen percent (14%).'),
 ("14%",'Fees increase by 14% annually.'),
 ("14%",'The supplier can increase prices by up to 14% a year.'),
 ("1.4%",'Late fees accrue at 1.4% per month.'),
 ("14%",'The buyer receives a 14% discount on all orders.'),
 ("14%",'14% of net sales is payable as a royalty.'),
 ("14 percent",'The licensor keeps 14 percent of revenue.'),
 ("140%",'The cap equals 140% of annual fees.'),
 ("14%",'Under Section 4, the markup is 14%.'),
 ("14%",'The deposit is reduced by 14% upon acceptance.'),
 ("14%",'Prices escalate at 14% per year.'),
 ("14%",'The consultant is entitled to a 14% commission on referrals.'),
 ("14%",'Interest on overdue sums runs at 14% per annum.'),
 ("14%",'A majority of 14% of the shares can block the sale.'),
 ("14%",'The Company must pay a 14% bonus on completion.'),
 ("14%",'The consultant gets 14% of any savings he finds.'),
]]+[("dur","47",s) for s in [
 'The notice period is 47 days.',
 'Invoices are payable within 47 days.',
 'The customer has 47 days to object to an invoice.',
 'The warranty lasts 47 months.',
 'The initial term is 47 months.',
 "Either party can terminate with 47 days' notice.",
 'The non-compete runs for 47 months after termination.',
 'Payment is due 47 days after invoice.',
 'The licensee gets a 47-day grace period.',
 'After 47 days, unpaid invoices accrue interest.',
 'The Agreement renews for successive 47-month terms.',
 'Termination takes effect 47 days after notice.',
 'The consultant must respond within 47 hours.',
 'Deliveries are made within 47 business days.',
 'Exclusivity lasts for a 47-month window.',
 'The consultant is bound for 47 months after leaving.',
]]
src=open(f"{C}/outputs/{name}.ai.md").read().split("\n")
body=next(i+1 for i in range(1,len(src)) if src[i].strip()=="---")
at=body+2
tmp=tempfile.mkdtemp(); os.makedirs(tmp+"/outputs"); shutil.copytree(C+"/contracts",tmp+"/contracts"); shutil.copytree(C+"/prompts",tmp+"/prompts")
files=[]
for i,(k,v,s) in enumerate(P):
    f=f"outputs/p{i:02d}.ai.md"; open(tmp+"/"+f,"w").write("\n".join(src[:at]+[s,""]+src[at:])); files.append(f)
p=subprocess.run([os.path.realpath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "byop"),"check","--mode","deterministic","--format","json","--fail-on","never","--db",tmp+"/db","--playbook","evidence_contract_v1"]+files,cwd=tmp,capture_output=True,text=True)
if not p.stdout: sys.exit(p.stderr[:2000])
reps=json.loads(p.stdout); ok=0
for (k,v,s),rep in zip(P,reps):
    hit=False; why=[]
    for r in rep["byop_report"]["check_results"]:
        for c in r.get("evidence_citations",[]) if r["result"]=="fail" else []:
            if v.lower() in (c.get("span") or "").lower(): hit=True
        for sk in (r.get("grounding") or {}).get("skipped_claims",[]) if isinstance(r.get("grounding"),dict) else []:
            pass
    ok+=hit
    if not hit:
        for r in rep["byop_report"]["check_results"]:
            for sk in r.get("skipped_claims",[]):
                if sk.get("line")==at+1: why.append(sk.get("kind","")+":"+sk.get("reason",""))
        print("MISS",k,s,why)
print(ok,"/",len(P))
shutil.rmtree(tmp)
