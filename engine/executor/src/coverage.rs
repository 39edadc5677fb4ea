//! Instruction and line coverage, execution counts, and distances to uncovered code.

use rustc_hash::FxHashSet;
use symtest_ir::{FileId, FuncId, Module, Op};

/// Global instruction numbering: `base[f] + index in f's body`.
pub struct Coverage {
    base: Vec<u32>,
    total: u32,
    covered: Vec<bool>,
    /// Covered by some written test.
    tested: Vec<bool>,
    counts: Vec<u64>,
    func_counts: Vec<u64>,
    covered_count: u32,
    /// Lines of the counted files (see [`Coverage::new`]).
    lines_total: FxHashSet<(FileId, u32)>,
    lines_covered: FxHashSet<(FileId, u32)>,
    /// Per file: do its lines count in line coverage?
    counted: Vec<bool>,
    /// Per global instruction: is it a statement's end, no line of its own
    /// ([`statement_ends`])?
    statement_end: Vec<bool>,
    /// Per function: distance from each instruction to the nearest uncovered one.
    md2u: Vec<Option<Vec<u32>>>,
    /// Per function: is it the program's own code (some instruction in a
    /// counted file)? Only its code is a target of the search's distances
    /// and new-coverage bonus.
    program_fn: Vec<bool>,
}

use crate::cfg::FAR;

/// Which instructions of `body` stand at the end of a statement whose code is
/// on the same line, without being part of it: a block that is only an
/// unconditional branch, placed after the other instructions of its line.
/// clang leaves a loop this way just before a label (`for (...) f(x);`
/// then `out:`: the branch out carries the position where `f(x)` ends), so
/// running it does not mean the line's statement ran; natively (gcov,
/// llvm-cov) the line counts only when it does. A branch alone on its line
/// (`break;`, `goto out;`) is a statement and keeps its line.
fn statement_ends(body: &symtest_ir::Body) -> Vec<bool> {
    let mut ends = vec![false; body.insts.len()];
    let lone_branch = |b: &symtest_ir::Block| {
        let inst = &body.insts[b.first as usize];
        (b.len == 1 && matches!(inst.op, Op::Br { .. }) && inst.loc.line > 0)
            .then_some(b.first as usize)
    };
    if !body.blocks.iter().any(|b| lone_branch(b).is_some()) {
        return ends;
    }
    // The first column of each line's code in this function.
    let mut first_col: rustc_hash::FxHashMap<(Option<FileId>, u32), u32> = Default::default();
    for inst in &body.insts {
        let col = first_col
            .entry((inst.loc.file, inst.loc.line))
            .or_insert(inst.loc.col);
        *col = (*col).min(inst.loc.col);
    }
    for i in body.blocks.iter().filter_map(lone_branch) {
        let loc = body.insts[i].loc;
        ends[i] = first_col[&(loc.file, loc.line)] < loc.col;
    }
    ends
}

impl Coverage {
    /// Is code at a location with this file the program's own (see
    /// `Config::coverage_files`)? Code without a location counts as the program's.
    pub fn is_program_file(&self, file: Option<FileId>) -> bool {
        file.is_none_or(|f| self.counted.get(f.0 as usize).copied().unwrap_or(true))
    }

    /// `files`: the source files whose lines count in line coverage (the
    /// program's own, when a libc is linked in); `None` counts every file.
    /// Instruction coverage, which guides the search, always covers all code.
    pub fn new(module: &Module, files: Option<&[String]>) -> Coverage {
        let counted: Vec<bool> = module
            .files
            .iter()
            .map(|f| files.is_none_or(|list| list.iter().any(|x| x == f)))
            .collect();
        let program_fn: Vec<bool> = module
            .functions
            .iter()
            .map(|f| {
                files.is_none()
                    || f.body.as_ref().is_some_and(|b| {
                        b.insts
                            .iter()
                            .any(|i| i.loc.file.is_some_and(|file| counted[file.0 as usize]))
                    })
            })
            .collect();
        let mut base = Vec::with_capacity(module.functions.len());
        let mut total = 0u32;
        let mut lines_total = FxHashSet::default();
        let mut statement_end = Vec::new();
        for f in &module.functions {
            base.push(total);
            if let Some(b) = &f.body {
                total += b.insts.len() as u32;
                statement_end.extend(statement_ends(b));
                for i in &b.insts {
                    if let (Some(file), l) = (i.loc.file, i.loc.line) {
                        if l > 0 && counted[file.0 as usize] {
                            lines_total.insert((file, l));
                        }
                    }
                }
            }
        }
        Coverage {
            base,
            total,
            covered: vec![false; total as usize],
            tested: vec![false; total as usize],
            counts: vec![0; total as usize],
            func_counts: vec![0; module.functions.len()],
            covered_count: 0,
            lines_total,
            lines_covered: FxHashSet::default(),
            counted,
            statement_end,
            md2u: vec![None; module.functions.len()],
            program_fn,
        }
    }

    /// Is `f` the program's own code (not the libc or models linked in)?
    /// Every function is when no list of counted files was given.
    pub fn is_program_function(&self, f: FuncId) -> bool {
        self.program_fn[f.0 as usize]
    }

    /// The innermost frame of `st` running the program's own code: where a
    /// call into the libc or a model returns to.
    pub fn program_frame<'s>(
        &self,
        st: &'s crate::state::State,
    ) -> Option<&'s crate::state::Frame> {
        st.stack
            .iter()
            .rev()
            .map(|f| &**f)
            .find(|f| self.is_program_function(f.func))
    }

    pub fn index(&self, f: FuncId, pc: u32) -> u32 {
        self.base[f.0 as usize] + pc
    }

    /// Records one execution; returns true the first time the instruction runs.
    pub fn hit(&mut self, module: &Module, f: FuncId, pc: u32) -> bool {
        let i = (self.base[f.0 as usize] + pc) as usize;
        self.counts[i] += 1;
        self.func_counts[f.0 as usize] += 1;
        if self.covered[i] {
            return false;
        }
        self.covered[i] = true;
        self.covered_count += 1;
        self.md2u[f.0 as usize] = None;
        let loc = module.functions[f.0 as usize]
            .body
            .as_ref()
            .expect("running body")
            .insts[pc as usize]
            .loc;
        if let Some(file) = loc.file {
            if loc.line > 0 && self.counted[file.0 as usize] && !self.statement_end[i] {
                self.lines_covered.insert((file, loc.line));
            }
        }
        true
    }

    /// The counted source line of a global instruction number, if it has one.
    pub fn line_of(&self, module: &Module, inst: u32) -> Option<(FileId, u32)> {
        // The function whose range holds `inst`: the last base at or below it
        // (functions without a body have empty ranges).
        let f = self.base.partition_point(|&b| b <= inst).checked_sub(1)?;
        let body = module.functions[f].body.as_ref()?;
        let loc = body.insts.get((inst - self.base[f]) as usize)?.loc;
        let file = loc.file?;
        (loc.line > 0 && self.counted[file.0 as usize] && !self.statement_end[inst as usize])
            .then_some((file, loc.line))
    }

    pub fn count(&self, f: FuncId, pc: u32) -> u64 {
        self.counts[(self.base[f.0 as usize] + pc) as usize]
    }

    pub fn func_count(&self, f: FuncId) -> u64 {
        self.func_counts[f.0 as usize]
    }

    /// Has some path executed global instruction `inst`?
    pub fn covered_at(&self, inst: u32) -> bool {
        self.covered[inst as usize]
    }

    /// Is `file` one whose lines count?
    pub fn is_counted(&self, file: FileId) -> bool {
        self.counted.get(file.0 as usize).copied().unwrap_or(false)
    }

    /// The counted lines no path executed, sorted.
    pub fn uncovered_line_list(&self) -> Vec<(FileId, u32)> {
        let mut v: Vec<(FileId, u32)> = self
            .lines_total
            .difference(&self.lines_covered)
            .copied()
            .collect();
        v.sort_unstable_by_key(|(f, l)| (f.0, *l));
        v
    }

    pub fn is_tested(&self, inst: u32) -> bool {
        self.tested[inst as usize]
    }

    pub fn mark_tested(&mut self, inst: u32) {
        self.tested[inst as usize] = true;
    }

    pub fn covered_instructions(&self) -> u32 {
        self.covered_count
    }

    pub fn total_instructions(&self) -> u32 {
        self.total
    }

    pub fn covered_lines(&self) -> usize {
        self.lines_covered.len()
    }

    pub fn total_lines(&self) -> usize {
        self.lines_total.len()
    }

    /// The covered source lines as (file name, line), sorted.
    pub fn covered_line_list(&self, module: &Module) -> Vec<(String, u32)> {
        let mut v: Vec<(String, u32)> = self
            .lines_covered
            .iter()
            .filter_map(|&(f, l)| Some((module.files.get(f.0 as usize)?.clone(), l)))
            .collect();
        v.sort();
        v
    }

    /// Distance in instructions from `pc` in `f` to the nearest uncovered
    /// instruction reachable inside `f` (None if none is).
    pub fn md2u(&mut self, module: &Module, f: FuncId, pc: u32) -> Option<u32> {
        let fi = f.0 as usize;
        if self.md2u[fi].is_none() {
            self.md2u[fi] = Some(self.compute_md2u(module, f));
        }
        let d = self.md2u[fi].as_ref().expect("computed")[pc as usize];
        (d < FAR).then_some(d)
    }

    fn compute_md2u(&self, module: &Module, f: FuncId) -> Vec<u32> {
        let body = module.functions[f.0 as usize]
            .body
            .as_ref()
            .expect("defined");
        let base = self.base[f.0 as usize] as usize;
        crate::cfg::distances(body, |k| !self.covered[base + k], |_| FAR)
    }
}
