//! The words of a reason: a side's record rendered as a [`Reason`] in
//! terms of the inputs and values the run saw.

use super::analysis::{At, Reason, HEURISTIC, INFEASIBLE, NOT_REACHED};
use super::{Cut, Range, SideLog, SiteKind, SiteLog, CUTS};
use symtest_ir::{BlockId, Body, FuncId, IntPred, Module};

/// The location of instruction `pc` of `func`.
pub(super) fn at(module: &Module, func: FuncId, pc: u32) -> Option<At> {
    let body = module.function(func).body.as_ref()?;
    let loc = body.insts.get(pc as usize)?.loc;
    let file = module.files.get(loc.file?.0 as usize)?;
    (loc.line > 0).then(|| At {
        file: file.clone(),
        line: loc.line,
        col: loc.col,
    })
}

pub(super) fn at_text(a: &Option<At>) -> String {
    match a {
        Some(a) => format!("{}:{}", a.file, a.line),
        None => "a place without a source line".into(),
    }
}

/// The first source line of block `b`.
pub(super) fn first_line(body: &Body, b: BlockId) -> Option<u32> {
    body.block_insts(b)
        .iter()
        .map(|i| i.loc.line)
        .find(|l| *l > 0)
}

pub(super) fn pending(states: u64, suspended: u64) -> String {
    if suspended > 0 {
        format!("{states} state(s) pending in memory, {suspended} suspended")
    } else {
        format!("{states} state(s) pending")
    }
}

fn cut_words(c: Cut) -> &'static str {
    match c {
        Cut::Digest => "its condition is at least --digest-depth operations deep in the input (a digest or checksum)",
        Cut::SlowSite => "the solver gave up at this place before on a condition as deep",
        Cut::SolverGaveUp => "the solver gave up (time limit, or unknown)",
        Cut::Library => "library code under that call used up its --library-forks",
        Cut::ForkLimit => "--max-forks or --max-depth was reached (one side at random)",
    }
}

fn symbol(p: IntPred) -> (&'static str, Option<bool>) {
    match p {
        IntPred::Eq => ("==", None),
        IntPred::Ne => ("!=", None),
        IntPred::Ugt => (">", Some(false)),
        IntPred::Uge => (">=", Some(false)),
        IntPred::Ult => ("<", Some(false)),
        IntPred::Ule => ("<=", Some(false)),
        IntPred::Sgt => (">", Some(true)),
        IntPred::Sge => (">=", Some(true)),
        IntPred::Slt => ("<", Some(true)),
        IntPred::Sle => ("<=", Some(true)),
    }
}

fn negate(p: IntPred) -> IntPred {
    match p {
        IntPred::Eq => IntPred::Ne,
        IntPred::Ne => IntPred::Eq,
        IntPred::Ugt => IntPred::Ule,
        IntPred::Uge => IntPred::Ult,
        IntPred::Ult => IntPred::Uge,
        IntPred::Ule => IntPred::Ugt,
        IntPred::Sgt => IntPred::Sle,
        IntPred::Sge => IntPred::Slt,
        IntPred::Slt => IntPred::Sge,
        IntPred::Sle => IntPred::Sgt,
    }
}

/// A value as a number, or in hexadecimal when it looks like an address.
fn value_text(v: i128) -> String {
    if v > 0xffff_ffff {
        format!("{v:#x}")
    } else {
        v.to_string()
    }
}

fn range_text(r: &Range, signed: bool) -> String {
    let (lo, hi) = if signed {
        (i128::from(r.smin), i128::from(r.smax))
    } else {
        (i128::from(r.umin), i128::from(r.umax))
    };
    if lo == hi {
        value_text(lo)
    } else {
        format!("{}..={}", value_text(lo), value_text(hi))
    }
}

/// What the concrete visits of a conditional branch saw, and what `side`
/// (0: true) needs.
fn operands_text(site: &SiteLog, side: usize) -> String {
    let SiteKind::Cond {
        cmp: Some((pred, _, _)),
    } = &site.kind
    else {
        return match (&site.kind, &site.ranges[0]) {
            (SiteKind::Switch, Some(r)) => format!("; the value was {}", range_text(r, r.smin < 0)),
            _ => String::new(),
        };
    };
    let [Some(a), Some(b)] = &site.ranges else {
        return String::new();
    };
    let need = if side == 0 { *pred } else { negate(*pred) };
    let (sym, signed) = symbol(need);
    let signed = signed.unwrap_or(a.smin < 0 || b.smin < 0);
    format!(
        "; the compared values were {} and {}, and this side needs left {sym} right{}",
        range_text(a, signed),
        range_text(b, signed),
        match symbol(need).1 {
            Some(true) => " (signed)",
            Some(false) => " (unsigned)",
            None => "",
        }
    )
}

fn input_hints(inputs: &[(String, u32)]) -> String {
    let mut hints = Vec::new();
    if inputs.iter().any(|(n, _)| n.ends_with("_fail")) {
        hints.push(
            "a system call would have to fail (--max-fail: each path fails at most that many)",
        );
    }
    if inputs.iter().any(|(n, _)| n == "n_args") {
        hints.push("it depends on the number of arguments");
    }
    if hints.is_empty() {
        String::new()
    } else {
        format!(" ({})", hints.join("; "))
    }
}

/// The reason a side of `site` whose destination is `target` was never
/// taken: a heuristic that sent paths the other way, a condition that
/// never held, or a side taken but never run, or never decided.
pub(super) fn side_reason(
    module: &Module,
    site: &SiteLog,
    target: BlockId,
    dropped: u64,
) -> Reason {
    let a = site
        .file
        .and_then(|f| module.files.get(f.0 as usize))
        .filter(|_| site.line > 0)
        .map(|file| At {
            file: file.clone(),
            line: site.line,
            col: site.col,
        });
    let Some((index, side)) = site
        .sides
        .iter()
        .enumerate()
        .find(|(_, s)| s.target == target)
    else {
        return Reason {
            reason: NOT_REACHED,
            kind: "undecided",
            detail: format!("the branch at {} never went this way", at_text(&a)),
            at: a,
            inputs: Vec::new(),
            pending_can_reach: false,
            seeds: None,
        };
    };
    let where_ = side_words(module, site, index, target, &a);
    let inputs: Vec<String> = side
        .inputs
        .iter()
        .map(|(n, s)| format!("{n} ({s} bytes)"))
        .collect();
    let (reason, kind, detail) = if let Some((kind, detail)) = cut_away(side, &where_) {
        (HEURISTIC, kind, detail)
    } else if side.infeasible > 0 || site.concrete > 0 {
        never_held(module, site, index, &where_, &inputs)
    } else if side.taken > 0 && dropped > 0 {
        (
            HEURISTIC,
            "memory-cap",
            format!("a path took {where_} but never ran it ({dropped} state(s) were dropped by the memory cap)"),
        )
    } else if side.taken > 0 {
        (
            NOT_REACHED,
            "taken-not-run",
            format!("a path took {where_} but never ran it"),
        )
    } else {
        (
            NOT_REACHED,
            "undecided",
            format!("{where_} was never decided"),
        )
    };
    Reason {
        reason,
        kind,
        detail,
        at: a,
        inputs,
        pending_can_reach: false,
        seeds: None,
    }
}

/// Side `index` of `site` (destination `target`, the branch at `a`) in
/// words: by where it goes, since which of the branch instruction's sides
/// is the source's `true` depends on how the compiler laid the condition
/// out.
fn side_words(
    module: &Module,
    site: &SiteLog,
    index: usize,
    target: BlockId,
    a: &Option<At>,
) -> String {
    let body = module
        .function(site.func)
        .body
        .as_ref()
        .expect("program body");
    let label = match (&site.kind, first_line(body, target)) {
        (SiteKind::Cond { .. }, Some(l)) => format!("side to line {l}"),
        (SiteKind::Cond { .. }, None) => format!("{} side", ["true", "false"][index.min(1)]),
        (_, Some(l)) => format!("destination at line {l}"),
        (_, None) => "destination".into(),
    };
    let what = match site.kind {
        SiteKind::Switch => "switch",
        _ => "branch",
    };
    format!("the {label} of the {what} at {}", at_text(a))
}

/// When heuristics sent paths the other way at the side (`where_`): the
/// one that did so most often (the reason's kind) and every one with its
/// count.
fn cut_away(side: &SideLog, where_: &str) -> Option<(&'static str, String)> {
    let (k, _) = side
        .cuts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .max_by_key(|(_, n)| **n)?;
    let parts: Vec<String> = CUTS
        .iter()
        .zip(side.cuts)
        .filter(|(_, n)| *n > 0)
        .map(|(c, n)| {
            format!(
                "{n} time(s) a path went the other way because {}",
                cut_words(*c)
            )
        })
        .collect();
    Some((
        CUTS[k].name(),
        format!("{where_} was not explored: {}", parts.join("; ")),
    ))
}

/// Side `index` of `site` never held: the solver found it infeasible, or
/// the condition was concrete (category, kind and words); a heuristic's
/// when every such path had its inputs fixed by a heuristic cut first.
fn never_held(
    module: &Module,
    site: &SiteLog,
    index: usize,
    where_: &str,
    inputs: &[String],
) -> (&'static str, &'static str, String) {
    let side = &site.sides[index];
    let mut parts = Vec::new();
    if side.infeasible > 0 {
        let reads = if inputs.is_empty() {
            String::new()
        } else {
            format!(
                "; the condition reads {}{}",
                inputs.join(", "),
                input_hints(&side.inputs)
            )
        };
        parts.push(format!(
            "the solver found it infeasible on {} path(s){reads}",
            side.infeasible
        ));
    }
    if site.concrete > 0 {
        parts.push(format!(
            "the condition was concrete on {} visit(s), fixed by the symbolic environment and the path{}",
            site.concrete,
            operands_text(site, index)
        ));
    }
    let kind = match (side.infeasible > 0, site.concrete > 0) {
        (true, false) => "solver",
        (false, true) => "concrete",
        _ => "solver-and-concrete",
    };
    let all_after_cut =
        side.infeasible == side.infeasible_after_cut && site.concrete == site.concrete_after_cut;
    if let (true, Some((f, pc, cut))) = (all_after_cut, site.cut_origin) {
        return (
            HEURISTIC,
            cut.name(),
            format!(
                "{where_} never held, but only on paths whose inputs had been fixed to their current values at {}, because {}: {}",
                at_text(&at(module, f, pc)),
                cut_words(cut),
                parts.join("; ")
            ),
        );
    }
    (
        INFEASIBLE,
        kind,
        format!("{where_} never held: {}", parts.join("; ")),
    )
}

/// A side that never held, decided by what a heuristic cut just before it
/// in the same block (the call whose result the branch tests).
pub(super) fn upstream(r: Reason, cut_at: &Option<At>, cut: Cut, count: u64) -> Reason {
    Reason {
        reason: HEURISTIC,
        kind: cut.name(),
        detail: format!(
            "{}; what it tests was decided at {}, where {count} branch(es) followed the current input because {}",
            r.detail,
            at_text(cut_at),
            cut_words(cut)
        ),
        ..r
    }
}
