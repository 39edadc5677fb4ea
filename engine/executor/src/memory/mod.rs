//! Memory: objects, their per-state contents and the address space.

pub mod address_space;
pub mod bytes;
pub mod object;
pub mod pvec;
mod sym_bytes;

pub use address_space::{AddressSpace, GLOBAL_BASE, NULL_PAGE, REDZONE};
pub use object::{EngineObject, Label, MemoryObject, ObjKind, ObjectState};
