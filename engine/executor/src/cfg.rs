//! Control flow of a function body, written once: the successors of a
//! terminator and of a block, the predecessors of every block, and the
//! backward distance of every instruction to the nearest instruction of a
//! kind. Coverage (`md2u`), directed exploration (`targets`), loop heads for
//! merging and `why`'s graph all read the control flow through this module.

use symtest_ir::{Body, Op};

/// A distance that stands for "unreachable"; sums of a few stay far below
/// `u32::MAX`.
pub(crate) const FAR: u32 = u32::MAX / 4;

/// The blocks a terminator can transfer control to (none for `ret`,
/// `unreachable` and non-terminators).
pub(crate) fn successors(op: &Op) -> Vec<u32> {
    match op {
        Op::Br { target } => vec![target.0],
        Op::CondBr {
            then_block,
            else_block,
            ..
        } => vec![then_block.0, else_block.0],
        Op::Switch { default, cases, .. } => {
            let mut v: Vec<u32> = cases.iter().map(|c| c.1 .0).collect();
            v.push(default.0);
            v
        }
        Op::IndirectBr { targets, .. } => targets.iter().map(|c| c.1 .0).collect(),
        _ => Vec::new(),
    }
}

/// The successors of block `b` (none for an empty block).
pub(crate) fn block_successors(body: &Body, b: usize) -> Vec<u32> {
    let blk = &body.blocks[b];
    if blk.len == 0 {
        return Vec::new();
    }
    successors(&body.insts[(blk.first + blk.len - 1) as usize].op)
}

/// Per block, the blocks that branch to it (an edge per successor entry, in
/// block order; successors outside the body are ignored).
pub(crate) fn predecessors(body: &Body) -> Vec<Vec<u32>> {
    let n = body.blocks.len();
    let mut pred: Vec<Vec<u32>> = vec![Vec::new(); n];
    for b in 0..n {
        for s in block_successors(body, b) {
            if (s as usize) < n {
                pred[s as usize].push(b as u32);
            }
        }
    }
    pred
}

/// Per instruction of `body`, the least number of instructions executed
/// from it until an instruction for which `is_goal` holds (0 on such an
/// instruction), along the body's control flow; `shortcut(k)` is a distance
/// from instruction `k` by another route (a call into a function nearer to a
/// goal), FAR when none. FAR where no goal is reachable. Block entries are
/// relaxed to a fixpoint (blocks are few).
pub(crate) fn distances(
    body: &Body,
    is_goal: impl Fn(usize) -> bool,
    shortcut: impl Fn(usize) -> u32,
) -> Vec<u32> {
    let mut dist = vec![FAR; body.insts.len()];
    let mut entry = vec![FAR; body.blocks.len()];
    loop {
        let mut changed = false;
        for (bi, blk) in body.blocks.iter().enumerate() {
            let (first, len) = (blk.first as usize, blk.len as usize);
            if len == 0 {
                continue;
            }
            let succ = block_successors(body, bi)
                .into_iter()
                .filter_map(|s| entry.get(s as usize).copied())
                .min()
                .unwrap_or(FAR);
            let mut d = succ.saturating_add(1);
            for k in (first..first + len).rev() {
                d = if is_goal(k) {
                    0
                } else {
                    d.saturating_add(1).min(shortcut(k))
                };
                if d < dist[k] {
                    dist[k] = d;
                }
            }
            if d < entry[bi] {
                entry[bi] = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use symtest_ir::{Block, BlockId, Inst, Loc, Operand};

    fn inst(op: Op) -> Inst {
        Inst {
            op,
            dest: None,
            loc: Loc::default(),
        }
    }

    /// Blocks 0 -> {1, 2}, 1 -> 2, 2 -> 0 (a loop), each of two
    /// instructions, the second the terminator.
    fn diamond_loop() -> Body {
        let mut insts = Vec::new();
        let mut blocks = Vec::new();
        let terms = [
            Op::CondBr {
                cond: Operand::Reg(0),
                then_block: BlockId(1),
                else_block: BlockId(2),
            },
            Op::Br { target: BlockId(2) },
            Op::Br { target: BlockId(0) },
        ];
        for t in terms {
            blocks.push(Block {
                name: String::new(),
                first: insts.len() as u32,
                len: 2,
            });
            insts.push(inst(Op::Unreachable));
            insts.push(inst(t));
        }
        Body {
            num_regs: 1,
            insts,
            blocks,
        }
    }

    #[test]
    fn predecessors_follow_the_edges() {
        let b = diamond_loop();
        assert_eq!(predecessors(&b), vec![vec![2], vec![0], vec![0, 1]]);
    }

    #[test]
    fn distances_run_backwards_to_the_nearest_goal() {
        let b = diamond_loop();
        // Goal: the first instruction of block 2 (instruction 4).
        let d = distances(&b, |k| k == 4, |_| FAR);
        // A branch costs one step plus one for entering its target.
        assert_eq!(d[4], 0);
        assert_eq!(d[3], 2);
        assert_eq!(d[2], 3);
        assert_eq!(d[1], 2, "block 0's branch goes to block 2 directly");
        assert_eq!(d[0], 3);
        assert_eq!(d[5], 5, "around the loop, through block 0's branch");
        let none = distances(&b, |_| false, |_| FAR);
        assert!(none.iter().all(|d| *d == FAR));
        let via = distances(&b, |_| false, |k| if k == 3 { 7 } else { FAR });
        assert_eq!(via[3], 7);
        assert_eq!(via[2], 8);
    }
}
