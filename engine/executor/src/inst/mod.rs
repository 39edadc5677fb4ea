//! Instruction families, one file each.

pub mod aggregate;
pub mod arith;
pub mod atomics;
pub mod calls;
pub mod control;
pub mod float;
pub mod float_intrinsics;
pub mod fork;
pub mod intrinsics;
pub mod libm;
pub mod memory_ops;
pub mod stray;
pub mod strcmp;
