//! Special functions the POSIX model (libc-models/posix) calls into the engine:
//! read-only access to host files, the end of the process, model warnings and
//! limitations, standard output; setjmp/longjmp; and `--external-calls concrete`, which runs a small allow-list of
//! pure functions natively on concretized arguments.

use crate::executor::Executor;
use crate::state::{JmpTarget, State};
use crate::step::{Exec, Stop};
use crate::termination::ErrorKind;
use crate::value::{Ops, Value};
use symtest_expr::Bits;
use symtest_ir::Reg;

/// Size of `struct stat` on x86-64 Linux (musl and the kernel agree).
const STAT_SIZE: usize = 144;

/// A pure function `--external-calls concrete` may run natively.
#[derive(Clone, Copy)]
pub enum ExtFn {
    F64(fn(f64) -> f64),
    F64x2(fn(f64, f64) -> f64),
    F32(fn(f32) -> f32),
    F32x2(fn(f32, f32) -> f32),
    Int(fn(i64) -> i64),
}

/// The allow-list: functions of scalars only (no pointers), without side effects.
pub fn external_fn(name: &str) -> Option<ExtFn> {
    use ExtFn::*;
    let f = match name {
        "sqrt" => F64(f64::sqrt),
        "sin" => F64(f64::sin),
        "cos" => F64(f64::cos),
        "tan" => F64(f64::tan),
        "asin" => F64(f64::asin),
        "acos" => F64(f64::acos),
        "atan" => F64(f64::atan),
        "sinh" => F64(f64::sinh),
        "cosh" => F64(f64::cosh),
        "tanh" => F64(f64::tanh),
        "exp" => F64(f64::exp),
        "exp2" => F64(f64::exp2),
        "expm1" => F64(f64::exp_m1),
        "log" => F64(f64::ln),
        "log2" => F64(f64::log2),
        "log10" => F64(f64::log10),
        "log1p" => F64(f64::ln_1p),
        "cbrt" => F64(f64::cbrt),
        "floor" => F64(f64::floor),
        "ceil" => F64(f64::ceil),
        "round" => F64(f64::round),
        "trunc" => F64(f64::trunc),
        "fabs" => F64(f64::abs),
        "pow" => F64x2(f64::powf),
        "atan2" => F64x2(f64::atan2),
        "hypot" => F64x2(f64::hypot),
        "fmod" => F64x2(|a, b| a % b),
        "fmin" => F64x2(f64::min),
        "fmax" => F64x2(f64::max),
        "copysign" => F64x2(f64::copysign),
        "sqrtf" => F32(f32::sqrt),
        "sinf" => F32(f32::sin),
        "cosf" => F32(f32::cos),
        "expf" => F32(f32::exp),
        "logf" => F32(f32::ln),
        "floorf" => F32(f32::floor),
        "ceilf" => F32(f32::ceil),
        "fabsf" => F32(f32::abs),
        "roundf" => F32(f32::round),
        "powf" => F32x2(f32::powf),
        "fmodf" => F32x2(|a, b| a % b),
        "abs" => Int(|x| i64::from((x as i32).wrapping_abs())),
        "labs" | "llabs" => Int(i64::wrapping_abs),
        "toupper" => Int(|c| {
            if (0x61..=0x7a).contains(&c) {
                c - 32
            } else {
                c
            }
        }),
        "tolower" => Int(|c| {
            if (0x41..=0x5a).contains(&c) {
                c + 32
            } else {
                c
            }
        }),
        "isdigit" => Int(|c| i64::from((0x30..=0x39).contains(&c))),
        "isalpha" => Int(|c| i64::from(u8::try_from(c).is_ok_and(|b| b.is_ascii_alphabetic()))),
        "isalnum" => Int(|c| i64::from(u8::try_from(c).is_ok_and(|b| b.is_ascii_alphanumeric()))),
        "isspace" => Int(|c| i64::from(matches!(c, 0x20 | 0x09..=0x0d))),
        "isupper" => Int(|c| i64::from((0x41..=0x5a).contains(&c))),
        "islower" => Int(|c| i64::from((0x61..=0x7a).contains(&c))),
        "isxdigit" => Int(|c| i64::from(u8::try_from(c).is_ok_and(|b| b.is_ascii_hexdigit()))),
        "isprint" => Int(|c| i64::from((0x20..0x7f).contains(&c))),
        "ispunct" => Int(|c| i64::from(u8::try_from(c).is_ok_and(|b| b.is_ascii_punctuation()))),
        _ => return None,
    };
    Some(f)
}

impl Executor<'_> {
    /// `--external-calls concrete`: arguments are concretized (each choice is added
    /// to the path condition), the function runs natively, the result is concrete.
    pub(crate) fn call_external(
        &mut self,
        st: &mut State,
        name: &str,
        f: ExtFn,
        args: &[Value],
    ) -> Exec<Value> {
        let n = match f {
            ExtFn::F64(_) | ExtFn::F32(_) | ExtFn::Int(_) => 1,
            ExtFn::F64x2(_) | ExtFn::F32x2(_) => 2,
        };
        if args.len() < n {
            return Err(Stop::error(
                ErrorKind::External,
                format!("external call of `{name}` with too few arguments"),
            ));
        }
        let mut vals = Vec::with_capacity(n);
        for a in &args[..n] {
            vals.push(self.concretize(st, a, &format!("argument of external call `{name}`"))?);
        }
        self.warn_once(format!(
            "calling external function `{name}` natively with concrete arguments"
        ));
        let v = |i: usize| vals[i].to_u64();
        Ok(match f {
            ExtFn::F64(g) => Value::from_u64(64, g(f64::from_bits(v(0))).to_bits()),
            ExtFn::F64x2(g) => {
                Value::from_u64(64, g(f64::from_bits(v(0)), f64::from_bits(v(1))).to_bits())
            }
            ExtFn::F32(g) => {
                Value::from_u64(32, u64::from(g(f32::from_bits(v(0) as u32)).to_bits()))
            }
            ExtFn::F32x2(g) => Value::from_u64(
                32,
                u64::from(g(f32::from_bits(v(0) as u32), f32::from_bits(v(1) as u32)).to_bits()),
            ),
            ExtFn::Int(g) => Value::from_u64(64, g(vals[0].to_i64()) as u64),
        })
    }

    /// `__symtest_host_stat(path, struct stat *)`: 0, or -errno.
    pub(crate) fn host_stat(&mut self, st: &mut State, args: &[Value]) -> Exec<Value> {
        let path = self.read_name(st, args.first());
        let dest = self.concrete_ptr(st, args.get(1), "host_stat buffer")?;
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => return Ok(neg_errno(&e)),
        };
        let image = stat_image(&meta);
        self.write_bytes(st, dest, &image)?;
        Ok(Value::from_u64(64, 0))
    }

    /// `__symtest_host_read(path, buf, n)`: bytes read (at most n, and never
    /// more than the buffer holds or [`HOST_READ_MAX`]), or -errno. Only
    /// regular files are read (see [`read_host_file`]).
    pub(crate) fn host_read(&mut self, st: &mut State, args: &[Value]) -> Exec<Value> {
        let path = self.read_name(st, args.first());
        let dest = self.concrete_ptr(st, args.get(1), "host_read buffer")?;
        let n = match args.get(2) {
            Some(v) => self.concretize(st, v, "host_read size")?.to_u64(),
            None => 0,
        };
        let room = st
            .memory
            .find(dest)
            .filter(|e| !e.freed())
            .map_or(0, |e| e.object.end().saturating_sub(dest));
        if n > room {
            return Err(Stop::error(
                ErrorKind::Ptr,
                "model buffer too small for the data",
            ));
        }
        let bytes = match read_host_file(&path, n.min(HOST_READ_MAX)) {
            Ok(b) => b,
            Err(e) => return Ok(neg_errno(&e)),
        };
        self.write_bytes(st, dest, &bytes)?;
        Ok(Value::from_u64(64, bytes.len() as u64))
    }

    fn concrete_ptr(&mut self, st: &mut State, v: Option<&Value>, what: &str) -> Exec<u64> {
        match v {
            Some(v) => Ok(self.concretize(st, v, what)?.to_u64()),
            None => Err(Stop::error(ErrorKind::Exec, format!("{what} missing"))),
        }
    }

    /// Copies concrete bytes into program memory (one object, bounds checked).
    fn write_bytes(&mut self, st: &mut State, addr: u64, bytes: &[u8]) -> Exec<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let Some(entry) = st.memory.find(addr).filter(|e| !e.freed()) else {
            return Err(Stop::error(
                ErrorKind::Ptr,
                format!("model buffer 0x{addr:x} is not valid memory"),
            ));
        };
        let base = entry.object.base;
        if addr + bytes.len() as u64 > entry.object.end() {
            return Err(Stop::error(
                ErrorKind::Ptr,
                "model buffer too small for the data",
            ));
        }
        let off = (addr - base) as usize;
        let c = st.memory.contents_mut(base).expect("found above");
        for (i, chunk) in bytes.chunks(8).enumerate() {
            let v = Value::Concrete(Bits::from_bytes_le(chunk.len() as u32 * 8, chunk));
            c.write(&mut self.pool, off + i * 8, chunk.len(), &v);
        }
        Ok(())
    }
}

/// The most bytes one host read copies (the POSIX model refuses larger files).
pub const HOST_READ_MAX: u64 = 16 << 20;

/// At most `limit` bytes of the regular file at `path`. Anything else is
/// refused before it is opened: a directory with EISDIR, a device, FIFO or
/// socket with EACCES (reading `/dev/zero` would never end, opening a FIFO
/// blocks). The file is opened non-blocking and checked again through the
/// open descriptor, so a path swapped for a FIFO in between is refused too.
fn read_host_file(path: &str, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, Read};
    use std::os::unix::fs::OpenOptionsExt;
    let refuse = |m: &std::fs::Metadata| -> std::io::Result<()> {
        if m.is_dir() {
            Err(Error::from_raw_os_error(libc::EISDIR))
        } else if !m.is_file() {
            Err(Error::from_raw_os_error(libc::EACCES))
        } else {
            Ok(())
        }
    };
    refuse(&std::fs::metadata(path)?)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let meta = file.metadata()?;
    refuse(&meta)?;
    let mut bytes = Vec::with_capacity(limit.min(meta.len()) as usize);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn neg_errno(e: &std::io::Error) -> Value {
    let errno = e.raw_os_error().unwrap_or(2) as i64; // ENOENT when unknown
    Value::from_u64(64, (-errno) as u64)
}

/// `struct stat` of x86-64 Linux for host metadata.
fn stat_image(m: &std::fs::Metadata) -> [u8; STAT_SIZE] {
    use std::os::unix::fs::MetadataExt;
    let mut b = [0u8; STAT_SIZE];
    let mut put =
        |off: usize, v: u64, n: usize| b[off..off + n].copy_from_slice(&v.to_le_bytes()[..n]);
    put(0, m.dev(), 8);
    put(8, m.ino(), 8);
    put(16, m.nlink(), 8);
    put(24, u64::from(m.mode()), 4);
    put(28, u64::from(m.uid()), 4);
    put(32, u64::from(m.gid()), 4);
    put(40, m.rdev(), 8);
    put(48, m.size(), 8);
    put(56, m.blksize(), 8);
    put(64, m.blocks(), 8);
    // Access times change when files are read: report the modification time.
    put(72, m.mtime() as u64, 8);
    put(80, m.mtime_nsec() as u64, 8);
    put(88, m.mtime() as u64, 8);
    put(96, m.mtime_nsec() as u64, 8);
    put(104, m.ctime() as u64, 8);
    put(112, m.ctime_nsec() as u64, 8);
    b
}

/// At most this many bytes of standard output are kept per path.
const STDOUT_CAP: usize = 1 << 16;

impl Executor<'_> {
    /// `setjmp(buf)`: records where the call returns (frame, block, next
    /// instruction, result register) and stores the record's number in `buf`.
    pub(crate) fn setjmp(&mut self, st: &mut State, dest: Option<Reg>, buf: &Value) -> Exec<()> {
        let addr = self.concretize(st, buf, "jmp_buf address")?.to_u64();
        let f = st.frame();
        st.jmp_targets.push(JmpTarget {
            depth: st.stack.len(),
            func: f.func,
            block: f.block,
            prev_block: f.prev_block,
            pc: f.pc,
            dest,
        });
        let token = st.jmp_targets.len() as u64;
        self.write_bytes(st, addr, &token.to_le_bytes())
    }

    /// `longjmp(buf, val)`: unwinds to the frame of the matching `setjmp`, which
    /// returns `val` (1 if `val` is 0).
    pub(crate) fn longjmp(&mut self, st: &mut State, buf: &Value, val: &Value) -> Exec<()> {
        let addr = self.concretize(st, buf, "jmp_buf address")?.to_u64();
        let token = st
            .memory
            .find(addr)
            .filter(|e| !e.freed() && addr + 8 <= e.object.end())
            .and_then(|e| {
                let off = (addr - e.object.base) as usize;
                e.contents.concrete_bytes(off, 8).map(|b| {
                    let mut a = [0u8; 8];
                    a.copy_from_slice(&b);
                    u64::from_le_bytes(a)
                })
            });
        let target = token
            .and_then(|t| st.jmp_targets.get((t as usize).wrapping_sub(1)))
            .cloned();
        let Some(t) = target else {
            return Err(Stop::error(
                ErrorKind::Ptr,
                "longjmp with a jmp_buf no setjmp filled",
            ));
        };
        if t.depth > st.stack.len() || st.stack[t.depth - 1].func != t.func {
            return Err(Stop::error(
                ErrorKind::Ptr,
                "longjmp to a function that has already returned",
            ));
        }
        while st.stack.len() > t.depth {
            let frame = st.stack.pop().expect("deeper than the target");
            st.memory.release_frame(&frame.allocas, frame.varargs);
        }
        let f = st.frame_mut();
        f.block = t.block;
        f.prev_block = t.prev_block;
        f.pc = t.pc;
        if let Some(d) = t.dest {
            let v = Ops::resize(&mut self.pool, val, 32);
            let zero = self.eq_value(&v, &Value::from_u64(32, 0));
            let v = Ops::ite(&mut self.pool, &zero, &Value::from_u64(32, 1), &v);
            st.set_reg(d, v);
        }
        Ok(())
    }

    /// `__symtest_stdout(buf, n)`: the POSIX model wrote `n` bytes to fd 1.
    pub(crate) fn record_stdout(&mut self, st: &mut State, buf: &Value, n: &Value) -> Exec<()> {
        let addr = self.concretize(st, buf, "stdout buffer")?.to_u64();
        let n = self.concretize(st, n, "stdout length")?.to_u64() as usize;
        let n = n.min(STDOUT_CAP.saturating_sub(st.stdout.len()));
        if n == 0 {
            return Ok(());
        }
        let Some(entry) = st.memory.find(addr).filter(|e| !e.freed()) else {
            return Ok(());
        };
        let base = entry.object.base;
        let n = n.min((entry.object.end() - addr) as usize);
        let contents = entry.contents.clone();
        let values: Vec<Value> = (0..n)
            .map(|i| contents.read(&mut self.pool, (addr - base) as usize + i, 1))
            .collect();
        st.stdout.push(&values);
        Ok(())
    }
}
