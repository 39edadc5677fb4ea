//! The program's environment: a fixed one, the same on every run and
//! machine, and the same the native replays give the program (the replay
//! runtime, `replay --native` and the emitted suites set exactly these), so
//! tests never depend on the machine they were made on. `main`'s `envp` and
//! the C library's `environ` (`__environ`) point at one array of it.

use crate::executor::Executor;
use crate::memory::{AddressSpace, EngineObject, Label, ObjKind, ObjectState};
use crate::value::Value;
use symtest_ir::Loc;

/// The variables every program sees, `NAME=value`: a home directory and a
/// working directory that are the POSIX model's (`getcwd` is `/symtest`), a
/// search path.
pub const PROGRAM_ENVIRONMENT: [&str; 3] = [
    "HOME=/symtest",
    "PATH=/usr/local/bin:/usr/bin:/bin",
    "PWD=/symtest",
];

/// The C library's names for its environment pointer.
const ENVIRON_NAMES: [&str; 3] = ["environ", "__environ", "_environ"];

impl Executor<'_> {
    /// Places the environment's strings and its NULL-terminated array in
    /// `memory`, points `environ` (if the module has it) at the array, and
    /// returns the array's address (`main`'s `envp`).
    pub(crate) fn install_environment(&mut self, memory: &mut AddressSpace) -> u64 {
        let mut ptrs = Vec::new();
        for v in PROGRAM_ENVIRONMENT {
            let mut bytes = v.as_bytes().to_vec();
            bytes.push(0);
            let obj = memory.allocate(
                bytes.len() as u64,
                16,
                ObjKind::Engine,
                Label::Engine(EngineObject::Envp),
                Loc::default(),
            );
            *memory.contents_mut(obj.base).expect("just allocated") =
                ObjectState::with_bytes(bytes);
            ptrs.push(obj.base);
        }
        let arr = memory.allocate(
            (ptrs.len() as u64 + 1) * 8,
            16,
            ObjKind::Engine,
            Label::Engine(EngineObject::Envp),
            Loc::default(),
        );
        let mut bytes = Vec::new();
        for p in ptrs.iter().chain(std::iter::once(&0)) {
            bytes.extend_from_slice(&p.to_le_bytes());
        }
        *memory.contents_mut(arr.base).expect("just allocated") = ObjectState::with_bytes(bytes);
        for (i, g) in self.module.globals.iter().enumerate() {
            if g.size == 8 && ENVIRON_NAMES.contains(&symtest_ir::plain_name(&g.name)) {
                if let Some(c) = memory.contents_mut(self.global_addrs[i]) {
                    c.write(&mut self.pool, 0, 8, &Value::from_u64(64, arr.base));
                }
            }
        }
        arr.base
    }
}
