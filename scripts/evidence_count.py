"""Count evidence-contract findings in a folder of `byop check --format json` outputs:
per check, claims examined / grounded (from the notes), findings (evidence citations of
failing results) and failing outputs; every finding is written to OUT/flagged.json."""
import json,glob,sys,os,collections
d=sys.argv[1]
checks=['quotes_grounded','quotes_verbatim','quotes_paraphrased','references_grounded','entities_grounded']
flag=[];fails=collections.Counter();notes=collections.defaultdict(lambda:[0,0])
import re
for f in sorted([g for g in glob.glob(d+'/*.json') if not g.endswith('flagged.json')]):
    b=os.path.basename(f)[:-5]
    try: j=json.load(open(f))
    except Exception as e: print('bad',f,e); continue
    rep=j['byop_report'] if isinstance(j,dict) else j[0]['byop_report']
    for r in rep.get('check_results',[]):
        c=r.get('check_id') or r.get('id')
        if c not in checks: continue
        m=re.match(r'(\d+) claim\(s\) about the source examined, (\d+) grounded',r.get('notes',''))
        if m: notes[c][0]+=int(m.group(1)); notes[c][1]+=int(m.group(2))
        if r.get('result')=='fail':
            fails[c]+=1
            for ev in r.get('evidence_citations',[]):
                flag.append(dict(file=b,check=c,raw=ev))
cnt=collections.Counter(x['check'] for x in flag)
for c in checks: print(c, notes[c], cnt[c], fails[c])
print('total',len(flag))
json.dump(flag,open(d+'/flagged.json','w'),indent=1)
