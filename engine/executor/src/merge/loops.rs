//! Loop heads of the program's own functions, computed once from the IR: the
//! targets of back edges (an edge to a block on the stack of a depth-first
//! walk from the entry block), each with the blocks of its natural loop (the
//! head and every block that reaches one of its back edges' sources without
//! passing through the head).

use crate::cfg::{block_successors, predecessors};
use symtest_ir::{BlockId, Body, FuncId, Module, Op};

/// One loop head of a function.
#[derive(Debug)]
struct Head {
    block: u32,
    /// Index of the head's first instruction after its phis (where a state
    /// stands once it entered the block).
    entry_pc: u32,
    /// The loop's blocks, one bit per block.
    body: Vec<u64>,
}

/// The loop heads of each function (empty for library functions).
#[derive(Debug, Default)]
pub struct Loops {
    per_fn: Vec<Vec<Head>>,
}

impl Loops {
    /// Loop heads of every defined function `program` accepts.
    pub fn new(module: &Module, program: impl Fn(FuncId) -> bool) -> Loops {
        let per_fn = module
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| match &f.body {
                Some(b) if program(FuncId(i as u32)) => heads_of(b),
                _ => Vec::new(),
            })
            .collect();
        Loops { per_fn }
    }

    /// Does a state of `func` at `pc` in `block` stand at a loop head, right
    /// after entering it?
    #[inline]
    pub fn is_head_entry(&self, func: FuncId, block: BlockId, pc: u32) -> bool {
        self.per_fn
            .get(func.0 as usize)
            .is_some_and(|hs| hs.iter().any(|h| h.block == block.0 && h.entry_pc == pc))
    }

    /// Is `block` in the loop whose head is `head` (in `func`)?
    pub fn in_body(&self, func: FuncId, head: u32, block: BlockId) -> bool {
        let Some(h) = self
            .per_fn
            .get(func.0 as usize)
            .and_then(|hs| hs.iter().find(|h| h.block == head))
        else {
            return false;
        };
        let b = block.0 as usize;
        h.body.get(b / 64).is_some_and(|w| w >> (b % 64) & 1 == 1)
    }
}

fn heads_of(body: &Body) -> Vec<Head> {
    let n = body.blocks.len();
    if n == 0 {
        return Vec::new();
    }
    let succ: Vec<Vec<u32>> = (0..n).map(|b| block_successors(body, b)).collect();
    let pred = predecessors(body);
    // Depth-first walk: 0 unseen, 1 on the stack, 2 done.
    let mut color = vec![0u8; n];
    let mut back: Vec<(u32, u32)> = Vec::new(); // (source, head)
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    color[0] = 1;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&s) = succ[b].get(*next) {
            *next += 1;
            let s = s as usize;
            if s >= n {
                continue;
            }
            match color[s] {
                0 => {
                    color[s] = 1;
                    stack.push((s, 0));
                }
                1 => back.push((b as u32, s as u32)),
                _ => {}
            }
        } else {
            color[b] = 2;
            stack.pop();
        }
    }
    let mut heads: Vec<u32> = back.iter().map(|&(_, h)| h).collect();
    heads.sort_unstable();
    heads.dedup();
    heads
        .into_iter()
        .map(|h| {
            let mut body_bits = vec![0u64; n.div_ceil(64)];
            let set = |bits: &mut Vec<u64>, b: u32| {
                let (w, m) = (b as usize / 64, 1u64 << (b % 64));
                let new = bits[w] & m == 0;
                bits[w] |= m;
                new
            };
            set(&mut body_bits, h);
            let mut work: Vec<u32> = back
                .iter()
                .filter(|&&(_, hh)| hh == h)
                .map(|&(s, _)| s)
                .collect();
            while let Some(b) = work.pop() {
                if set(&mut body_bits, b) {
                    work.extend(pred[b as usize].iter().copied());
                }
            }
            let blk = &body.blocks[h as usize];
            let mut entry_pc = blk.first;
            while entry_pc < blk.first + blk.len
                && matches!(body.insts[entry_pc as usize].op, Op::Phi { .. })
            {
                entry_pc += 1;
            }
            Head {
                block: h,
                entry_pc,
                body: body_bits,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use symtest_ir::{Block, Inst, Loc, Operand};

    fn inst(op: Op) -> Inst {
        Inst {
            op,
            dest: None,
            loc: Loc::default(),
        }
    }

    /// Blocks of one or more instructions (the last one the terminator).
    fn body(blocks: Vec<Vec<Op>>) -> Body {
        let mut b = Body {
            num_regs: 1,
            blocks: Vec::new(),
            insts: Vec::new(),
        };
        for (i, ops) in blocks.into_iter().enumerate() {
            b.blocks.push(Block {
                name: format!("bb{i}"),
                first: b.insts.len() as u32,
                len: ops.len() as u32,
            });
            b.insts.extend(ops.into_iter().map(inst));
        }
        b
    }

    fn br(t: u32) -> Op {
        Op::Br { target: BlockId(t) }
    }

    fn cond(t: u32, f: u32) -> Op {
        Op::CondBr {
            cond: Operand::Reg(0),
            then_block: BlockId(t),
            else_block: BlockId(f),
        }
    }

    #[test]
    fn nested_loops_have_their_heads_and_natural_bodies() {
        // 0 → 1 (outer head, a phi first) → 2 (inner head) ⇄ 3; 2 → 4 → 1; 1 → 5 (exit).
        let b = body(vec![
            vec![br(1)],
            vec![
                Op::Phi {
                    incoming: vec![],
                    bits: 32,
                },
                cond(2, 5),
            ],
            vec![cond(3, 4)],
            vec![br(2)],
            vec![br(1)],
            vec![Op::Ret { value: None }],
        ]);
        let loops = Loops {
            per_fn: vec![heads_of(&b)],
        };
        let f = FuncId(0);
        let (outer_entry, inner_entry) = (b.blocks[1].first + 1, b.blocks[2].first);
        assert!(loops.is_head_entry(f, BlockId(1), outer_entry));
        assert!(
            !loops.is_head_entry(f, BlockId(1), b.blocks[1].first),
            "after the phis"
        );
        assert!(loops.is_head_entry(f, BlockId(2), inner_entry));
        for blk in [0, 3, 4, 5] {
            let first = b.blocks[blk as usize].first;
            assert!(!loops.is_head_entry(f, BlockId(blk), first), "bb{blk}");
        }
        let inside = |head, blk| loops.in_body(f, head, BlockId(blk));
        assert_eq!(
            (0..6).filter(|&x| inside(1, x)).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert_eq!((0..6).filter(|&x| inside(2, x)).collect::<Vec<_>>(), [2, 3]);
        assert!(!loops.in_body(f, 0, BlockId(0)), "no loop at the entry");
    }
}
