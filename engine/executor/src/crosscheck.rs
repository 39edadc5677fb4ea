//! Crosschecking two implementations (paper §5.5).
//!
//! The module holds both programs side by side (`symtest_loader::load_bitcode_pair`
//! renames every symbol of the second). A path runs the first program from its
//! entry to its end; at its exit the path goes on in the second program's entry,
//! with a fresh `argv` and environment (its own C library and POSIX model start
//! from their initial globals, so its files and stdin are fresh copies). The
//! second program's POSIX model makes the same symbolic inputs in the same order:
//! each `make_symbolic` of the second run takes the first run's object of that
//! name and size instead of a new one, so both programs read the same input.
//! At the second exit the pair of paths is compared under the path condition:
//! exit status and standard output, byte for byte. Either the solver proves
//! them equal (the pair is proven equivalent) or it gives an input on which
//! they differ: that input is the pair's test, a `mismatch` error.
//!
//! A pair whose first path ends otherwise (a bug, an engine limit) is not
//! compared: its end is reported as usual.

use crate::executor::Executor;
use crate::state::{Output, State};
use crate::step::{Exec, Stop};
use crate::suspend::wire::{Decoded, Pieces, Reader, Table, Writer};
use crate::termination::{ErrorKind, Termination};
use crate::value::{Ops, Value};
use symtest_expr::{ArrayId, BinOp, ExprId, ExprPool};
use symtest_ir::FuncId;

/// How the first program ended, kept while the path runs the second.
#[derive(Clone, Debug)]
pub struct SecondRun {
    /// The first program's exit status (low 8 bits, as a native parent sees it).
    first_exit: i64,
    first_stdout: Output,
    /// Symbolic objects the first run made; the second run's
    /// `make_symbolic` calls take them in this order.
    made: u32,
    /// How many of them the second run has taken.
    taken: u32,
}

impl SecondRun {
    /// Writes the first run's end for suspension.
    pub(crate) fn encode(&self, w: &mut Writer, t: &mut Table<'_>) {
        w.u64(self.first_exit as u64);
        self.first_stdout.encode(w, t);
        w.u32(self.made);
        w.u32(self.taken);
    }

    pub(crate) fn decode(
        r: &mut Reader<'_>,
        p: &mut Pieces<'_>,
        pool: &ExprPool,
    ) -> Decoded<SecondRun> {
        Ok(SecondRun {
            first_exit: r.u64()? as i64,
            first_stdout: Output::decode(r, p, pool)?,
            made: r.u32()?,
            taken: r.u32()?,
        })
    }

    /// The same first run, the same input taken (states that may merge).
    pub(crate) fn same_as(&self, other: &SecondRun) -> bool {
        self.first_exit == other.first_exit
            && (self.made, self.taken) == (other.made, other.taken)
            && self.first_stdout.same_as(&other.first_stdout)
    }
}

impl Executor<'_> {
    /// The second program's entry, when crosschecking.
    pub(crate) fn cross_entry(&self) -> Option<FuncId> {
        let (name, _) = self.config.crosscheck.as_ref()?;
        self.module.function_by_name(name)
    }

    /// A path ended with `code`: when crosschecking, the first program's end
    /// starts the second (`Ok(None)`: the path goes on), the second's ends
    /// the pair with its comparison. Without crosschecking, the exit itself.
    pub(crate) fn cross_exit(&mut self, st: &mut State, code: i64) -> Exec<Option<Termination>> {
        let Some(entry) = self.cross_entry() else {
            return Ok(Some(Termination::Exit(code)));
        };
        if st.cross.is_some() {
            return self.compare_pair(st, code).map(Some);
        }
        while let Some(f) = st.stack.pop() {
            st.memory.release_frame(&f.allocas, f.varargs);
        }
        st.cross = Some(Box::new(SecondRun {
            first_exit: code & 0xff,
            first_stdout: std::mem::take(&mut st.stdout),
            made: st.symbolics.len() as u32,
            taken: 0,
        }));
        st.errno_obj = None;
        st.error_suffix = None;
        st.jmp_targets.clear();
        st.aliases.clear();
        st.forking_disabled = false;
        let argv = self
            .config
            .crosscheck
            .as_ref()
            .map(|(_, argv)| argv.clone())
            .unwrap_or_default();
        let frame = self.entry_frame(&mut st.memory, entry, &argv);
        st.stack.push(std::rc::Rc::new(frame));
        Ok(None)
    }

    /// The second run's `make_symbolic` of `name` (`size` bytes): the first
    /// run's object it stands for, in creation order (`None`: not
    /// crosschecking, or input only the second run makes).
    pub(crate) fn cross_input(
        &mut self,
        st: &mut State,
        name: &str,
        size: u32,
    ) -> Exec<Option<ArrayId>> {
        let Some(run) = st.cross.as_mut() else {
            return Ok(None);
        };
        if run.taken >= run.made {
            return Ok(None);
        }
        let first = &st.symbolics[run.taken as usize];
        if first.name != name || first.size != size {
            return Err(Stop::error(
                ErrorKind::Model,
                format!(
                    "crosscheck: the second program made input `{name}` ({size} bytes) where the first made `{}` ({} bytes); the two do not run in one environment",
                    first.name, first.size
                ),
            ));
        }
        run.taken += 1;
        Ok(Some(first.array))
    }

    /// Compares the pair at the second program's exit (`code`): the exit, or
    /// a `mismatch` error with inputs on which the outputs differ.
    fn compare_pair(&mut self, st: &mut State, code: i64) -> Exec<Termination> {
        let run = st.cross.take().expect("second run");
        self.stats.crosscheck_pairs += 1;
        let second = code & 0xff;
        let first_cells = run.first_stdout.cells();
        let second_cells = st.stdout.cells();
        let differ = if run.first_exit != second || first_cells.len() != second_cells.len() {
            Value::from_bool(true)
        } else {
            let mut any = Value::from_bool(false);
            for (a, b) in first_cells.iter().zip(&second_cells) {
                let (a, b) = (self.cell_value(a), self.cell_value(b));
                let eq = self.eq_value(&a, &b);
                let ne = Ops::not(&mut self.pool, &eq);
                any = Ops::bin(&mut self.pool, BinOp::Or, &any, &ne);
            }
            any
        };
        let Some(model) = self.witness(st, &differ)? else {
            self.stats.crosscheck_equal += 1;
            return Ok(Termination::Exit(code));
        };
        self.add_constraint(st, &differ);
        let model = match model {
            Some(m) => {
                st.model = Some(m.clone());
                m
            }
            None => self.model(st)?,
        };
        self.stats.crosscheck_mismatches += 1;
        let message = mismatch_message(
            (run.first_exit, &run.first_stdout),
            (second, &st.stdout),
            |e| self.pool.eval(e, &model).to_u64() as u8,
        );
        Ok(Termination::Error(ErrorKind::Mismatch, message))
    }

    fn cell_value(&self, c: &Result<u8, ExprId>) -> Value {
        match c {
            Ok(b) => Value::from_u64(8, u64::from(*b)),
            Err(e) => Value::from_expr(&self.pool, *e),
        }
    }
}

/// `outputs differ: ...`: the two exit statuses, and where the standard
/// outputs first differ under the model (`eval`) with that line of each.
fn mismatch_message(
    first: (i64, &Output),
    second: (i64, &Output),
    mut eval: impl FnMut(ExprId) -> u8,
) -> String {
    let a = first.1.bytes(&mut eval);
    let b = second.1.bytes(&mut eval);
    let mut parts = Vec::new();
    if first.0 != second.0 {
        parts.push(format!("exit status {} against {}", first.0, second.0));
    }
    if let Some(at) = first_difference(&a, &b) {
        let line = a[..at].iter().filter(|&&c| c == b'\n').count() + 1;
        parts.push(format!(
            "standard output differs at byte {at} (line {line}): {} against {}",
            quoted_line(&a, at),
            quoted_line(&b, at)
        ));
    }
    if parts.is_empty() {
        // The model makes them differ only where the message cannot show it.
        parts.push("exit status or standard output".into());
    }
    format!("outputs differ: {}", parts.join("; "))
}

fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let common = a.iter().zip(b).position(|(x, y)| x != y);
    match common {
        Some(i) => Some(i),
        None if a.len() != b.len() => Some(a.len().min(b.len())),
        None => None,
    }
}

/// The line of `out` holding byte `at`, quoted (at most 80 characters);
/// `end of output` past its end.
fn quoted_line(out: &[u8], at: usize) -> String {
    if at >= out.len() {
        return "end of output".into();
    }
    let start = out[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let end = out[at..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(out.len(), |i| at + i);
    let line = String::from_utf8_lossy(&out[start..end.min(start + 80)]);
    format!("{:?}", line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_first_difference() {
        let a = Output::concrete(b"one\ntwo\n".to_vec());
        let b = Output::concrete(b"one\ntwx\n".to_vec());
        let m = mismatch_message((0, &a), (0, &b), |_| 0);
        assert_eq!(
            m,
            "outputs differ: standard output differs at byte 6 (line 2): \"two\" against \"twx\""
        );
        let c = Output::concrete(b"one\n".to_vec());
        let m = mismatch_message((0, &a), (1, &c), |_| 0);
        assert!(m.contains("exit status 0 against 1"), "{m}");
        assert!(m.contains("\"two\" against end of output"), "{m}");
    }

    #[test]
    fn first_difference_of_prefixes_is_the_shorter_length() {
        assert_eq!(first_difference(b"ab", b"abc"), Some(2));
        assert_eq!(first_difference(b"ab", b"ab"), None);
        assert_eq!(first_difference(b"xb", b"ab"), Some(0));
    }
}
