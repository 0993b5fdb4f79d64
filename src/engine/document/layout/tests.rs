use super::*;

fn md(t: &str) -> Layout {
    Layout::markdown(t, (0, t.len()))
}

fn at(t: &str, w: &str) -> usize {
    t.find(w).unwrap_or_else(|| panic!("{w:?} not in text"))
}

fn slice(t: &str, s: Span) -> &str {
    &t[s.0..s.1]
}

const REVIEW: &str = "# Review of the NDA\n\nIntro text. It has two sentences.\n\n## 1. Term\n\nThe term is 2 years, e.g. until 2027. See **Section 4.1** and [the law](https://x.test/a.b).\n\n### 1.1 Renewal\n\n- first item; with a clause\n- second item\n  1. nested one\n  2. nested two\n\n> Quoted \"words\" here.\n\n```text\nSection 99. Not a sentence.\n```\n\n| Clause | Risk |\n|---|---|\n| 4.1 | High. Very. |\n\n## Article IV Remedies\n\nLast `code` words.\n";

#[test]
fn headings_form_a_tree_with_levels_and_numbers() {
    let t = REVIEW;
    let l = md(t);
    let heads: Vec<(u8, Option<Vec<String>>)> = l
        .headings()
        .map(|(_, b)| match &b.kind {
            BlockKind::Heading { level, number } => {
                (*level, number.as_ref().map(|n| n.parts.clone()))
            }
            k => panic!("{k:?}"),
        })
        .collect();
    assert_eq!(
        heads,
        vec![
            (1, None),
            (2, Some(vec!["1".into()])),
            (3, Some(vec!["1".into(), "1".into()])),
            (2, Some(vec!["4".into()])),
        ]
    );
    let path: Vec<&str> = l
        .heading_path(at(t, "nested two"))
        .into_iter()
        .map(|h| slice(t, l.block(h).text.unwrap()))
        .collect();
    assert_eq!(path, ["Review of the NDA", "1. Term", "1.1 Renewal"]);
    let path = l.heading_path(at(t, "Last"));
    assert_eq!(path.len(), 2, "Article IV sits under the title only");
    assert!(l.heading_path(0).len() == 1);
    let (_, iv) = l.headings().last().unwrap();
    let BlockKind::Heading {
        number: Some(n), ..
    } = &iv.kind
    else {
        panic!()
    };
    assert_eq!(
        (n.word.as_deref(), n.label.as_str()),
        (Some("article"), "IV")
    );
    assert_eq!(slice(t, n.span), "Article IV");
}

#[test]
fn sentences_stay_inside_their_block_and_skip_abbreviations() {
    let t = REVIEW;
    let l = md(t);
    let s = |w: &str| slice(t, l.sentence_at(at(t, w)).unwrap().span);
    assert_eq!(s("two sentences"), "It has two sentences.");
    assert_eq!(s("until"), "The term is 2 years, e.g. until 2027.");
    assert_eq!(
        s("Section 4.1"),
        "See **Section 4.1** and [the law](https://x.test/a.b)."
    );
    assert_eq!(s("first item"), "first item;");
    assert_eq!(s("with a clause"), "with a clause");
    assert_eq!(s("nested two"), "nested two");
    assert_eq!(s("High"), "High.");
    assert_eq!(s("Quoted"), "Quoted \"words\" here.");
    let u = "Call with Dr. Lim at 11. Mr. Ode and Ms. Roy sign. Then Prof. Ng reads.";
    let sentences: Vec<&str> = super::split_sentences(u, (0, u.len()))
        .into_iter()
        .map(|sp| slice(u, sp))
        .collect();
    assert_eq!(
        sentences,
        [
            "Call with Dr. Lim at 11.",
            "Mr. Ode and Ms. Roy sign.",
            "Then Prof. Ng reads."
        ]
    );
    // Code has no sentences; a heading's are its title.
    assert!(l.sentence_at(at(t, "Section 99")).is_none());
    assert_eq!(s("Renewal"), "1.1 Renewal");
    // Every sentence lies in its block's own text, in document order.
    let all = l.sentences();
    assert!(all.windows(2).all(|w| w[0].span.1 <= w[1].span.0));
    for sentence in all {
        let text = l.block(sentence.block).text.unwrap();
        assert!(text.0 <= sentence.span.0 && sentence.span.1 <= text.1);
        assert!(l.sentences_of(sentence.block).contains(sentence));
    }
}

#[test]
fn lists_carry_enumerators_and_depth() {
    let t = REVIEW;
    let l = md(t);
    let items: Vec<(String, usize)> = l
        .blocks()
        .filter_map(|(_, b)| match &b.kind {
            BlockKind::ListItem { enumerator, depth } => Some((enumerator.clone(), *depth)),
            _ => None,
        })
        .collect();
    assert_eq!(
        items,
        vec![
            ("-".into(), 1),
            ("-".into(), 1),
            ("1.".into(), 2),
            ("2.".into(), 2)
        ]
    );
    let id = l.block_at(at(t, "nested one")).unwrap();
    let kinds: Vec<&BlockKind> = l.ancestors(id).map(|(_, b)| &b.kind).collect();
    assert!(matches!(kinds[0], BlockKind::ListItem { depth: 2, .. }));
    assert!(matches!(kinds[1], BlockKind::List { ordered: true }));
    assert!(matches!(kinds[2], BlockKind::ListItem { depth: 1, .. }));
}

#[test]
fn tables_quotes_code_and_inlines() {
    let t = REVIEW;
    let l = md(t);
    let (table, _) = l
        .blocks()
        .find(|(_, b)| b.kind == BlockKind::Table)
        .unwrap();
    let rows: Vec<Vec<&str>> = l
        .rows(table)
        .map(|(r, _)| {
            l.cells(r)
                .map(|(_, c)| c.text.map_or("", |s| slice(t, s)))
                .collect()
        })
        .collect();
    assert_eq!(
        rows,
        vec![vec!["Clause", "Risk"], vec!["4.1", "High. Very."]]
    );
    let cell = l.block_at(at(t, "Very")).unwrap();
    assert_eq!(l.block(cell).kind, BlockKind::TableCell { column: 1 });
    assert!(l.within(at(t, "words"), |k| *k == BlockKind::BlockQuote));
    assert!(!l.within(at(t, "Intro"), |k| *k == BlockKind::BlockQuote));
    assert!(l.within(at(t, "Section 99"), |k| matches!(
        k,
        BlockKind::CodeBlock { fenced: true, info } if info == "text"
    )));
    let strong = l.inline_at(at(t, "Section 4.1")).unwrap();
    assert_eq!(strong.kind, InlineKind::Strong);
    assert_eq!(slice(t, strong.span), "**Section 4.1**");
    let link = l.inline_at(at(t, "the law")).unwrap();
    assert_eq!(
        link.kind,
        InlineKind::Link {
            dest: "https://x.test/a.b".into()
        }
    );
    let code = l.inline_at(at(t, "code")).unwrap();
    assert_eq!(
        (&code.kind, slice(t, code.span)),
        (&InlineKind::Code, "`code`")
    );
    assert!(l.inline_at(at(t, "Last")).is_none());
}

#[test]
fn offsets_are_whole_document_and_plain_text_has_paragraphs() {
    let t = "---\nfront: matter\n---\n# Title\n\nBody one. Body two.\n";
    let start = at(t, "# Title");
    let l = Layout::markdown(t, (start, t.len()));
    assert_eq!(l.block(BlockId(0)).span.0, start);
    assert_eq!(slice(t, l.sentences()[1].span), "Body one.");
    assert!(l.block_at(0).is_none(), "front matter is not in the layout");

    let t = "1. DEFINITIONS\n\"Term\" means the term. More text\ncontinues here.\n\n\n2. TERM\nTwo years.";
    let l = Layout::for_path(t, (0, t.len()), Some(std::path::Path::new("nda.txt")));
    let paras: Vec<&str> = l.blocks().map(|(_, b)| slice(t, b.span)).collect();
    assert_eq!(paras.len(), 2);
    assert!(paras[0].ends_with("continues here."));
    assert_eq!(paras[1], "2. TERM\nTwo years.");
    assert!(l.blocks().all(|(_, b)| b.kind == BlockKind::Paragraph));
    let sentences: Vec<&str> = l.sentences().iter().map(|s| slice(t, s.span)).collect();
    assert_eq!(
        sentences,
        [
            "1. DEFINITIONS\n\"Term\" means the term.",
            "More text\ncontinues here.",
            "2. TERM\nTwo years."
        ]
    );
}

#[test]
fn numbering_reads_the_usual_forms_and_nothing_else() {
    let n = |s: &str| read_numbering(s, 0).map(|n| (n.word, n.parts));
    let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(n("2.1 Term"), Some((None, p(&["2", "1"]))));
    assert_eq!(n("**3. Fees**"), Some((None, p(&["3"]))));
    assert_eq!(
        n("Section 4(b) Notice"),
        Some((Some("section".into()), p(&["4", "b"])))
    );
    assert_eq!(n("§ 7 Scope"), Some((Some("§".into()), p(&["7"]))));
    assert_eq!(n("ARTICLE IV"), Some((Some("article".into()), p(&["4"]))));
    assert_eq!(n("IV. Remedies"), Some((None, p(&["4"]))));
    assert_eq!(n("Exhibit C"), Some((Some("exhibit".into()), p(&["c"]))));
    assert_eq!(n("A. Parties"), Some((None, p(&["a"]))));
    for none in [
        "Important note",
        "A contract",
        "Definitions",
        "",
        "MIXED words",
    ] {
        assert_eq!(n(none), None, "{none:?}");
    }
}

#[test]
fn markup_edge_cases_never_panic_and_stay_in_range() {
    let shapes = [
        "",
        "\n\n\n",
        "# \n##",
        "> > nested\n> > quote. Two.\n",
        "| a |\n|---|\n",
        "- \n-\n  -",
        "é. ü! 😀? «x» — y.\r\nz",
        "[unclosed](\n**bold\n`tick",
        "Text\n2. not a list here. Yes.\n- but this is",
        "x.y.z. a.b. e.g. i.e. etc. Inc. Co.",
        "[^1]: a footnote. With two.\n\nUse[^1].",
    ];
    for t in shapes {
        for l in [md(t), Layout::plain(t, (0, t.len()))] {
            for (_, b) in l.blocks() {
                assert!(b.span.0 <= b.span.1 && b.span.1 <= t.len(), "{t:?}");
            }
            for s in l.sentences() {
                assert!(t.is_char_boundary(s.span.0) && t.is_char_boundary(s.span.1));
                assert!(s.span.0 < s.span.1, "{t:?}");
            }
            for p in (0..=t.len()).filter(|&p| t.is_char_boundary(p)) {
                if let Some(b) = l.block_at(p) {
                    let span = l.block(b).span;
                    assert!(span.0 <= p && p <= span.1, "{t:?} at {p}");
                }
                let _ = (l.heading_path(p), l.sentence_at(p), l.inline_at(p));
            }
        }
    }
}

#[test]
fn a_line_starting_a_list_inside_a_paragraph_starts_a_sentence() {
    let t = "Text\n2. not a list here\n- item";
    let l = md(t);
    let s: Vec<&str> = l.sentences().iter().map(|s| slice(t, s.span)).collect();
    assert_eq!(s, ["Text", "2. not a list here", "item"]);
}

#[test]
fn many_short_lines_build_in_linear_time() {
    // 200 000 lines: a quadratic step would take minutes, this takes well under a second.
    let t = "a. b\n".repeat(200_000);
    let l = md(&t);
    assert!(l.sentences().len() >= 200_000);
    assert!(l.block_at(t.len() / 2).is_some());
}

#[test]
fn a_blocks_inlines_are_the_ones_it_holds_and_no_others() {
    let t = format!(
        "{REVIEW}\n- **lead** text\n  - nested **inner** and *em*\n  after\n\n> **q** ~~s~~\n\n| **a** | *b* |\n|---|---|\n| `c` | **d** |\n"
    );
    let l = md(&t);
    let mut seen = 0;
    for (id, _) in l.blocks() {
        let fast: Vec<&Inline> = l.inlines_of(id).collect();
        let all: Vec<&Inline> = l.inlines().iter().filter(|n| n.block == id).collect();
        assert_eq!(fast, all, "block {id:?}");
        seen += fast.len();
    }
    assert_eq!(seen, l.inlines().len());
    assert!(seen >= 12);
}

#[test]
fn reading_every_block_of_a_long_document_is_linear() {
    // 30 000 paragraphs with two inlines each: reading each block by filtering all 60 000
    // inlines took 15 s in a debug build; walking each block's own inlines takes a fraction
    // of a second.
    let t = "**a** b *c*\n\n".repeat(30_000);
    let l = md(&t);
    let read = l
        .blocks()
        .filter_map(|(id, _)| l.reading(&t, id))
        .filter(|r| r.text == "a b c")
        .count();
    assert_eq!(read, 30_000);
}

#[test]
fn link_reference_definitions_are_unrendered_wherever_they_stand() {
    let t = "[//]: # (top)\n\nText [a][x].\n\n[x]: https://x.test \"t\"\n[//]: # (again)\n\n> [q]: <> (quoted)\n> after\n\nplain text [not]: here\n";
    let l = md(t);
    let got: Vec<&str> = l.unrendered().iter().map(|&s| slice(t, s)).collect();
    assert_eq!(
        got,
        [
            "[//]: # (top)",
            "][x]",
            "[x]: https://x.test \"t\"\n[//]: # (again)",
            "> [q]: <> (quoted)\n>"
        ]
    );
    assert!(Layout::plain(t, (0, t.len())).unrendered().is_empty());
    // An image is unrendered whole: its alt text is not read as the output's words.
    let t = "See [the memo](# 'hidden one') and ![hidden alt](x.png \"hidden two\"), [![alt](i.png)](<hidden three>), <https://shown.test>.";
    let l = md(t);
    let got: Vec<&str> = l.unrendered().iter().map(|&s| slice(t, s)).collect();
    assert_eq!(
        got,
        [
            "](# 'hidden one')",
            "![hidden alt](x.png \"hidden two\")",
            "![alt](i.png)",
            "](<hidden three>)"
        ]
    );
    assert_eq!(unrendered(t, (0, t.len())), l.unrendered());
}
