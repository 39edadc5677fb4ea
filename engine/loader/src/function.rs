//! Function bodies: blocks, register numbering and operands.

use rustc_hash::FxHashMap;
use symtest_ir::{Block as IrBlock, BlockId, Body, Inst, Loc, Operand, Reg};

use crate::instructions::lower_inst;
use crate::llvm::{Block, TyKind, VKind, Val};
use crate::module::Cx;

/// Per-function lowering state: registers of arguments and instructions, block ids.
pub(crate) struct FnCx<'m> {
    pub(crate) regs: FxHashMap<Val<'m>, Reg>,
    pub(crate) blocks: FxHashMap<Block<'m>, BlockId>,
    /// The function's id (for `indirectbr`'s block addresses).
    pub(crate) id: Option<symtest_ir::FuncId>,
}

impl<'m> FnCx<'m> {
    /// An operand: a register for arguments and instructions, a constants-table
    /// entry for everything constant.
    pub(crate) fn operand(&self, cx: &mut Cx<'m>, v: Val<'m>) -> Result<Operand, String> {
        match v.kind() {
            VKind::Argument | VKind::Instruction => self
                .regs
                .get(&v)
                .map(|&r| Operand::Reg(r))
                .ok_or_else(|| "operand defined in another function".into()),
            _ => cx.lower_const(v).map(Operand::Const),
        }
    }

    /// The id of a block of this function.
    pub(crate) fn block(&self, b: Option<Block<'m>>) -> Result<BlockId, String> {
        b.and_then(|b| self.blocks.get(&b).copied())
            .ok_or_else(|| "branch to a block outside the function".into())
    }
}

/// Lowers the body of a defined function; `floc` is the function's location.
pub(crate) fn lower_body<'m>(cx: &mut Cx<'m>, f: Val<'m>, floc: Loc) -> Body {
    let mut fcx = FnCx {
        regs: FxHashMap::default(),
        blocks: FxHashMap::default(),
        id: cx.funcs.get(&f).copied(),
    };
    let mut next: Reg = 0;
    for p in f.params() {
        fcx.regs.insert(p, next);
        next += 1;
    }
    let blocks = f.blocks();
    let block_insts: Vec<Vec<Val<'m>>> = blocks.iter().map(|b| b.instructions()).collect();
    for (i, b) in blocks.iter().enumerate() {
        fcx.blocks.insert(*b, BlockId(i as u32));
    }
    for insts in &block_insts {
        for &inst in insts {
            if inst.ty().is_some_and(|t| t.kind() != TyKind::Void) {
                fcx.regs.insert(inst, next);
                next += 1;
            }
        }
    }

    let mut out_blocks = Vec::with_capacity(blocks.len());
    let mut out_insts = Vec::new();
    for (i, (b, insts)) in blocks.iter().zip(&block_insts).enumerate() {
        let first = out_insts.len() as u32;
        for &inst in insts {
            let op = lower_inst(cx, &fcx, inst);
            out_insts.push(Inst {
                op,
                dest: fcx.regs.get(&inst).copied(),
                loc: cx.inst_loc(inst, floc.file),
            });
        }
        let mut name = b.name();
        if name.is_empty() {
            name = format!("bb{i}");
        }
        out_blocks.push(IrBlock {
            name,
            first,
            len: insts.len() as u32,
        });
    }
    Body {
        num_regs: next,
        blocks: out_blocks,
        insts: out_insts,
    }
}
