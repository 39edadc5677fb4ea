//! Why code of the program stays uncovered: what the run saw at each branch
//! of the program's own code (recorded here, one call at each place a branch
//! is decided), and at the end of the run the reason for every line and
//! branch side it never executed ([`analysis`]).
//!
//! Per branch site (a conditional branch or switch in a program function,
//! sanitizer checks left out) and side: how often a path took it, how often
//! the solver found it infeasible (with the symbolic inputs the condition
//! reads), how often the condition was concrete (with the range of the
//! compared operands), and how often a heuristic made the path follow its
//! model past it (`--digest-depth`, a slow site, a solver give-up,
//! `--max-forks`/`--max-depth`). Heuristic cuts in library code are counted
//! at the program call site they happened under. At the halt, where the
//! states still pending (in memory or suspended) are.

mod analysis;
mod render;

pub use analysis::{BranchWhy, LineWhy, Reason, WhyReport};

use crate::executor::Executor;
use crate::state::State;
use crate::value::Value;
use rustc_hash::FxHashMap;
use symtest_ir::{BlockId, Callee, FuncId, IntPred, Module, Op, Operand};

/// How a branch was decided on one visit.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Decision {
    /// The condition was concrete and took this side.
    Concrete(bool),
    /// The solver found only this side feasible.
    Only(bool),
    /// Both sides feasible: the path forked.
    Both,
    /// A heuristic made the path follow its model to this side; the other
    /// side was not explored.
    Followed(Cut, bool),
}

/// Why a feasible side was left unexplored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The condition is `--digest-depth` deep in the inputs.
    Digest,
    /// A query on a condition as deep gave up at this place before.
    SlowSite,
    /// The solver gave up on the query (time limit, or unknown).
    SolverGaveUp,
    /// Library code under one program call site used its `--library-forks`.
    Library,
    /// `--max-forks` or `--max-depth` was reached: one side at random.
    ForkLimit,
}

pub(crate) const CUTS: [Cut; 5] = [
    Cut::Digest,
    Cut::SlowSite,
    Cut::SolverGaveUp,
    Cut::Library,
    Cut::ForkLimit,
];

impl Cut {
    fn index(self) -> usize {
        CUTS.iter().position(|c| *c == self).expect("listed")
    }

    /// The name in `why` reports.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Cut::Digest => "digest-depth",
            Cut::SlowSite => "slow-site",
            Cut::SolverGaveUp => "solver-gave-up",
            Cut::Library => "library-forks",
            Cut::ForkLimit => "fork-limit",
        }
    }
}

/// What one side of a site saw.
#[derive(Clone, Debug)]
pub(crate) struct SideLog {
    pub target: BlockId,
    pub taken: u64,
    pub infeasible: u64,
    /// Of those, visits on paths whose inputs a heuristic had fixed.
    pub infeasible_after_cut: u64,
    /// Visits that followed the other side because of each [`Cut`].
    pub cuts: [u64; 5],
    /// The symbolic inputs the condition read where this side was
    /// infeasible (name, size in bytes), the first few.
    pub inputs: Vec<(String, u32)>,
}

impl SideLog {
    fn new(target: BlockId) -> SideLog {
        SideLog {
            target,
            taken: 0,
            infeasible: 0,
            infeasible_after_cut: 0,
            cuts: [0; 5],
            inputs: Vec::new(),
        }
    }
}

/// Concrete values an operand had at a site.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Range {
    pub umin: u64,
    pub umax: u64,
    pub smin: i64,
    pub smax: i64,
}

impl Range {
    fn of(width: u32, bits: u64) -> Range {
        let s = if width == 0 || width >= 64 {
            bits as i64
        } else {
            let shift = 64 - width;
            ((bits << shift) as i64) >> shift
        };
        Range {
            umin: bits,
            umax: bits,
            smin: s,
            smax: s,
        }
    }

    fn add(&mut self, o: Range) {
        self.umin = self.umin.min(o.umin);
        self.umax = self.umax.max(o.umax);
        self.smin = self.smin.min(o.smin);
        self.smax = self.smax.max(o.smax);
    }
}

/// What a site is.
#[derive(Clone, Debug)]
pub(crate) enum SiteKind {
    /// Not a branch of the program (another instruction, a sanitizer check).
    Other,
    /// A conditional branch: sides `[then, else]`; the comparison that
    /// computes its condition when it is an integer compare in the block.
    Cond {
        cmp: Option<(IntPred, Operand, Operand)>,
    },
    /// A switch: one side per destination (cases in order, default last).
    Switch,
}

/// One branch site of the program.
#[derive(Clone, Debug)]
pub(crate) struct SiteLog {
    pub func: FuncId,
    pub pc: u32,
    pub file: Option<symtest_ir::FileId>,
    pub kind: SiteKind,
    pub sides: Vec<SideLog>,
    /// Visits where the condition (switch value) was concrete.
    pub concrete: u64,
    /// Of those, visits on paths whose inputs a heuristic had fixed, and
    /// where the first such path's inputs were fixed.
    pub concrete_after_cut: u64,
    pub cut_origin: Option<(FuncId, u32, Cut)>,
    /// The concrete operands seen while a side was still untaken: a
    /// comparison's two, or the switch value.
    pub ranges: [Option<Range>; 2],
    /// Where the condition is computed (the compare's location: the column
    /// of the condition in a chain of `&&`/`||`), else the branch's.
    pub line: u32,
    pub col: u32,
    /// Visits by paths following a seed of the run's own (not an option
    /// seed), or started from a recorded run's arguments.
    pub seeded: u64,
}

/// The run's record (an [`Executor`] field).
#[derive(Default)]
pub(crate) struct WhyLog {
    /// Branch sites by global instruction number.
    pub sites: FxHashMap<u32, SiteLog>,
    /// Heuristic cuts away from program branches, per kind: in library code
    /// under a program call site (function, call instruction), or at a
    /// program instruction that is not a branch (an error check).
    pub cuts: FxHashMap<(FuncId, u32), [u64; 5]>,
    /// Where the states pending at the halt were: how many states have a
    /// frame at each (function, block).
    pub pending: FxHashMap<(FuncId, BlockId), u64>,
    pub pending_states: u64,
    pub suspended_states: u64,
    /// States whose symbolic inputs a heuristic fixed to their current
    /// values (a digest, a solver give-up): where first (the program's
    /// function and instruction) and why. Their forks inherit it.
    pub fixed: FxHashMap<crate::state::StateId, (FuncId, u32, Cut)>,
}

/// Is `b` a block that reports a failed sanitizer check (it calls a UBSan
/// handler or traps)?
fn is_check_handler(module: &Module, body: &symtest_ir::Body, b: BlockId) -> bool {
    body.block_insts(b).iter().any(|i| match &i.op {
        Op::Call {
            callee: Callee::Direct(g),
            ..
        } => symtest_ir::plain_name(&module.function(*g).name).starts_with("__ubsan_handle"),
        Op::Intrinsic { which, .. } => matches!(which, symtest_ir::Intrinsic::Trap),
        _ => false,
    })
}

impl SiteLog {
    /// The site at instruction `pc` of `func`.
    fn new(module: &Module, func: FuncId, pc: u32) -> SiteLog {
        let body = module.function(func).body.as_ref().expect("running body");
        let inst = &body.insts[pc as usize];
        let other = SiteLog {
            func,
            pc,
            file: inst.loc.file,
            kind: SiteKind::Other,
            sides: Vec::new(),
            concrete: 0,
            concrete_after_cut: 0,
            cut_origin: None,
            ranges: [None, None],
            line: inst.loc.line,
            col: inst.loc.col,
            seeded: 0,
        };
        match &inst.op {
            Op::CondBr {
                cond,
                then_block,
                else_block,
            } => {
                if then_block == else_block
                    || is_check_handler(module, body, *then_block)
                    || is_check_handler(module, body, *else_block)
                {
                    return other;
                }
                // The instruction computing the condition, in this block.
                let blk = body
                    .blocks
                    .iter()
                    .rposition(|b| b.first <= pc)
                    .map_or(0, |b| body.blocks[b].first);
                let def = match cond {
                    Operand::Reg(r) => body.insts[blk as usize..pc as usize]
                        .iter()
                        .rev()
                        .find(|i| i.dest == Some(*r)),
                    Operand::Const(_) => None,
                };
                let cmp = def.and_then(|d| match &d.op {
                    Op::ICmp { pred, a, b, .. } => Some((*pred, *a, *b)),
                    _ => None,
                });
                let loc = def.map_or(inst.loc, |d| if d.loc.line > 0 { d.loc } else { inst.loc });
                SiteLog {
                    kind: SiteKind::Cond { cmp },
                    sides: vec![SideLog::new(*then_block), SideLog::new(*else_block)],
                    line: loc.line,
                    col: loc.col,
                    ..other
                }
            }
            Op::Switch { default, cases, .. } => {
                let mut sides: Vec<SideLog> = Vec::new();
                for b in cases.iter().map(|c| c.1).chain(std::iter::once(*default)) {
                    if !sides.iter().any(|s| s.target == b) {
                        sides.push(SideLog::new(b));
                    }
                }
                SiteLog {
                    kind: SiteKind::Switch,
                    sides,
                    ..other
                }
            }
            _ => other,
        }
    }

    fn side_mut(&mut self, target: BlockId) -> Option<&mut SideLog> {
        self.sides.iter_mut().find(|s| s.target == target)
    }
}

/// A concrete operand's value, if it is one.
fn concrete_of(consts: &[Value], st: &State, o: Operand) -> Option<Range> {
    let v = match o {
        Operand::Const(c) => consts.get(c.0 as usize).cloned(),
        Operand::Reg(r) => st.reg(r),
    }?;
    match v {
        Value::Concrete(b) if b.width() <= 64 => Some(Range::of(b.width(), b.to_u64())),
        _ => None,
    }
}

/// The symbolic inputs (name, size) an expression reads.
fn inputs_of(
    pool: &symtest_expr::ExprPool,
    st: &State,
    e: symtest_expr::ExprId,
) -> Vec<(String, u32)> {
    let arrays = pool.arrays_in_slice(e);
    st.symbolics
        .iter()
        .filter(|s| arrays.contains(&s.array))
        .map(|s| (s.name.clone(), s.size))
        .collect()
}

/// At most this many inputs are kept per side.
const MAX_INPUTS: usize = 8;

impl Executor<'_> {
    /// Records how the branch at `st`'s current instruction was decided
    /// (`cond` is its condition).
    pub(crate) fn note_branch(&mut self, st: &State, cond: &Value, d: Decision) {
        let f = st.frame();
        let (func, pc) = (f.func, f.cur);
        if let Decision::Followed(cut @ (Cut::Digest | Cut::SlowSite | Cut::SolverGaveUp), _) = d {
            // The inputs the condition reads are fixed on this path from now.
            let at = match self.coverage.is_program_function(func) {
                true => Some((func, pc)),
                false => self.coverage.program_frame(st).map(|p| (p.func, p.cur)),
            };
            if let Some((f, p)) = at {
                self.why.fixed.entry(st.id).or_insert((f, p, cut));
            }
        }
        let fixed = self.why.fixed.get(&st.id).copied();
        let seeded = st.argv.is_some()
            || st
                .seeds
                .iter()
                .any(|&k| (k as usize) < self.first_option_seed);
        if !self.coverage.is_program_function(func) {
            if let (Decision::Followed(cut, _), Some(p)) = (d, self.coverage.program_frame(st)) {
                self.why.cuts.entry((p.func, p.cur)).or_default()[cut.index()] += 1;
            }
            return;
        }
        let module = self.module;
        let idx = self.coverage.index(func, pc);
        let site = self
            .why
            .sites
            .entry(idx)
            .or_insert_with(|| SiteLog::new(module, func, pc));
        if seeded {
            site.seeded += 1;
        }
        let cmp = match &site.kind {
            SiteKind::Cond { cmp } => *cmp,
            SiteKind::Switch | SiteKind::Other => {
                if let Decision::Followed(cut, _) = d {
                    self.why.cuts.entry((func, pc)).or_default()[cut.index()] += 1;
                }
                return;
            }
        };
        let side = |b: bool| usize::from(!b);
        match d {
            Decision::Concrete(b) => {
                site.concrete += 1;
                if let Some(origin) = fixed {
                    site.concrete_after_cut += 1;
                    site.cut_origin.get_or_insert(origin);
                }
                site.sides[side(b)].taken += 1;
                if site.sides[side(!b)].taken == 0 {
                    if let Some((_, x, y)) = cmp {
                        for (k, o) in [x, y].into_iter().enumerate() {
                            if let Some(r) = concrete_of(&self.consts, st, o) {
                                match &mut site.ranges[k] {
                                    Some(acc) => acc.add(r),
                                    slot @ None => *slot = Some(r),
                                }
                            }
                        }
                    }
                }
            }
            Decision::Only(b) => {
                site.sides[side(b)].taken += 1;
                if let Some(origin) = fixed {
                    site.cut_origin.get_or_insert(origin);
                }
                let other = &mut site.sides[side(!b)];
                other.infeasible += 1;
                other.infeasible_after_cut += u64::from(fixed.is_some());
                if other.taken == 0 && other.infeasible <= 4 && other.inputs.len() < MAX_INPUTS {
                    if let Value::Symbolic(e) = cond {
                        for input in inputs_of(&self.pool, st, *e) {
                            if !other.inputs.contains(&input) && other.inputs.len() < MAX_INPUTS {
                                other.inputs.push(input);
                            }
                        }
                    }
                }
            }
            Decision::Both => {
                site.sides[0].taken += 1;
                site.sides[1].taken += 1;
            }
            Decision::Followed(cut, b) => {
                site.sides[side(b)].taken += 1;
                site.sides[side(!b)].cuts[cut.index()] += 1;
                // The inputs the condition reads are now fixed on this path:
                // what follows in the block may be decided by that.
                if matches!(cut, Cut::Digest | Cut::SlowSite | Cut::SolverGaveUp) {
                    self.why.cuts.entry((func, pc)).or_default()[cut.index()] += 1;
                }
            }
        }
    }

    /// Records how a switch at `st`'s current instruction went: the
    /// destinations taken, those the solver found infeasible, and whether
    /// its value was concrete (`value`) or the fork limit chose one
    /// destination of several.
    pub(crate) fn note_switch(
        &mut self,
        st: &State,
        value: &Value,
        taken: &[BlockId],
        infeasible: &[BlockId],
        limited: usize,
    ) {
        let f = st.frame();
        let (func, pc) = (f.func, f.cur);
        if !self.coverage.is_program_function(func) {
            return;
        }
        let module = self.module;
        let idx = self.coverage.index(func, pc);
        let site = self
            .why
            .sites
            .entry(idx)
            .or_insert_with(|| SiteLog::new(module, func, pc));
        if !matches!(site.kind, SiteKind::Switch) {
            return;
        }
        if let Value::Concrete(b) = value {
            site.concrete += 1;
            if b.width() <= 64 && site.sides.iter().any(|s| s.taken == 0) {
                let r = Range::of(b.width(), b.to_u64());
                match &mut site.ranges[0] {
                    Some(acc) => acc.add(r),
                    slot @ None => *slot = Some(r),
                }
            }
        }
        for t in taken {
            if let Some(s) = site.side_mut(*t) {
                s.taken += 1;
            }
        }
        let fixed = self.why.fixed.get(&st.id).copied();
        if let (Some(origin), Value::Concrete(_)) = (fixed, value) {
            site.concrete_after_cut += 1;
            site.cut_origin.get_or_insert(origin);
        }
        if let (Some(origin), false) = (fixed, infeasible.is_empty()) {
            site.cut_origin.get_or_insert(origin);
        }
        for t in infeasible {
            if let Some(s) = site.side_mut(*t) {
                s.infeasible += 1;
                s.infeasible_after_cut += u64::from(fixed.is_some());
                if s.taken == 0 && s.infeasible <= 4 && s.inputs.len() < MAX_INPUTS {
                    if let Value::Symbolic(e) = value {
                        for input in inputs_of(&self.pool, st, *e) {
                            if !s.inputs.contains(&input) && s.inputs.len() < MAX_INPUTS {
                                s.inputs.push(input);
                            }
                        }
                    }
                }
            }
        }
        if limited > 0 {
            for s in site.sides.iter_mut().filter(|s| !taken.contains(&s.target)) {
                if !infeasible.contains(&s.target) {
                    s.cuts[Cut::ForkLimit.index()] += 1;
                }
            }
        }
    }

    /// A fork: the child's inputs are fixed where its parent's are.
    pub(crate) fn note_fork(
        &mut self,
        parent: crate::state::StateId,
        child: crate::state::StateId,
    ) {
        if let Some(f) = self.why.fixed.get(&parent).copied() {
            self.why.fixed.insert(child, f);
        }
    }

    /// Where the states still pending are (call before the halt lets them
    /// go): every frame of each state in memory, and the innermost frame and
    /// innermost program frame of each suspended one.
    pub(crate) fn note_pending(&mut self) {
        let mut pending: FxHashMap<(FuncId, BlockId), u64> = FxHashMap::default();
        let mut count = |mut at: Vec<(FuncId, BlockId)>| {
            at.retain(|(f, _)| self.coverage.is_program_function(*f));
            at.sort_unstable_by_key(|(f, b)| (f.0, b.0));
            at.dedup();
            for p in at {
                *pending.entry(p).or_default() += 1;
            }
        };
        for st in self.states.values() {
            count(st.stack.iter().map(|f| (f.func, f.block)).collect());
        }
        let block_of = |func: FuncId, pc: u32| {
            let body = self.module.function(func).body.as_ref()?;
            let b = body.blocks.iter().rposition(|b| b.first <= pc)?;
            Some(BlockId(b as u32))
        };
        let mut suspended = 0u64;
        for batch in &self.suspended {
            for p in &batch.states {
                suspended += 1;
                count(
                    std::iter::once((p.func, p.pc))
                        .chain(p.program_at)
                        .filter_map(|(func, pc)| Some((func, block_of(func, pc)?)))
                        .collect(),
                );
            }
        }
        self.why.pending = pending;
        self.why.pending_states = self.states.len() as u64;
        self.why.suspended_states = suspended;
    }
}
