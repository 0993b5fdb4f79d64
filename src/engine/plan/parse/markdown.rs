//! A markdown plan read on the document's [`Layout`]: the items are found by their
//! structure and their time expressions, in any of the layouts chat models write:
//! - list items with timeboxes (`- Draft the brief (90 min) — why`); their sub-bullets
//!   are details of the item (its why), not items;
//! - a table (`| Time | Task | Why |`, Start/End columns, decimal hours);
//! - a heading per time block (`### 9:00–10:30 · Draft brief`), what follows it until the
//!   next heading being its why; a heading holding timed items is a group, not an item;
//! - paragraph lines that start with a time, in bold or after an emoji
//!   (`**1:00–1:45 PM — Call Dana**`, `🕘 9:00 Draft brief (60 min)`), the lines and
//!   sub-bullets below being their why;
//! - a plan written as prose paragraphs, read from its sentences (`prose`).
//!
//! `## Assumptions`, `Assumptions: X`, `**Questions:** none` and `Confidence: high` are
//! read as sections or one-line labels.

use super::labels::{Label, Section, label, push, section_of};
use super::line::{self, Reading, lead};
use super::restated::restates_constraint;
use super::{MAX_ITEMS, Plan, PlanItem, table};
use crate::engine::document::layout::{BlockId, BlockKind, Layout};

/// A paragraph line that is an item: it starts with a time, or it is decorated (a bullet
/// or an emoji written as text) and carries a timebox.
fn line_item(s: &str, r: &Reading) -> bool {
    let decorated = s[..lead(s)].chars().any(|c| !c.is_whitespace());
    (r.leading || (decorated && r.minutes.is_some())) && !is_total(&r.task)
}

/// "Total: 6h 30m" sums the plan; it is not an item.
fn is_total(task: &str) -> bool {
    let t = task.trim_start_matches(|c: char| !c.is_alphanumeric());
    t.get(..5).is_some_and(|w| w.eq_ignore_ascii_case("total"))
}

/// The lines of a block's own text, with their offsets.
fn lines(text: &str, span: (usize, usize)) -> impl Iterator<Item = (usize, &str)> {
    let mut at = span.0;
    text[span.0..span.1].split_inclusive('\n').map(move |l| {
        let start = at;
        at += l.len();
        let trimmed = l.trim_end();
        let lead_ws = trimmed.len() - trimmed.trim_start().len();
        (start + lead_ws, trimmed.trim_start())
    })
}

fn item(r: Reading, at: (usize, usize)) -> PlanItem {
    let (minutes, bad_timebox) = match r.minutes {
        Some(Ok(m)) => (Some(m), None),
        Some(Err(raw)) => (None, Some(raw)),
        None => (None, None),
    };
    PlanItem {
        task: r.task,
        minutes,
        bad_timebox,
        stated: r.stated,
        why: r.why,
        time: r.time.map(|mut f| {
            f.at = (f.at.0 + at.0, f.at.1 + at.0);
            f
        }),
        at,
    }
}

/// Where details (untimed lines, sub-bullets) go.
#[derive(Clone, Copy, PartialEq)]
enum Owner {
    None,
    Item(usize),
    /// The timed heading waiting in `Walk::pending`.
    Pending,
}

struct Walk<'a> {
    text: &'a str,
    layout: &'a Layout,
    plan: Plan,
    section: Section,
    owner: Owner,
    /// A timed heading: an item unless timed items follow it before the next heading.
    pending: Option<PlanItem>,
    /// The item each list item made or belongs to.
    item_of: Vec<Option<usize>>,
    /// Each block's own text carries an item's time or timebox.
    timed: Vec<bool>,
    /// Some block inside it does.
    timed_below: Vec<bool>,
    /// The plan's paragraph lines that are not labels (document offsets), for a plan
    /// written as prose, and how many items came from such lines.
    prose: Vec<(usize, usize)>,
    line_items: usize,
}

/// A list item's own text: its inline text, or its first paragraph's (a loose list).
fn own_text(layout: &Layout, id: BlockId) -> Option<((usize, usize), Option<BlockId>)> {
    let b = layout.block(id);
    if let Some(t) = b.text {
        return Some((t, None));
    }
    layout
        .children(id)
        .next()
        .filter(|(_, c)| c.kind == BlockKind::Paragraph)
        .and_then(|(c, p)| p.text.map(|t| (t, Some(c))))
}

pub(super) fn read(text: &str, layout: &Layout, plan: Plan) -> Plan {
    let n = layout.blocks().count();
    let mut w = Walk {
        text,
        layout,
        plan,
        section: Section::Plan,
        owner: Owner::None,
        pending: None,
        item_of: vec![None; n],
        timed: vec![false; n],
        timed_below: vec![false; n],
        prose: Vec::new(),
        line_items: 0,
    };
    w.mark_timed();
    let mut skip: Option<BlockId> = None;
    for (id, b) in layout.blocks() {
        if skip.is_some_and(|s| layout.ancestors(id).any(|(a, _)| a == s)) {
            continue;
        }
        skip = None;
        match &b.kind {
            BlockKind::Heading { .. } => w.heading(id),
            BlockKind::ListItem { .. } => w.list_item(id),
            BlockKind::Paragraph => w.paragraph(id),
            BlockKind::Table => {
                w.table(id);
                skip = Some(id);
            }
            BlockKind::CodeBlock { .. } | BlockKind::Html => skip = Some(id),
            _ => {}
        }
    }
    w.commit_pending();
    // A plan written as prose paragraphs: when nothing but its paragraph lines holds
    // items and they hold fewer than a plan has (3), its items are its sentences that open
    // with a time, if those are more.
    if w.plan.items.len() == w.line_items && w.line_items < 3 {
        let (items, unread) = super::prose::items(text, &w.prose);
        if items.len() > w.line_items {
            w.plan.items = items.into_iter().map(|(r, at)| item(r, at)).collect();
            w.plan.unread.extend(unread);
        }
    }
    let mut plan = w.plan;
    plan.items.truncate(MAX_ITEMS);
    ends_from_next_start(&mut plan.items);
    let (work, restated) = std::mem::take(&mut plan.items)
        .into_iter()
        .partition(|it| !restates_constraint(&text[it.at.0..it.at.1], &it.task));
    plan.items = work;
    plan.restated = restated;
    plan
}

/// "9:00 Draft", "10:30 Call": an item with a start time only runs until the next one.
fn ends_from_next_start(items: &mut [PlanItem]) {
    for i in 0..items.len().saturating_sub(1) {
        let next = items[i + 1].time.map(|t| t.start);
        let it = &mut items[i];
        if let (None, None, Some(t), Some(next)) = (it.minutes, &it.bad_timebox, &mut it.time, next)
            && t.end.is_none()
            && next > t.start
        {
            t.end = Some(next);
            it.minutes = Some(i64::from(next - t.start));
        }
    }
}

impl<'a> Walk<'a> {
    fn span_text(&self, s: (usize, usize)) -> &'a str {
        &self.text[s.0..s.1]
    }

    fn mark_timed(&mut self) {
        let layout = self.layout;
        for (id, b) in layout.blocks() {
            let timed = match &b.kind {
                BlockKind::Heading { .. } => b
                    .text
                    .is_some_and(|t| line::read(self.span_text(t)).timed()),
                BlockKind::ListItem { .. } => own_text(layout, id).is_some_and(|(t, _)| {
                    lines(self.text, t).next().is_some_and(|(_, l)| {
                        let r = line::read(l);
                        r.timed() && !is_total(&r.task)
                    })
                }),
                BlockKind::Paragraph if !self.in_list(id) => b.text.is_some_and(|t| {
                    lines(self.text, t).any(|(_, l)| line_item(l, &line::read(l)))
                }),
                _ => false,
            };
            self.timed[id.0] = timed;
        }
        for (id, b) in layout.blocks().collect::<Vec<_>>().into_iter().rev() {
            if let Some(p) = b.parent {
                self.timed_below[p.0] |= self.timed[id.0] || self.timed_below[id.0];
            }
        }
        // A heading's section holds the headings of a deeper level below it: a timed one
        // there makes it a title or group over timed blocks.
        // A block marked as the notes' own ("(fixed)") does not make one (see `push_item`).
        for (h, b) in layout.headings() {
            let own = b.text.is_some_and(|t| {
                let s = self.span_text(t);
                restates_constraint(s, &line::read(s).task)
            });
            if self.timed[h.0] && !own {
                let mut up = layout.heading_parent(h);
                while let Some(p) = up {
                    self.timed_below[p.0] = true;
                    up = layout.heading_parent(p);
                }
            }
        }
    }

    fn in_list(&self, id: BlockId) -> bool {
        self.layout
            .ancestors(id)
            .skip(1)
            .any(|(_, b)| matches!(b.kind, BlockKind::ListItem { .. }))
    }

    fn push_item(&mut self, it: PlanItem) -> usize {
        // A timed heading with timed items under it is a group, not an item; a line that
        // only restates a constraint ("**4:00 PM — Office closes (hard stop)**") is no item.
        if !restates_constraint(&self.text[it.at.0..it.at.1], &it.task) {
            self.pending = None;
        }
        self.plan.items.push(it);
        self.plan.items.len() - 1
    }

    fn commit_pending(&mut self) {
        if let Some(it) = self.pending.take() {
            self.plan.items.push(it);
        }
        self.owner = Owner::None;
    }

    fn detail(&mut self, owner: Owner, s: &str) {
        let s = s.trim();
        let it = match owner {
            Owner::Item(i) => self.plan.items.get_mut(i),
            Owner::Pending => self.pending.as_mut(),
            Owner::None => None,
        };
        if let Some(it) = it
            && !s.is_empty()
        {
            // Each detail line (a sub-bullet, a paragraph) is a sentence of its own: its
            // first word opens a sentence, it does not continue the one before.
            if !it.why.is_empty() {
                if !it.why.ends_with(['.', '!', '?', ':', ';']) {
                    it.why.push('.');
                }
                it.why.push(' ');
            }
            it.why.push_str(s);
        }
    }

    /// A label on a line: true when it was one (and was taken).
    fn take_label(&mut self, s: &str, alone_switches: bool) -> bool {
        match label(s) {
            Some(Label::Confidence(c)) => self.plan.confidence = Some(c),
            Some(Label::List(sec, v)) => {
                let list = match sec {
                    Section::Assumptions => &mut self.plan.assumptions,
                    Section::Questions => &mut self.plan.questions,
                    // The notes' constraints restated on one line: not an item.
                    _ => return true,
                };
                push(list, &v);
            }
            Some(Label::Alone(sec)) if alone_switches => self.enter(sec),
            _ => return false,
        }
        true
    }

    fn enter(&mut self, sec: Section) {
        self.section = sec;
        self.owner = Owner::None;
        match sec {
            Section::Assumptions => {
                self.plan.assumptions.get_or_insert_with(Vec::new);
            }
            Section::Questions => {
                self.plan.questions.get_or_insert_with(Vec::new);
            }
            _ => {}
        }
    }

    fn listing(&mut self, s: &str) -> bool {
        match self.section {
            Section::Assumptions => push(&mut self.plan.assumptions, s),
            Section::Questions => push(&mut self.plan.questions, s),
            Section::Constraints => {}
            _ => return false,
        }
        true
    }

    fn heading(&mut self, id: BlockId) {
        self.commit_pending();
        let Some(span) = self.layout.block(id).text else {
            return;
        };
        let s = self.span_text(span);
        let r = line::read(s);
        if r.timed() && !is_total(&r.task) {
            self.section = Section::Plan;
            // A title over the plan ("## Migration night plan (10 PM – 6 AM)" over the
            // night's `###` blocks) or a group: its span holds timed items, so it is none.
            if self.timed_below[id.0] {
                self.owner = Owner::None;
                return;
            }
            self.pending = Some(item(r, span));
            self.owner = Owner::Pending;
            return;
        }
        if !self.take_label(s, true) {
            self.enter(section_of(s));
        }
    }

    fn paragraph(&mut self, id: BlockId) {
        let layout = self.layout;
        let Some(span) = layout.block(id).text else {
            return;
        };
        if self.in_list(id) {
            // A list item's own first paragraph was read with it; later ones are details.
            let holder = layout
                .ancestors(id)
                .find(|(_, b)| matches!(b.kind, BlockKind::ListItem { .. }))
                .map(|(h, _)| h);
            if let Some(h) = holder
                && own_text(layout, h).and_then(|(_, p)| p) != Some(id)
                && let Some(i) = self.item_of[h.0]
            {
                let s = self.span_text(span).to_string();
                self.detail(Owner::Item(i), &s);
            }
            return;
        }
        for (at, l) in lines(self.text, span) {
            if self.take_label(l, true) || self.listing(l) {
                continue;
            }
            if self.section == Section::Plan {
                self.prose.push((at, at + l.len()));
            }
            let r = line::read(l);
            // "8:30 in London." under a block: its time said again in another zone.
            let zone_remark = crate::engine::plan::context::zones::zone_remark_only(&r.task);
            if line_item(l, &r) && !zone_remark && self.plan.items.len() < MAX_ITEMS {
                self.line_items += 1;
                let i = self.push_item(item(r, (at, at + l.len())));
                self.owner = Owner::Item(i);
            } else if !is_total(l) {
                self.detail(self.owner, l);
            }
        }
    }

    fn list_item(&mut self, id: BlockId) {
        let layout = self.layout;
        let Some((span, _)) = own_text(layout, id) else {
            return;
        };
        let parent_item = layout
            .ancestors(id)
            .skip(1)
            .find_map(|(a, _)| self.item_of[a.0]);
        let all = self.span_text(span).to_string();
        if let Some(i) = parent_item {
            self.item_of[id.0] = Some(i);
            return self.detail(Owner::Item(i), &all);
        }
        let (at, first) = lines(self.text, span).next().unwrap_or((span.0, ""));
        let first = first.to_string();
        if self.take_label(&first, true) || self.listing(&all) {
            return;
        }
        let r = line::read(&first);
        let strict = self.section == Section::Other;
        let counts = r.timed() && (!strict || r.leading || r.boxed) && !is_total(&r.task);
        if counts {
            if self.plan.items.len() >= MAX_ITEMS {
                return;
            }
            let rest = all[first.len()..].trim().to_string();
            let i = self.push_item(item(r, (at, at + first.len())));
            self.detail(Owner::Item(i), &rest);
            self.item_of[id.0] = Some(i);
            self.owner = Owner::None;
            return;
        }
        if self.timed_below[id.0] || is_total(&r.task) {
            return; // a group ("- Morning" over timed items) or the sum
        }
        if self.owner != Owner::None {
            return self.detail(self.owner, &all);
        }
        // An untimed item among timed ones, or in a plan with no timeboxes at all.
        let siblings_timed = layout
            .parent(id)
            .is_some_and(|l| layout.children(l).any(|(c, _)| self.timed[c.0]));
        let none_timed = !self.timed.iter().any(|t| *t);
        if self.section == Section::Plan
            && (siblings_timed || none_timed)
            && self.plan.items.len() < MAX_ITEMS
        {
            let i = self.push_item(item(r, (at, at + first.len())));
            self.item_of[id.0] = Some(i);
        }
    }

    fn table(&mut self, id: BlockId) {
        self.owner = Owner::None;
        if self.section == Section::Constraints {
            return; // the notes' constraints as a table: not items
        }
        if let Some((items, unread)) = table::read(self.text, self.layout, id) {
            if !items.is_empty() {
                self.pending = None;
            }
            let room = MAX_ITEMS.saturating_sub(self.plan.items.len());
            self.plan.items.extend(items.into_iter().take(room));
            self.plan.unread.extend(unread);
        }
    }
}
