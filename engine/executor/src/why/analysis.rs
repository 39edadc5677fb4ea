//! At the end of a run: the reason for every line of the program no path
//! executed, and for every side of an executed branch no path took.
//!
//! The program's blocks form one graph (successors, and direct calls to
//! the callee's entry). A block with code no path executed was entered from
//! its nearest executed predecessor: a branch side no path took, the last
//! executed instruction of the block (paths went no further), a call that
//! did not enter the callee, or nothing at all (a function no executed code
//! calls directly). A breadth-first walk from those frontiers gives each
//! unexecuted block the frontier it is nearest to; the frontier's record
//! ([`super::SiteLog`]) gives the reason. States still pending at the halt
//! take precedence: a block at or after one, or a side never decided that
//! one can still reach, is `pending`.

use super::{render, Cut, SiteKind, CUTS};
use crate::cfg::successors;
use crate::executor::Executor;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::VecDeque;
use symtest_ir::{BlockId, Body, Callee, FuncId, Module, Op};

/// Why code was never executed, as the engine saw it (`coverage.json`'s
/// `why`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct WhyReport {
    /// Every counted line no path executed.
    pub lines: Vec<LineWhy>,
    /// Every side of an executed branch of the program no path took.
    pub branches: Vec<BranchWhy>,
    /// States in memory when the run halted.
    pub pending_states: u64,
    /// States suspended to disk when the run halted.
    pub suspended_states: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct LineWhy {
    pub file: String,
    pub line: u32,
    #[serde(flatten)]
    pub reason: Reason,
}

#[derive(Clone, Debug, Serialize)]
pub struct BranchWhy {
    pub file: String,
    pub line: u32,
    /// The column of the condition (of its comparison, in a chain of
    /// `&&`/`||`).
    pub col: u32,
    /// `true`/`false` of a conditional branch; a switch's destination as
    /// `case` or `default`.
    pub side: String,
    /// A switch destination's first line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_line: Option<u32>,
    #[serde(flatten)]
    pub reason: Reason,
}

/// One reason: a category, what exactly, and where.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Reason {
    /// `not-reached`, `infeasible`, `heuristic` or `pending`.
    pub reason: &'static str,
    /// The specific cause (`no-caller`, `path-ended`, `solver`, `concrete`,
    /// `digest-depth`, `library-forks`, `waiting`, ...).
    pub kind: &'static str,
    pub detail: String,
    /// The nearest executed predecessor (the branch, or the last line paths
    /// executed), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<At>,
    /// The symbolic inputs an infeasible condition reads.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<String>,
    /// States still pending at the deadline could reach it (what the run
    /// saw is "so far": those states' paths may decide otherwise).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pending_can_reach: bool,
    /// Runs with seeds of their own (`--seed-file`, `--seed-dir`; option
    /// seeds aside): `reached` when a path following a seed executed the
    /// branch this comes from (the seeds got there; exploration could not
    /// vary them past it), `not-reached` when none did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<&'static str>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct At {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

pub(crate) const NOT_REACHED: &str = "not-reached";
pub(crate) const INFEASIBLE: &str = "infeasible";
pub(crate) const HEURISTIC: &str = "heuristic";
pub(crate) const PENDING: &str = "pending";

/// The name of file `f` of the module (empty if it has none).
fn file_name(module: &Module, f: u32) -> String {
    module.files.get(f as usize).cloned().unwrap_or_default()
}

/// Which of several reasons for one block to give: the one that says the
/// most about how to reach it.
fn rank(r: &Reason) -> u8 {
    match r.reason {
        PENDING => 0,
        HEURISTIC => 1,
        INFEASIBLE => 2,
        _ => 3,
    }
}

/// Where an unexecuted block was entered from.
#[derive(Clone, Copy, Debug)]
enum Origin {
    /// Side `target` of the branch at `pc`.
    Edge {
        func: FuncId,
        pc: u32,
        target: BlockId,
    },
    /// Paths executed up to instruction `pc`, and never further.
    Stopped { func: FuncId, pc: u32 },
    /// The executed call at `pc` did not enter `callee`.
    NotEntered {
        func: FuncId,
        pc: u32,
        callee: FuncId,
    },
    /// No executed code calls `func` directly.
    NoCaller { func: FuncId },
}

/// The program's blocks, numbered across functions.
struct Graph<'m> {
    module: &'m Module,
    /// Per function: its first block's number (`u32::MAX`: not the program's).
    base: Vec<u32>,
    blocks: Vec<(FuncId, BlockId)>,
    /// Per block: leading instructions some path executed (0 when only its
    /// phis were: a state entered it and never ran), and its length.
    entered: Vec<u32>,
    len: Vec<u32>,
}

impl<'m> Graph<'m> {
    fn new(module: &'m Module, ex: &Executor) -> Graph<'m> {
        let cov = &ex.coverage;
        let mut g = Graph {
            module,
            base: vec![u32::MAX; module.functions.len()],
            blocks: Vec::new(),
            entered: Vec::new(),
            len: Vec::new(),
        };
        for (fi, f) in module.functions.iter().enumerate() {
            let func = FuncId(fi as u32);
            let Some(body) = &f.body else { continue };
            if !cov.is_program_function(func) {
                continue;
            }
            g.base[fi] = g.blocks.len() as u32;
            for (bi, blk) in body.blocks.iter().enumerate() {
                let insts = body.block_insts(BlockId(bi as u32));
                let mut p = 0u32;
                while p < blk.len && cov.covered_at(cov.index(func, blk.first + p)) {
                    p += 1;
                }
                if insts[..p as usize]
                    .iter()
                    .all(|i| matches!(i.op, Op::Phi { .. }))
                {
                    p = 0;
                }
                g.blocks.push((func, BlockId(bi as u32)));
                g.entered.push(p);
                g.len.push(blk.len);
            }
        }
        g
    }

    fn body(&self, func: FuncId) -> &'m Body {
        self.module
            .function(func)
            .body
            .as_ref()
            .expect("program body")
    }

    fn id(&self, func: FuncId, b: BlockId) -> Option<usize> {
        let base = *self.base.get(func.0 as usize)?;
        (base != u32::MAX).then_some((base + b.0) as usize)
    }

    /// Some instruction of the block was never executed.
    fn unexecuted(&self, gb: usize) -> bool {
        self.entered[gb] < self.len[gb]
    }

    /// The block's successors and the entries of the program functions it
    /// calls directly.
    fn next(&self, gb: usize) -> Vec<usize> {
        let (func, b) = self.blocks[gb];
        let body = self.body(func);
        let insts = body.block_insts(b);
        let mut out: Vec<usize> = insts
            .last()
            .map(|t| successors(&t.op))
            .unwrap_or_default()
            .into_iter()
            .filter_map(|s| self.id(func, BlockId(s)))
            .collect();
        for i in insts {
            if let Op::Call {
                callee: Callee::Direct(g),
                ..
            } = &i.op
            {
                if let Some(e) = self.id(*g, BlockId(0)) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// Forward reachability from `starts`, through blocks `through` allows.
    fn reach(&self, starts: &[usize], through: impl Fn(usize) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.blocks.len()];
        let mut queue: VecDeque<usize> = VecDeque::new();
        for &s in starts {
            if !seen[s] && through(s) {
                seen[s] = true;
                queue.push_back(s);
            }
        }
        while let Some(u) = queue.pop_front() {
            for v in self.next(u) {
                if !seen[v] && through(v) {
                    seen[v] = true;
                    queue.push_back(v);
                }
            }
        }
        seen
    }
}

/// The program's direct calls, as the walk from the frontiers needs them.
struct Calls {
    /// Per block: its predecessors (by successor edges).
    preds: Vec<Vec<usize>>,
    /// Per function: the executed direct calls of it (caller, pc).
    executed_calls_of: FxHashMap<u32, Vec<(FuncId, u32)>>,
    /// The functions some code calls directly.
    called: rustc_hash::FxHashSet<u32>,
}

/// Each unexecuted block's nearest frontier: the frontiers with their
/// reasons, the one each block was reached from, and how far it is.
struct Origins {
    list: Vec<(Origin, Reason)>,
    of: Vec<Option<usize>>,
    dist: Vec<u32>,
}

impl Origins {
    /// Block `gb` is a frontier, `o` its origin.
    fn add(&mut self, gb: usize, o: (Origin, Reason), queue: &mut VecDeque<usize>) {
        self.of[gb] = Some(self.list.len());
        self.list.push(o);
        self.dist[gb] = 0;
        queue.push_back(gb);
    }

    /// The breadth-first walk from the frontiers in `queue` through
    /// unexecuted blocks not yet reached.
    fn walk(&mut self, g: &Graph, queue: &mut VecDeque<usize>) {
        while let Some(u) = queue.pop_front() {
            for v in g.next(u) {
                if g.unexecuted(v) && self.of[v].is_none() {
                    self.of[v] = self.of[u];
                    self.dist[v] = self.dist[u] + 1;
                    queue.push_back(v);
                }
            }
        }
    }
}

/// The states pending at the halt, as the blocks see them.
struct Pending {
    /// Per block: the states pending in it.
    at_count: Vec<u64>,
    /// Per block: a pending state can reach it.
    reach: Vec<bool>,
    /// Per block: unexecuted, at or after a pending state through
    /// unexecuted code.
    downstream: Vec<bool>,
    /// How many states were pending (for the messages).
    note: String,
}

impl Executor<'_> {
    /// The reasons, from the run's record and coverage (call after the
    /// halt; [`Executor::note_pending`] before it).
    pub(crate) fn why_report(&self) -> WhyReport {
        let g = Graph::new(self.module, self);
        let calls = self.calls(&g);
        let origins = self.origins(&g, &calls);
        let pending = self.pending(&g);
        let lines = self.line_reasons(&g, &origins, &pending);
        let branches = self.branch_reasons(&g, &pending);
        WhyReport {
            lines,
            branches,
            pending_states: self.why.pending_states,
            suspended_states: self.why.suspended_states,
        }
    }

    /// Predecessors, and the executed direct calls of each function.
    fn calls(&self, g: &Graph) -> Calls {
        let n = g.blocks.len();
        let mut calls = Calls {
            preds: vec![Vec::new(); n],
            executed_calls_of: FxHashMap::default(),
            called: Default::default(),
        };
        for gb in 0..n {
            let (func, b) = g.blocks[gb];
            let body = g.body(func);
            let blk = &body.blocks[b.0 as usize];
            if let Some(t) = body.block_insts(b).last() {
                for s in successors(&t.op) {
                    if let Some(v) = g.id(func, BlockId(s)) {
                        calls.preds[v].push(gb);
                    }
                }
            }
            for (k, i) in body.block_insts(b).iter().enumerate() {
                if let Op::Call {
                    callee: Callee::Direct(callee),
                    ..
                } = &i.op
                {
                    let pc = blk.first + k as u32;
                    calls.called.insert(callee.0);
                    if self.coverage.covered_at(self.coverage.index(func, pc)) {
                        calls
                            .executed_calls_of
                            .entry(callee.0)
                            .or_default()
                            .push((func, pc));
                    }
                }
            }
        }
        calls
    }

    /// The frontiers, then the walk from them; then the functions no code
    /// calls directly (through pointers only), never entered: they are why
    /// what only they call was never entered.
    fn origins(&self, g: &Graph, calls: &Calls) -> Origins {
        let n = g.blocks.len();
        let mut origins = Origins {
            list: Vec::new(),
            of: vec![None; n],
            dist: vec![u32::MAX; n],
        };
        let mut queue: VecDeque<usize> = VecDeque::new();
        for gb in 0..n {
            if let Some(best) = self.frontier(g, calls, gb) {
                origins.add(gb, best, &mut queue);
            }
        }
        origins.walk(g, &mut queue);
        for (fi, &base) in g.base.iter().enumerate() {
            let gb = base as usize;
            if base == u32::MAX || origins.of[gb].is_some() || calls.called.contains(&(fi as u32)) {
                continue;
            }
            let o = Origin::NoCaller {
                func: FuncId(fi as u32),
            };
            origins.add(gb, (o, self.origin_reason(o)), &mut queue);
            origins.walk(g, &mut queue);
        }
        origins
    }

    /// Where the unexecuted block `gb` was entered from, when it is a
    /// frontier (paths stopped in it, or an executed block or call leads
    /// to it), with its reason: of several, the one that says the most.
    fn frontier(&self, g: &Graph, calls: &Calls, gb: usize) -> Option<(Origin, Reason)> {
        if !g.unexecuted(gb) {
            return None;
        }
        let (func, b) = g.blocks[gb];
        let body = g.body(func);
        let first = body.blocks[b.0 as usize].first;
        let mut candidates: Vec<Origin> = Vec::new();
        if g.entered[gb] > 0 {
            candidates.push(Origin::Stopped {
                func,
                pc: first + g.entered[gb] - 1,
            });
        } else {
            for &p in &calls.preds[gb] {
                if g.unexecuted(p) {
                    continue;
                }
                let (pf, pb) = g.blocks[p];
                let pblk = &g.body(pf).blocks[pb.0 as usize];
                candidates.push(Origin::Edge {
                    func: pf,
                    pc: pblk.first + pblk.len - 1,
                    target: b,
                });
            }
            if b.0 == 0 {
                let callers = calls.executed_calls_of.get(&func.0).into_iter().flatten();
                for &(cf, pc) in callers {
                    candidates.push(Origin::NotEntered {
                        func: cf,
                        pc,
                        callee: func,
                    });
                }
            }
        }
        candidates
            .into_iter()
            .map(|o| {
                let r = self.origin_reason(o);
                (o, r)
            })
            .min_by_key(|(_, r)| rank(r))
    }

    /// Pending states: where they are, what they can reach, and the
    /// unexecuted code at or after them.
    fn pending(&self, g: &Graph) -> Pending {
        let n = g.blocks.len();
        let mut at_count: Vec<u64> = vec![0; n];
        for (&(f, b), &k) in &self.why.pending {
            if let Some(gb) = g.id(f, b) {
                at_count[gb] += k;
            }
        }
        let at: Vec<usize> = (0..n).filter(|&b| at_count[b] > 0).collect();
        let reach = g.reach(&at, |_| true);
        let waiting: Vec<usize> = at.iter().copied().filter(|&b| g.unexecuted(b)).collect();
        let downstream = g.reach(&waiting, |b| g.unexecuted(b));
        Pending {
            at_count,
            reach,
            downstream,
            note: render::pending(self.why.pending_states, self.why.suspended_states),
        }
    }

    /// The reason of an unexecuted block: its origin's, unless states
    /// pending at the halt are at or before it, or can still reach it.
    fn block_reason(&self, g: &Graph, origins: &Origins, pending: &Pending, gb: usize) -> Reason {
        let pending_note = &pending.note;
        if pending.downstream[gb] {
            return Reason {
                reason: PENDING,
                kind: "waiting",
                detail: format!(
                    "a state still pending at the deadline was at or before it ({pending_note})"
                ),
                at: None,
                inputs: Vec::new(),
                pending_can_reach: true,
                seeds: None,
            };
        }
        let r = match origins.of[gb] {
            Some(o) => origins.list[o].1.clone(),
            None => self.origin_reason(Origin::NoCaller {
                func: g.blocks[gb].0,
            }),
        };
        if let Some(Origin::Edge { func, pc, .. }) = origins.of[gb].map(|o| origins.list[o].0) {
            if let Some(r) = self.pending_at_branch(g, &pending.at_count, func, pc, &r) {
                return r;
            }
        }
        if pending.reach[gb] && (r.kind == "undecided" || r.kind == "no-caller") {
            return Reason {
                reason: PENDING,
                kind: "reachable",
                detail: format!(
                    "{}; a state still pending at the deadline could reach it ({pending_note})",
                    r.detail
                ),
                pending_can_reach: true,
                ..r
            };
        }
        Reason {
            pending_can_reach: pending.reach[gb],
            ..r
        }
    }

    /// Every uncovered line, with the reason of its nearest unexecuted block.
    fn line_reasons(&self, g: &Graph, origins: &Origins, pending: &Pending) -> Vec<LineWhy> {
        let module = self.module;
        let mut best: FxHashMap<(u32, u32), (u32, usize)> = FxHashMap::default();
        for (gb, &d) in origins.dist.iter().enumerate() {
            if !g.unexecuted(gb) {
                continue;
            }
            let (func, b) = g.blocks[gb];
            let blk = &g.body(func).blocks[b.0 as usize];
            for k in g.entered[gb]..blk.len {
                let idx = self.coverage.index(func, blk.first + k);
                if let Some((file, line)) = self.coverage.line_of(module, idx) {
                    let e = best.entry((file.0, line)).or_insert((d, gb));
                    if d < e.0 {
                        *e = (d, gb);
                    }
                }
            }
        }
        let mut lines = Vec::new();
        for (file, line) in self.coverage.uncovered_line_list() {
            let Some(&(_, gb)) = best.get(&(file.0, line)) else {
                continue;
            };
            lines.push(LineWhy {
                file: file_name(module, file.0),
                line,
                reason: self.block_reason(g, origins, pending, gb),
            });
        }
        lines
    }

    /// Every side no path took of a branch of the program's code some path
    /// executed, in source order.
    fn branch_reasons(&self, g: &Graph, pending: &Pending) -> Vec<BranchWhy> {
        let mut branches = Vec::new();
        for site in self.why.sites.values() {
            let (Some(file), true) = (site.file, site.line > 0) else {
                continue;
            };
            if !self.coverage.is_counted(file) || matches!(site.kind, SiteKind::Other) {
                continue;
            }
            let body = g.body(site.func);
            let default = match &body.insts[site.pc as usize].op {
                Op::Switch { default, .. } => Some(*default),
                _ => None,
            };
            for (i, side) in site.sides.iter().enumerate() {
                if side.taken > 0 {
                    continue;
                }
                let Some(tb) = g.id(site.func, side.target) else {
                    continue;
                };
                let label = match (&site.kind, default) {
                    (SiteKind::Cond { .. }, _) => ["true", "false"][i.min(1)].to_string(),
                    (_, Some(d)) if d == side.target => "default".to_string(),
                    _ => "case".to_string(),
                };
                branches.push(BranchWhy {
                    file: file_name(self.module, file.0),
                    line: site.line,
                    col: site.col,
                    side: label,
                    target_line: matches!(site.kind, SiteKind::Switch)
                        .then(|| render::first_line(body, side.target))
                        .flatten(),
                    reason: self.untaken_side_reason(
                        g,
                        pending,
                        site.func,
                        site.pc,
                        side.target,
                        tb,
                    ),
                });
            }
        }
        branches.sort_by(|a, b| {
            (&a.file, a.line, a.col, &a.side, a.target_line).cmp(&(
                &b.file,
                b.line,
                b.col,
                &b.side,
                b.target_line,
            ))
        });
        branches
    }

    /// The reason no path took side `target` (block `tb`) of the branch at
    /// `pc`: the branch's record, unless states pending at the halt were
    /// about to take it, are at the branch, or can still reach the side.
    fn untaken_side_reason(
        &self,
        g: &Graph,
        pending: &Pending,
        func: FuncId,
        pc: u32,
        target: BlockId,
        tb: usize,
    ) -> Reason {
        let pending_note = &pending.note;
        let mut r = self.origin_reason(Origin::Edge { func, pc, target });
        if pending.downstream[tb] {
            r = Reason {
                reason: PENDING,
                kind: "waiting",
                detail: format!(
                    "a state still pending at the deadline was about to take it ({pending_note})"
                ),
                ..r
            };
        } else if let Some(p) = self.pending_at_branch(g, &pending.at_count, func, pc, &r) {
            r = p;
        } else if pending.reach[tb] && r.kind == "undecided" {
            r = Reason {
                reason: PENDING,
                kind: "reachable",
                detail: format!(
                    "{}; a state still pending at the deadline could reach it ({pending_note})",
                    r.detail
                ),
                ..r
            };
        }
        r.pending_can_reach = pending.reach[tb];
        r
    }

    /// When states pending at the deadline are in the block of the branch at
    /// `pc` (or in calls made from it), about to decide it again on their
    /// own paths: the branch's record `r` is what was seen so far, pending.
    fn pending_at_branch(
        &self,
        g: &Graph,
        at_count: &[u64],
        func: FuncId,
        pc: u32,
        r: &Reason,
    ) -> Option<Reason> {
        if r.reason == HEURISTIC {
            return None;
        }
        let body = self.module.function(func).body.as_ref()?;
        let b = body.blocks.iter().rposition(|b| b.first <= pc)?;
        let k = at_count[g.id(func, BlockId(b as u32))?];
        (k > 0).then(|| Reason {
            reason: PENDING,
            kind: "at-branch",
            detail: format!(
                "{k} state(s) still pending at the deadline were at that branch, to decide it on their own paths; so far: {}",
                r.detail
            ),
            ..r.clone()
        })
    }

    /// `Reason::seeds` for a branch a seeded path did (`true`) or did not
    /// execute: `None` in a run without seeds of its own.
    fn seeds_note(&self, reached: bool) -> Option<&'static str> {
        (self.first_option_seed > 0).then_some(if reached { "reached" } else { "not-reached" })
    }

    /// The reason an origin gives the code after it.
    fn origin_reason(&self, o: Origin) -> Reason {
        let module = self.module;
        let at = |func: FuncId, pc: u32| render::at(module, func, pc);
        match o {
            Origin::Edge { func, pc, target } => {
                let idx = self.coverage.index(func, pc);
                match self.why.sites.get(&idx) {
                    Some(site) => {
                        let mut r = render::side_reason(module, site, target, self.stats.states_dropped);
                        r.seeds = self.seeds_note(site.seeded > 0);
                        if r.reason == INFEASIBLE {
                            if let Some((cut_pc, cut, count)) = self.upstream_cut(func, pc) {
                                r = render::upstream(r, &at(func, cut_pc), cut, count);
                            }
                        }
                        r
                    }
                    None => Reason {
                        reason: NOT_REACHED,
                        kind: "undecided",
                        detail: format!(
                            "the branch at {} was executed but never decided this way",
                            render::at_text(&at(func, pc))
                        ),
                        at: at(func, pc),
                        inputs: Vec::new(),
                        pending_can_reach: false,
                        seeds: None,
                    },
                }
            }
            Origin::Stopped { func, pc } => {
                let a = at(func, pc);
                Reason {
                    reason: NOT_REACHED,
                    kind: "path-ended",
                    detail: format!(
                        "every path that reached {} went no further (a call that does not return, an exit, an error, or the run's end)",
                        render::at_text(&a)
                    ),
                    at: a,
                    inputs: Vec::new(),
                    pending_can_reach: false,
                    seeds: None,
                }
            }
            Origin::NotEntered { func, pc, callee } => {
                let a = at(func, pc);
                Reason {
                    reason: NOT_REACHED,
                    kind: "not-entered",
                    detail: format!(
                        "the call at {} did not run `{}` (the engine handles that call itself)",
                        render::at_text(&a),
                        module.function(callee).name
                    ),
                    at: a,
                    inputs: Vec::new(),
                    pending_can_reach: false,
                    seeds: None,
                }
            }
            Origin::NoCaller { func } => Reason {
                reason: NOT_REACHED,
                kind: "no-caller",
                detail: format!(
                    "no state entered `{}`: no executed code calls it directly (it is called through a pointer, if at all, or only from code never reached)",
                    module.function(func).name
                ),
                at: None,
                inputs: Vec::new(),
                pending_can_reach: false,
                seeds: self.seeds_note(false),
            },
        }
    }

    /// A heuristic cut in the block of the branch at `pc` of `func`, before
    /// it: a call under which library code followed its input (what the
    /// branch tests is what that call returned), or a branch that fixed the
    /// inputs it read. (its instruction, the kind cut most often, how often).
    fn upstream_cut(&self, func: FuncId, pc: u32) -> Option<(u32, Cut, u64)> {
        let body = self.module.function(func).body.as_ref()?;
        let blk = &body.blocks[body.blocks.iter().rposition(|b| b.first <= pc)?];
        let mut cuts: Vec<(u32, Cut, u64)> = self
            .why
            .cuts
            .iter()
            .filter(|((f, p), _)| *f == func && (blk.first..pc).contains(p))
            .filter_map(|((_, p), counts)| {
                let (k, n) = counts.iter().enumerate().max_by_key(|(_, n)| **n)?;
                (*n > 0).then_some((*p, CUTS[k], *n))
            })
            .collect();
        cuts.sort_unstable_by_key(|(p, _, _)| *p);
        cuts.pop()
    }
}
