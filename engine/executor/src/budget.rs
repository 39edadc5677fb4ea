//! The run's limits inside long operations.
//!
//! The run loop checks `--max-time` every 64 instructions and the memory
//! cap's growth after every one, but one instruction or special function can do work
//! in proportion to a size the program chose: `make_symbolic` of 100,000,000
//! bytes (the POSIX model's `--sym-stdin 100000000`) built 100 M expressions
//! in one call, 5 GiB and minutes past a 5 s budget, and suspending or
//! resuming a few states that hold millions of symbolic bytes takes seconds.
//! Such operations ask [`Executor::long_op_limit`] every
//! [`LONG_OP_CHECK_EVERY`] units of work and stop when it answers.
//!
//! What a symbolic byte costs, [`SYMBOLIC_BYTE_COST`]: measured with a
//! harness that makes `N` bytes of a `malloc`ed buffer symbolic and ends
//! silently (`symtest_silent_exit`, so no test is solved), release build,
//! peak resident memory less the 28 MiB of a run with N = 1: 313 to 314
//! bytes per symbolic byte for N from 250,000 to 2,000,000 (the index
//! constant and the read of the array in the expression pool, their entries
//! in its memo table, and the byte's slot in the object), 245 at 3,000,000
//! (a memo table not yet filled). Without the pool's reservation
//! ([`Executor::reserve_for_symbolic`]) it was 419 to 423: the table doubled
//! as the bytes were made, the old and the new one resident at once. The
//! figure used, 320, is the typical cost; the messages say "about". The CLI
//! (`symtest_project::runtime::check_env_options`) refuses the POSIX
//! model's options by the same figure before the run starts.

use crate::executor::Executor;
use crate::state::State;
use crate::step::Stop;
use crate::termination::Termination;
use std::time::Instant;

/// Bytes of engine memory one symbolic byte typically takes (measured, see
/// the module comment).
pub const SYMBOLIC_BYTE_COST: u64 = 320;

/// Units of work (bytes, states) between two checks of the limits.
pub(crate) const LONG_OP_CHECK_EVERY: usize = 4096;

const MIB: u64 = 1024 * 1024;

impl Executor<'_> {
    /// Has `--max-time` passed?
    pub(crate) fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Asked inside an operation whose work grows with a size: the reason
    /// the run must stop now (`--max-time` passed, or the memory in use is
    /// above `--max-memory` with nothing to take out of memory while one
    /// operation runs), else `None`. A memory stop is recorded as the run's
    /// halt reason; a time stop is the run loop's next check anyway.
    pub(crate) fn long_op_limit(&mut self, what: &str) -> Option<String> {
        if let (Some(t), true) = (self.config.max_time, self.past_deadline()) {
            return Some(format!("--max-time {}s reached {what}", t.as_secs_f64()));
        }
        if self.completion_above_cap() {
            let cap = self.config.max_memory_mb.unwrap_or(0);
            let r = format!("--max-memory {cap} MiB is too small for this program: reached {what}");
            self.cap.too_small.get_or_insert(r.clone());
            return Some(r);
        }
        None
    }

    /// `make_symbolic` of `size` bytes named `name`: refused before anything
    /// is built when the bytes alone cannot fit under `--max-memory` (Err:
    /// the reason, also the run's halt reason).
    pub(crate) fn refuse_symbolic_size(&mut self, name: &str, size: u64) -> Result<(), String> {
        let Some(cap) = self.config.max_memory_mb else {
            return Ok(());
        };
        let need = size.saturating_mul(SYMBOLIC_BYTE_COST);
        if need <= cap.saturating_mul(MIB) {
            return Ok(());
        }
        let r = format!(
            "make_symbolic of `{name}` ({size} bytes) needs about {} MiB \
             (about {SYMBOLIC_BYTE_COST} bytes of engine memory per symbolic byte); \
             --max-memory is {cap} MiB",
            need.div_ceil(MIB)
        );
        self.cap.too_small.get_or_insert(r.clone());
        Err(r)
    }

    /// Before `make_symbolic` of `size` bytes: two nodes per byte (the
    /// index, the read) are reserved in the expression pool at once, so its
    /// memo table grows once instead of doubling as the bytes are made. A
    /// growth holds the old and the new table at once: when that would take
    /// the memory in use past the cap, the input is refused before it.
    pub(crate) fn reserve_for_symbolic(&mut self, name: &str, size: u64) -> Result<(), String> {
        if size < LONG_OP_CHECK_EVERY as u64 {
            return Ok(());
        }
        let nodes = (2 * size) as usize;
        if let Some(cap) = self.config.max_memory_mb {
            let table = self.pool.reserve_bytes(nodes) as f64 / MIB as f64;
            let used = self.memory_used();
            if used + table > cap as f64 {
                let r = format!(
                    "make_symbolic of `{name}` ({size} bytes) needs {table:.0} MiB more for the \
                     expression pool's table with {used:.0} MiB in use; --max-memory is {cap} MiB"
                );
                self.cap.too_small.get_or_insert(r.clone());
                return Err(r);
            }
        }
        self.pool.reserve(nodes);
        Ok(())
    }

    /// Ends the current state because a limit stopped the instruction it
    /// is in: the instruction is run again if the halted path is completed
    /// (where making input symbolic abandons the completion).
    pub(crate) fn stop_in_long_op(&mut self, st: &mut State, reason: String) -> Stop {
        let f = st.frame_mut();
        f.pc = f.cur;
        Stop::Terminate(Termination::Early(format!("halted: {reason}")))
    }
}
