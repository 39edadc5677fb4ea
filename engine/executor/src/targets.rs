//! Directed exploration (KATCH-style patch targeting): the source lines a
//! change touched, the instructions on them, and for every instruction the
//! distance in instructions to the nearest target line no path has reached
//! yet (once all are reached, to the nearest target line: the changed code
//! keeps running with other values) — through the control-flow graph of its function and the calls it
//! makes (a call costs one instruction plus the callee's distance from its
//! entry), the call graph solved to a fixpoint. A state's distance is the
//! least over its frames, an outer frame paying for the frames it waits on.

use crate::coverage::Coverage;
use symtest_ir::{Callee, FileId, FuncId, Module, Op};

use crate::cfg::FAR;
/// What returning from one frame costs in the distance of a state.
const FRAME_COST: u32 = 32;

/// The target lines of a run and the distances to those not yet reached.
pub struct Targets {
    /// (file, line) of every target line the module has code on.
    lines: Vec<(FileId, u32)>,
    /// Per target line: reached by some path.
    reached: Vec<bool>,
    /// Global instruction number -> index into `lines` (sorted by instruction).
    insts: Vec<(u32, u32)>,
    /// Per function, the distance of each of its instructions (None: not
    /// computed since the last reach).
    dist: Vec<Vec<u32>>,
    stale: bool,
    all_reached: bool,
}

/// Whether a module file name names the same file as a target's (paths as
/// the compiler recorded them against paths as a diff names them: equal, or
/// one ends with the other at a `/`).
fn same_file(module_name: &str, target: &str) -> bool {
    let (a, b) = (
        module_name.trim_start_matches("./"),
        target.trim_start_matches("./"),
    );
    a == b
        || a.strip_suffix(b).is_some_and(|p| p.ends_with('/'))
        || b.strip_suffix(a).is_some_and(|p| p.ends_with('/'))
}

impl Targets {
    /// The target lines of `wanted` ((file, line) as given) that the module
    /// has instructions on. None when `wanted` is empty.
    pub fn new(module: &Module, coverage: &Coverage, wanted: &[(String, u32)]) -> Option<Targets> {
        if wanted.is_empty() {
            return None;
        }
        let mut lines: Vec<(FileId, u32)> = Vec::new();
        let mut insts = Vec::new();
        for (fi, f) in module.functions.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            for (pc, inst) in body.insts.iter().enumerate() {
                let (Some(file), line) = (inst.loc.file, inst.loc.line) else {
                    continue;
                };
                if line == 0 {
                    continue;
                }
                let name = module.files.get(file.0 as usize).map_or("", String::as_str);
                if !wanted.iter().any(|(w, l)| *l == line && same_file(name, w)) {
                    continue;
                }
                let k = match lines.iter().position(|x| *x == (file, line)) {
                    Some(k) => k,
                    None => {
                        lines.push((file, line));
                        lines.len() - 1
                    }
                };
                insts.push((coverage.index(FuncId(fi as u32), pc as u32), k as u32));
            }
        }
        insts.sort_unstable();
        let reached = vec![false; lines.len()];
        Some(Targets {
            lines,
            reached,
            insts,
            dist: vec![Vec::new(); module.functions.len()],
            stale: true,
            all_reached: false,
        })
    }

    /// The target lines the module has code on, and whether each was reached.
    pub fn lines(&self) -> impl Iterator<Item = ((FileId, u32), bool)> + '_ {
        self.lines.iter().copied().zip(self.reached.iter().copied())
    }

    /// Notes that the instruction `inst` (global number) ran; true when it
    /// was the first to reach a target line.
    pub fn note(&mut self, inst: u32) -> bool {
        let Ok(i) = self.insts.binary_search_by_key(&inst, |(x, _)| *x) else {
            return false;
        };
        let k = self.insts[i].1 as usize;
        if self.reached[k] {
            return false;
        }
        self.reached[k] = true;
        self.all_reached = self.reached.iter().all(|r| *r);
        self.stale = true;
        true
    }

    /// A target instruction on a line not reached yet; once every line was
    /// reached, any target instruction (paths keep running the changed code
    /// with other values, where a bug it brought shows).
    fn is_open_target(&self, inst: u32) -> bool {
        let all_reached = self.all_reached;
        self.insts
            .binary_search_by_key(&inst, |(x, _)| *x)
            .ok()
            .is_some_and(|i| all_reached || !self.reached[self.insts[i].1 as usize])
    }

    /// Recomputes every function's distances (after a target was reached).
    fn refresh(&mut self, module: &Module, coverage: &Coverage) {
        let n = module.functions.len();
        let mut entry = vec![FAR; n];
        // Bellman-Ford over the call graph: distances only decrease.
        for _round in 0..64 {
            let mut changed = false;
            for (fi, f) in module.functions.iter().enumerate() {
                let Some(body) = &f.body else { continue };
                let d = self.function_distances(fi, body, &entry, coverage);
                let e = d.first().copied().unwrap_or(FAR);
                self.dist[fi] = d;
                if e < entry[fi] {
                    entry[fi] = e;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.stale = false;
    }

    fn function_distances(
        &self,
        fi: usize,
        body: &symtest_ir::Body,
        entry: &[u32],
        coverage: &Coverage,
    ) -> Vec<u32> {
        let base = coverage.index(FuncId(fi as u32), 0);
        let via_call = |k: usize| match &body.insts[k].op {
            Op::Call {
                callee: Callee::Direct(g),
                ..
            } => entry
                .get(g.0 as usize)
                .copied()
                .unwrap_or(FAR)
                .saturating_add(1),
            _ => FAR,
        };
        crate::cfg::distances(body, |k| self.is_open_target(base + k as u32), via_call)
    }

    /// The distance of a state whose frames are `frames` (function, pc of the
    /// next instruction; innermost last) to the nearest target line not
    /// reached; None when none is reachable.
    pub fn distance(
        &mut self,
        module: &Module,
        coverage: &Coverage,
        frames: &[(FuncId, u32)],
    ) -> Option<u32> {
        if self.stale {
            self.refresh(module, coverage);
        }
        let mut best = FAR;
        for (level, (f, pc)) in frames.iter().rev().enumerate() {
            let Some(d) = self
                .dist
                .get(f.0 as usize)
                .and_then(|d| d.get(*pc as usize))
            else {
                continue;
            };
            let cost = (level as u32).saturating_mul(FRAME_COST);
            best = best.min(d.saturating_add(cost));
        }
        (best < FAR).then_some(best)
    }
}

/// The target lines the module has code on, by file name, and whether a
/// path reached each.
pub fn describe(module: &Module, t: &Targets) -> Vec<(String, u32, bool)> {
    let mut v: Vec<(String, u32, bool)> = t
        .lines()
        .map(|((f, l), r)| {
            (
                module.files.get(f.0 as usize).cloned().unwrap_or_default(),
                l,
                r,
            )
        })
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_names_match_by_suffix() {
        assert!(super::same_file("/p/src/uniq.c", "src/uniq.c"));
        assert!(super::same_file("src/uniq.c", "/p/src/uniq.c"));
        assert!(super::same_file("./src/uniq.c", "src/uniq.c"));
        assert!(!super::same_file("/p/src/xuniq.c", "uniq.c"));
        assert!(!super::same_file("/p/src/uniq.c", "lib/uniq.c"));
    }
}
