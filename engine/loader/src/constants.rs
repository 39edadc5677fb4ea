//! Constants: the deduplicated constants table, folding of constant expressions,
//! flattening of aggregate constants and global initializers into byte images.

use std::hash::{Hash, Hasher};

use symtest_ir::{BinOp, Bits, ConstId, ConstOp, Constant};

use crate::llvm::{Opcode, Ty, TyKind, VKind, Val};
use crate::module::Cx;

/// Nesting limit for aliases, constant expressions and aggregates.
const MAX_DEPTH: u32 = 200;

/// A [`Constant`] usable as a hash key (the IR type does not derive `Hash`).
#[derive(PartialEq, Eq)]
pub(crate) struct ConstKey(Constant);

impl Hash for ConstKey {
    fn hash<H: Hasher>(&self, h: &mut H) {
        std::mem::discriminant(&self.0).hash(h);
        match &self.0 {
            Constant::Int(b) => b.hash(h),
            Constant::Undef { bits } => bits.hash(h),
            Constant::GlobalAddr { global, offset } => (global, offset).hash(h),
            Constant::FuncAddr(f) => f.hash(h),
            Constant::Aggregate { bits, pieces } => (bits, pieces).hash(h),
            Constant::Expr { op, args, bits } => (op, args, bits).hash(h),
        }
    }
}

/// A little-endian memory image under construction, with address-valued pieces
/// recorded as relocations (bit offset, constant, width in bits).
pub(crate) struct Image {
    pub(crate) bytes: Vec<u8>,
    pub(crate) relocs: Vec<(u64, ConstId, u32)>,
}

impl Image {
    pub(crate) fn new(bytes: u64) -> Image {
        Image {
            bytes: vec![0; bytes as usize],
            relocs: Vec::new(),
        }
    }

    /// ORs `v` into the image at bit offset `at` (bits past the end are dropped).
    pub(crate) fn put(&mut self, at: u64, v: &Bits) {
        let shift = (at % 8) as u32;
        let base = at / 8;
        for (j, byte) in v.to_bytes_le().into_iter().enumerate() {
            let idx = base + j as u64;
            let wide = (byte as u16) << shift;
            if let Some(b) = self.bytes.get_mut(idx as usize) {
                *b |= wide as u8;
            }
            if shift != 0 {
                if let Some(b) = self.bytes.get_mut(idx as usize + 1) {
                    *b |= (wide >> 8) as u8;
                }
            }
        }
    }

    fn put_bytes(&mut self, at: u64, data: &[u8]) {
        if at % 8 == 0 {
            let start = (at / 8) as usize;
            if start < self.bytes.len() {
                let end = (start + data.len()).min(self.bytes.len());
                for (d, s) in self.bytes[start..end].iter_mut().zip(data) {
                    *d |= *s;
                }
            }
        } else {
            for (j, b) in data.iter().enumerate() {
                self.put(at + 8 * j as u64, &Bits::from_u64(8, *b as u64));
            }
        }
    }

    /// The bytes and byte-offset relocations of a global of `size` bytes.
    pub(crate) fn into_global_init(mut self, size: u64) -> (Vec<u8>, Vec<(u64, ConstId, u32)>) {
        self.bytes.resize(size as usize, 0);
        let relocs = self
            .relocs
            .iter()
            .filter(|(off, _, _)| off % 8 == 0 && off / 8 < size)
            .map(|&(off, c, bits)| (off / 8, c, bits.div_ceil(8)))
            .collect();
        (self.bytes, relocs)
    }
}

impl<'m> Cx<'m> {
    /// Adds a constant to the table, or finds the identical one already there.
    pub(crate) fn intern(&mut self, c: Constant) -> ConstId {
        let key = ConstKey(c);
        if let Some(&id) = self.dedup.get(&key) {
            return id;
        }
        let id = ConstId(self.constants.len() as u32);
        self.constants.push(key.0.clone());
        self.dedup.insert(key, id);
        id
    }

    /// The table entry of an LLVM constant (global, function, expression, literal).
    pub(crate) fn lower_const(&mut self, v: Val<'m>) -> Result<ConstId, String> {
        self.lower_const_at(v, 0)
    }

    fn lower_const_at(&mut self, v: Val<'m>, depth: u32) -> Result<ConstId, String> {
        if let Some(&id) = self.const_cache.get(&v) {
            return Ok(id);
        }
        let c = self.value(v, depth)?;
        let id = self.intern(c);
        self.const_cache.insert(v, id);
        Ok(id)
    }

    /// The value of an LLVM constant, folded as far as the loader can.
    pub(crate) fn value(&mut self, v: Val<'m>, depth: u32) -> Result<Constant, String> {
        if let Some(&id) = self.const_cache.get(&v) {
            return Ok(self.constants[id.0 as usize].clone());
        }
        if depth > MAX_DEPTH {
            return Err("constant nested too deeply".into());
        }
        let ty = v.ty();
        match v.kind() {
            VKind::ConstInt => Ok(Constant::Int(self.int_bits(v)?)),
            VKind::ConstFP => Ok(Constant::Int(fp_bits(v)?)),
            VKind::Null => Ok(Constant::Int(Bits::zero(64))),
            VKind::Undef | VKind::Poison => Ok(Constant::Undef {
                bits: self.bits_or_err(ty)?,
            }),
            VKind::GlobalVariable => self
                .globals
                .get(&v)
                .map(|&g| Constant::GlobalAddr {
                    global: g,
                    offset: 0,
                })
                .ok_or_else(|| "address of a global of another module".into()),
            VKind::Function => self
                .funcs
                .get(&v)
                .map(|&f| Constant::FuncAddr(f))
                .ok_or_else(|| "address of a function of another module".into()),
            VKind::GlobalAlias => {
                let target = v.aliasee().ok_or("alias without aliasee")?;
                self.value(target, depth + 1)
            }
            VKind::GlobalIFunc => Err(format!("ifunc `{}`", v.name())),
            VKind::BlockAddress => {
                let (f, b) = v.block_address().ok_or("blockaddress without a block")?;
                let fid = *self
                    .funcs
                    .get(&f)
                    .ok_or("blockaddress of a function of another module")?;
                let index = f
                    .blocks()
                    .iter()
                    .position(|x| *x == b)
                    .ok_or("blockaddress of a block outside its function")?;
                let block =
                    symtest_ir::BlockId(u32::try_from(index).map_err(|_| "too many blocks")?);
                Ok(Constant::Int(Bits::from_u64(
                    64,
                    symtest_ir::block_address(fid, block),
                )))
            }
            VKind::ConstExpr => self.const_expr(v, depth),
            VKind::AggregateZero
            | VKind::ConstArray
            | VKind::ConstStruct
            | VKind::ConstVector
            | VKind::DataArray
            | VKind::DataVector => {
                let bits = self.bits_or_err(ty)?;
                let mut img = Image::new(bits.div_ceil(8) as u64);
                self.flatten(v, 0, &mut img, depth + 1)?;
                Ok(self.image_constant(img, bits))
            }
            VKind::Metadata => Err("metadata operand".into()),
            VKind::InlineAsm => Err("inline asm operand".into()),
            VKind::BasicBlock => Err("basic block operand".into()),
            VKind::Argument | VKind::Instruction => Err("non-constant value".into()),
            VKind::Other => Err(format!("constant `{}`", v.print())),
        }
    }

    /// The value of a `ConstantInt` of any width.
    pub(crate) fn int_bits(&self, v: Val<'m>) -> Result<Bits, String> {
        let Some(TyKind::Int(w)) = v.ty().map(|t| t.kind()) else {
            return Err("integer constant of non-integer type".into());
        };
        if w == 0 {
            return Err("zero-width integer".into());
        }
        if w <= 64 {
            return v
                .const_int_u64()
                .map(|x| Bits::from_u64(w, x))
                .ok_or_else(|| "not an integer constant".into());
        }
        let text = v.print();
        parse_decimal(w, text.rsplit(' ').next().unwrap_or(""))
            .ok_or_else(|| format!("unreadable integer constant `{text}`"))
    }

    /// A constant index (sign-extended to 64 bits); undef counts as 0.
    pub(crate) fn const_index(&self, v: Val<'m>) -> Option<i64> {
        match v.kind() {
            VKind::ConstInt => self.int_bits(v).ok().map(|b| b.to_i64()),
            VKind::Undef | VKind::Poison | VKind::AggregateZero
                if matches!(v.ty()?.kind(), TyKind::Int(_)) =>
            {
                Some(0)
            }
            _ => None,
        }
    }

    /// Turns a finished image into an `Int` (no addresses) or an `Aggregate`.
    fn image_constant(&mut self, img: Image, bits: u32) -> Constant {
        if img.relocs.is_empty() {
            return if bits == 0 {
                Constant::Aggregate {
                    bits: 0,
                    pieces: Vec::new(),
                }
            } else {
                Constant::Int(Bits::from_bytes_le(bits, &img.bytes))
            };
        }
        let mut covered = vec![false; img.bytes.len()];
        let mut pieces = Vec::new();
        for &(off, c, w) in &img.relocs {
            let (lo, hi) = ((off / 8) as usize, (off + w as u64).div_ceil(8) as usize);
            for flag in covered.iter_mut().take(hi).skip(lo) {
                *flag = true;
            }
            pieces.push((off as u32, c));
        }
        let mut i = 0;
        while i < img.bytes.len() {
            if covered[i] || img.bytes[i] == 0 {
                i += 1;
                continue;
            }
            let start = i;
            while i < img.bytes.len() && !covered[i] {
                i += 1;
            }
            let mut end = i;
            while end > start && img.bytes[end - 1] == 0 {
                end -= 1;
            }
            let run = &img.bytes[start..end];
            let c = self.intern(Constant::Int(Bits::from_bytes_le(
                8 * run.len() as u32,
                run,
            )));
            pieces.push((8 * start as u32, c));
        }
        pieces.sort();
        Constant::Aggregate { bits, pieces }
    }

    /// Writes constant `v` into `img` at bit offset `at`.
    pub(crate) fn flatten(
        &mut self,
        v: Val<'m>,
        at: u64,
        img: &mut Image,
        depth: u32,
    ) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err("constant nested too deeply".into());
        }
        let ty = v.ty().ok_or("constant without a type")?;
        match v.kind() {
            VKind::Undef | VKind::Poison | VKind::AggregateZero | VKind::Null => Ok(()),
            VKind::ConstInt | VKind::ConstFP => {
                let b = match v.kind() {
                    VKind::ConstInt => self.int_bits(v)?,
                    _ => fp_bits(v)?,
                };
                img.put(at, &b);
                Ok(())
            }
            VKind::ConstStruct => {
                for i in 0..ty.struct_len() {
                    let off = self.layout.field_offset(ty, i).ok_or("bad struct field")?;
                    let e = v.aggregate_element(i).ok_or("missing struct element")?;
                    self.flatten(e, at + 8 * off, img, depth + 1)?;
                }
                Ok(())
            }
            VKind::ConstArray | VKind::DataArray | VKind::ConstVector | VKind::DataVector => {
                if let Some(data) = v.i8_data() {
                    img.put_bytes(at, &data);
                    return Ok(());
                }
                let stride = self.elem_stride(ty)?;
                for i in 0..ty.len() {
                    let i = u32::try_from(i).map_err(|_| "array too large")?;
                    let e = v.aggregate_element(i).ok_or("missing array element")?;
                    self.flatten(e, at + stride * i as u64, img, depth + 1)?;
                }
                Ok(())
            }
            _ => {
                let c = self.value(v, depth + 1)?;
                match c {
                    Constant::Int(b) => img.put(at, &b),
                    Constant::Undef { .. } => {}
                    other => {
                        let bits = self.bits_or_err(Some(ty))?;
                        let id = self.intern(other);
                        img.relocs.push((at, id, bits));
                    }
                }
                Ok(())
            }
        }
    }

    /// Distance in bits between consecutive elements of an array or vector type.
    fn elem_stride(&self, t: Ty<'m>) -> Result<u64, String> {
        let e = t.elem().ok_or("sequence without element type")?;
        match t.kind() {
            TyKind::Vector => self.bits_or_err(Some(e)).map(u64::from),
            _ => Ok(8 * self.alloc_size(Some(e))?),
        }
    }

    fn const_expr(&mut self, v: Val<'m>, depth: u32) -> Result<Constant, String> {
        use Opcode::*;
        let op = v.opcode().ok_or("constant expression without opcode")?;
        let a = v.operand(0).ok_or("constant expression without operand")?;
        let to = self.bits_or_err(v.ty())?;
        match op {
            LLVMGetElementPtr => self.const_gep(v, depth),
            LLVMBitCast | LLVMAddrSpaceCast => self.value(a, depth + 1),
            LLVMTrunc | LLVMZExt | LLVMSExt | LLVMPtrToInt | LLVMIntToPtr => {
                let from = self.bits_or_err(a.ty())?;
                let x = self.value(a, depth + 1)?;
                Ok(self.int_cast(op, x, from, to))
            }
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl
            | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor => {
                let b = v
                    .operand(1)
                    .ok_or("binary constant expression without operand")?;
                let x = self.value(a, depth + 1)?;
                let y = self.value(b, depth + 1)?;
                Ok(self.const_bin(bin_op(op).ok_or("bad opcode")?, x, y, to))
            }
            other => Err(format!(
                "{} constant expression",
                crate::instructions::mnemonic(other)
            )),
        }
    }

    /// An integer cast (trunc/zext/sext/ptrtoint/inttoptr) of a constant.
    fn int_cast(&mut self, op: Opcode, x: Constant, from: u32, to: u32) -> Constant {
        let kind = match op {
            Opcode::LLVMSExt if to > from => ConstOp::SExt,
            _ if to > from => ConstOp::ZExt,
            _ if to < from => ConstOp::Trunc,
            _ => return x,
        };
        match (&x, kind) {
            (Constant::Int(b), ConstOp::SExt) if b.width() == from => Constant::Int(b.sext(to)),
            (Constant::Int(b), ConstOp::ZExt) if b.width() == from => Constant::Int(b.zext(to)),
            (Constant::Int(b), ConstOp::Trunc) if b.width() == from && to > 0 => {
                Constant::Int(b.trunc(to))
            }
            (Constant::Undef { .. }, _) => Constant::Undef { bits: to },
            _ => {
                let id = self.intern(x);
                Constant::Expr {
                    op: kind,
                    args: vec![id],
                    bits: to,
                }
            }
        }
    }

    /// A binary operation on constants, folded where possible (including address
    /// plus/minus integer, and the difference of two addresses in one global).
    pub(crate) fn const_bin(&mut self, op: BinOp, x: Constant, y: Constant, bits: u32) -> Constant {
        use Constant::*;
        match (&x, &y) {
            (Int(a), Int(b)) if a.width() == b.width() => return Int(fold_bin(op, a, b)),
            (Undef { .. }, _) | (_, Undef { .. }) => return Undef { bits },
            _ => {}
        }
        if bits == 64 {
            match (op, &x, &y) {
                (BinOp::Add, GlobalAddr { global, offset }, Int(c))
                | (BinOp::Add, Int(c), GlobalAddr { global, offset }) => {
                    return GlobalAddr {
                        global: *global,
                        offset: offset.wrapping_add(c.to_i64()),
                    }
                }
                (BinOp::Sub, GlobalAddr { global, offset }, Int(c)) => {
                    return GlobalAddr {
                        global: *global,
                        offset: offset.wrapping_sub(c.to_i64()),
                    }
                }
                (
                    BinOp::Sub,
                    GlobalAddr {
                        global: g,
                        offset: a,
                    },
                    GlobalAddr {
                        global: h,
                        offset: b,
                    },
                ) if g == h => return Int(Bits::from_i64(64, a.wrapping_sub(*b))),
                (BinOp::Add | BinOp::Sub, _, Int(c)) if c.is_zero() => return x,
                _ => {}
            }
        }
        let args = vec![self.intern(x), self.intern(y)];
        Expr {
            op: ConstOp::Bin(op),
            args,
            bits,
        }
    }

    /// A `getelementptr` constant expression.
    fn const_gep(&mut self, v: Val<'m>, depth: u32) -> Result<Constant, String> {
        if v.ty().map(|t| t.kind()) == Some(TyKind::Vector) {
            return Err("vector getelementptr constant".into());
        }
        let base = v.operand(0).ok_or("getelementptr without base")?;
        let src = v.gep_source_type().ok_or("getelementptr without type")?;
        let indices: Vec<_> = (1..v.num_operands()).filter_map(|i| v.operand(i)).collect();
        let walk = self.gep_walk(src, &indices)?;
        let mut acc = self.value(base, depth + 1)?;
        for (idx, idx_bits, scale) in walk.terms {
            let x = self.value(idx, depth + 1)?;
            let x = self.int_cast(Opcode::LLVMSExt, x, idx_bits, 64);
            let term = self.const_bin(BinOp::Mul, x, Constant::Int(Bits::from_i64(64, scale)), 64);
            acc = self.const_bin(BinOp::Add, acc, term, 64);
        }
        Ok(self.const_bin(
            BinOp::Add,
            acc,
            Constant::Int(Bits::from_i64(64, walk.offset)),
            64,
        ))
    }

    /// Walks the indices of a GEP over source element type `src`: constant indices
    /// are summed into `offset`, variable ones become (index, index bits, scale).
    pub(crate) fn gep_walk(&self, src: Ty<'m>, indices: &[Val<'m>]) -> Result<GepWalk<'m>, String> {
        let mut walk = GepWalk {
            offset: 0,
            terms: Vec::new(),
        };
        let mut cur = src;
        for (k, &idx) in indices.iter().enumerate() {
            let (scale, next) = if k == 0 {
                (self.alloc_size(Some(src))?, src)
            } else {
                match cur.kind() {
                    TyKind::Struct => {
                        let field = self
                            .const_index(idx)
                            .and_then(|i| u32::try_from(i).ok())
                            .ok_or("getelementptr with a non-constant struct index")?;
                        let off = self
                            .layout
                            .field_offset(cur, field)
                            .ok_or("getelementptr past the fields of a struct")?;
                        walk.offset = walk.offset.wrapping_add(off as i64);
                        cur = cur.field(field).ok_or("bad struct field")?;
                        continue;
                    }
                    TyKind::Array | TyKind::Vector => {
                        let e = cur.elem().ok_or("sequence without element type")?;
                        (self.alloc_size(Some(e))?, e)
                    }
                    _ => return Err("getelementptr into a non-aggregate type".into()),
                }
            };
            let scale = scale as i64;
            if let Some(i) = self.const_index(idx) {
                walk.offset = walk.offset.wrapping_add(i.wrapping_mul(scale));
            } else {
                match idx.ty().map(|t| t.kind()) {
                    Some(TyKind::Int(w)) => walk.terms.push((idx, w, scale)),
                    _ => return Err("vector getelementptr".into()),
                }
            }
            cur = next;
        }
        Ok(walk)
    }
}

/// The result of [`Cx::gep_walk`].
pub(crate) struct GepWalk<'m> {
    pub(crate) offset: i64,
    pub(crate) terms: Vec<(Val<'m>, u32, i64)>,
}

pub(crate) fn bin_op(op: Opcode) -> Option<BinOp> {
    use Opcode::*;
    Some(match op {
        LLVMAdd => BinOp::Add,
        LLVMSub => BinOp::Sub,
        LLVMMul => BinOp::Mul,
        LLVMUDiv => BinOp::UDiv,
        LLVMSDiv => BinOp::SDiv,
        LLVMURem => BinOp::URem,
        LLVMSRem => BinOp::SRem,
        LLVMShl => BinOp::Shl,
        LLVMLShr => BinOp::LShr,
        LLVMAShr => BinOp::AShr,
        LLVMAnd => BinOp::And,
        LLVMOr => BinOp::Or,
        LLVMXor => BinOp::Xor,
        _ => return None,
    })
}

fn fold_bin(op: BinOp, a: &Bits, b: &Bits) -> Bits {
    match op {
        BinOp::Add => a.add(b),
        BinOp::Sub => a.sub(b),
        BinOp::Mul => a.mul(b),
        BinOp::UDiv => a.udiv(b),
        BinOp::SDiv => a.sdiv(b),
        BinOp::URem => a.urem(b),
        BinOp::SRem => a.srem(b),
        BinOp::Shl => a.shl(b),
        BinOp::LShr => a.lshr(b),
        BinOp::AShr => a.ashr(b),
        BinOp::And => a.and(b),
        BinOp::Or => a.or(b),
        BinOp::Xor => a.xor(b),
    }
}

/// Parses a (possibly negative) decimal integer into `width` bits.
pub(crate) fn parse_decimal(width: u32, s: &str) -> Option<Bits> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    match digits {
        "true" if !neg => return Some(Bits::from_u64(width, 1)),
        "false" if !neg => return Some(Bits::zero(width)),
        _ => {}
    }
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let ten = Bits::from_u64(width, 10);
    let mut acc = Bits::zero(width);
    for c in digits.bytes() {
        acc = acc.mul(&ten).add(&Bits::from_u64(width, (c - b'0') as u64));
    }
    Some(if neg { acc.neg() } else { acc })
}

/// The IEEE (or x86 extended) bit pattern of a `ConstantFP`.
pub(crate) fn fp_bits(v: Val<'_>) -> Result<Bits, String> {
    let kind = v.ty().map(|t| t.kind());
    let d = v.const_fp_double().ok_or("not a floating-point constant")?;
    match kind {
        Some(TyKind::Float) => return Ok(Bits::from_u64(32, (d as f32).to_bits() as u64)),
        Some(TyKind::Double) => return Ok(Bits::from_u64(64, d.to_bits())),
        _ => {}
    }
    // Other formats: LLVM prints them as hex with a format letter
    // (`0xK` x86_fp80 sign/exponent first, `0xH` half, `0xR` bfloat, `0xL`/`0xM`
    // fp128/ppc_fp128 low word first).
    let text = v.print();
    let tok = text.rsplit(' ').next().unwrap_or("");
    let hex = |s: &str| u128::from_str_radix(s, 16).ok();
    let parsed = match (kind, tok.get(..3), tok.get(3..)) {
        (Some(TyKind::X86Fp80), Some("0xK"), Some(h)) if h.len() == 20 => {
            hex(h).map(|x| Bits::from_u128(80, x))
        }
        (Some(TyKind::Half), Some("0xH"), Some(h))
        | (Some(TyKind::BFloat), Some("0xR"), Some(h))
            if h.len() == 4 =>
        {
            hex(h).map(|x| Bits::from_u128(16, x))
        }
        (Some(TyKind::Fp128), Some("0xL"), Some(h))
        | (Some(TyKind::PpcFp128), Some("0xM"), Some(h))
            if h.len() == 32 =>
        {
            match (h.get(..16).and_then(hex), h.get(16..).and_then(hex)) {
                (Some(lo), Some(hi)) => Some(Bits::from_u128(128, (hi << 64) | lo)),
                _ => None,
            }
        }
        _ => None,
    };
    parsed.ok_or_else(|| format!("unreadable floating-point constant `{text}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_parsing_wraps_to_width() {
        assert_eq!(parse_decimal(128, "5"), Some(Bits::from_u64(128, 5)));
        assert_eq!(
            parse_decimal(128, "-1"),
            Some(Bits::ones(128)),
            "negative values are two's complement"
        );
        let big = parse_decimal(128, "5902958103587056517120").unwrap(); // 5 << 70
        assert_eq!(big.to_u128(), 5u128 << 70);
        assert_eq!(parse_decimal(8, "256"), Some(Bits::zero(8)));
        assert_eq!(parse_decimal(1, "true"), Some(Bits::from_u64(1, 1)));
        assert_eq!(parse_decimal(64, ""), None);
        assert_eq!(parse_decimal(64, "12a"), None);
        assert_eq!(parse_decimal(64, "-"), None);
    }

    #[test]
    fn image_put_handles_unaligned_and_out_of_range_bits() {
        let mut img = Image::new(3);
        img.put(0, &Bits::from_u64(1, 1));
        img.put(3, &Bits::from_u64(8, 0xff));
        assert_eq!(img.bytes, vec![0xf9, 0x07, 0]);
        img.put(16, &Bits::from_u64(32, 0x1234_5678)); // only the low byte fits
        assert_eq!(img.bytes, vec![0xf9, 0x07, 0x78]);
        img.put(1000, &Bits::from_u64(8, 1)); // entirely outside: ignored
        img.put_bytes(8, b"\x10");
        assert_eq!(img.bytes, vec![0xf9, 0x17, 0x78]);
        img.put_bytes(4, b"\x0f");
        assert_eq!(img.bytes, vec![0xf9, 0x17, 0x78]);
        let (bytes, relocs) = img.into_global_init(4);
        assert_eq!(bytes, vec![0xf9, 0x17, 0x78, 0]);
        assert!(relocs.is_empty());
    }

    #[test]
    fn const_keys_hash_by_value() {
        use std::collections::HashSet;
        let mut set = HashSet::new();
        assert!(set.insert(ConstKey(Constant::Int(Bits::from_u64(32, 1)))));
        assert!(!set.insert(ConstKey(Constant::Int(Bits::from_u64(32, 1)))));
        assert!(set.insert(ConstKey(Constant::Int(Bits::from_u64(64, 1)))));
        assert!(set.insert(ConstKey(Constant::Undef { bits: 32 })));
    }
}
