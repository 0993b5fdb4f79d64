"""Sanity check for labels.json: files exist, every yes-sentence is verbatim in its file,
source/prompt paths exist in the corpus. Usage: python check_labels.py [corpus_root]"""
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
corpus = sys.argv[1] if len(sys.argv) > 1 else '/work/shared/corpus/contract-reviews'
d = json.load(open(os.path.join(here, 'labels.json'), encoding='utf-8'))
bad = 0
for r in d['rows']:
    p = os.path.join(here, r['file'])
    if not os.path.exists(p):
        print('missing file', r['file']); bad += 1; continue
    t = open(p, encoding='utf-8').read()
    if r['label'] == 'yes' and r['sentence'] not in t:
        print('sentence not verbatim', r['file']); bad += 1
    for k in ('source', 'prompt'):
        if os.path.isdir(corpus) and not os.path.exists(os.path.join(corpus, r[k])):
            print('missing', k, r[k]); bad += 1
print(len(d['rows']), 'rows,', bad, 'problems')
sys.exit(1 if bad else 0)
