//! Calling a host C library function natively, for `--external-calls all`:
//! in a forked child process, so a crash, an `exit` or a hang of the
//! function ends only the call. The arguments are concrete: integers,
//! `float`/`double` values, and pointers into copies of engine objects; the
//! child sends back the result, `errno` and the copies (the function may
//! have written them).
//!
//! The x86-64 System V convention is followed directly: up to six integer or
//! pointer arguments and up to eight floating-point ones, all in registers,
//! through a C-variadic function pointer (so `%al` is set, which variadic
//! callees such as `printf` need; a non-variadic callee reads the same
//! registers).

use std::ffi::{c_void, CString};

/// Integer/pointer and floating-point argument registers.
pub const INT_REGS: usize = 6;
pub const FLOAT_REGS: usize = 8;
/// A call that runs longer is killed.
const CALL_SECONDS: u32 = 10;

/// One argument of a native call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NativeArg {
    Int(u64),
    /// IEEE bits; a `float` in the low 32 bits.
    Float(u64),
    /// A pointer `offset` bytes into buffer `buf`.
    Ptr {
        buf: usize,
        offset: u64,
    },
    /// The host's `stdin`, `stdout` or `stderr` (0, 1, 2).
    Stdio(u8),
}

/// What the child reports.
#[derive(Debug, PartialEq)]
pub enum NativeOutcome {
    Returned {
        /// rax, or xmm0's bits for a floating-point result.
        value: u64,
        errno: i32,
        /// The returned pointer lies in buffer `.0` at offset `.1`.
        points_into: Option<(usize, u64)>,
        buffers: Vec<Vec<u8>>,
    },
    /// Killed by a signal, timed out, or ended the process.
    Failed(String),
}

/// The address of a function the host process (its C library) exports.
pub fn host_symbol(name: &str) -> Option<usize> {
    let c = CString::new(name).ok()?;
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks
    // the symbol up.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c.as_ptr()) };
    (!p.is_null()).then_some(p as usize)
}

/// Runs `func(args)` in a child process over copies of `buffers`.
pub fn call(
    func: usize,
    args: &[NativeArg],
    buffers: &[Vec<u8>],
    float_ret: bool,
) -> Result<NativeOutcome, String> {
    let ints = args
        .iter()
        .filter(|a| !matches!(a, NativeArg::Float(_)))
        .count();
    let floats = args.len() - ints;
    if ints > INT_REGS || floats > FLOAT_REGS {
        return Err(format!(
            "{ints} integer/pointer and {floats} floating-point arguments (at most {INT_REGS} and {FLOAT_REGS})"
        ));
    }
    let mut fds = [0i32; 2];
    // SAFETY: `fds` has room for the two descriptors.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(format!("pipe: {}", std::io::Error::last_os_error()));
    }
    let (rd, wr) = (fds[0], fds[1]);
    // SAFETY: the child only runs `child` (allocation, the call, write and
    // _exit) and never returns into Rust code of the parent.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        // SAFETY: closing our own descriptors.
        unsafe {
            libc::close(rd);
            libc::close(wr);
        }
        return Err(format!("fork: {}", std::io::Error::last_os_error()));
    }
    if pid == 0 {
        // SAFETY: in the child; `wr` is the pipe's write end.
        unsafe {
            libc::close(rd);
            child(wr, func, args, buffers, float_ret)
        }
    }
    // SAFETY: closing the write end we do not use.
    unsafe { libc::close(wr) };
    let data = read_all(rd);
    let mut status = 0;
    // SAFETY: waiting for our own child; closing our read end.
    unsafe {
        libc::close(rd);
        libc::waitpid(pid, &mut status, 0);
    }
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        return Ok(NativeOutcome::Failed(if sig == libc::SIGALRM {
            format!("it ran longer than {CALL_SECONDS} s")
        } else {
            format!("it was killed by signal {sig}")
        }));
    }
    let code = libc::WEXITSTATUS(status);
    match decode(&data, buffers.len()) {
        Some(o) if code == 0 => Ok(o),
        _ => Ok(NativeOutcome::Failed(format!(
            "it ended the process (exit status {code})"
        ))),
    }
}

fn read_all(fd: i32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        // SAFETY: reading into a local buffer of the given length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr() as *mut c_void, buf.len()) };
        if n > 0 {
            out.extend_from_slice(&buf[..n as usize]);
        } else if n == 0
            || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
        {
            return out;
        }
    }
}

/// The child's report: magic, value, errno, points-into (buffer + 1, or 0;
/// offset), then each buffer's length and bytes.
const MAGIC: u64 = 0x5359_4d54_4e41_5456;

fn decode(data: &[u8], nbuf: usize) -> Option<NativeOutcome> {
    let mut pos = 0;
    let u64_at = |pos: &mut usize| -> Option<u64> {
        let b = data.get(*pos..*pos + 8)?;
        *pos += 8;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    };
    if u64_at(&mut pos)? != MAGIC {
        return None;
    }
    let value = u64_at(&mut pos)?;
    let errno = u64_at(&mut pos)? as i32;
    let into = u64_at(&mut pos)?;
    let off = u64_at(&mut pos)?;
    let mut buffers = Vec::with_capacity(nbuf);
    for _ in 0..nbuf {
        let n = u64_at(&mut pos)? as usize;
        buffers.push(data.get(pos..pos + n)?.to_vec());
        pos += n;
    }
    Some(NativeOutcome::Returned {
        value,
        errno,
        points_into: (into > 0).then(|| (into as usize - 1, off)),
        buffers,
    })
}

/// # Safety
/// Only in the forked child: calls an arbitrary C function, then `_exit`s.
unsafe fn child(
    wr: i32,
    func: usize,
    args: &[NativeArg],
    buffers: &[Vec<u8>],
    float_ret: bool,
) -> ! {
    // SAFETY (whole body): the child is a copy of the engine that dies at
    // the end of this function; nothing here returns to the parent's code.
    unsafe {
        libc::alarm(CALL_SECONDS);
        // The function must not read the engine's stdin.
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
        if null >= 0 {
            libc::dup2(null, 0);
        }
        let mut copies: Vec<Vec<u8>> = buffers
            .iter()
            .map(|b| {
                // Room past the end: natively an overflow lands in the heap.
                let mut v = b.clone();
                v.resize(b.len() + 64, 0);
                v
            })
            .collect();
        let stdio = |i: u8| -> u64 {
            let name = [c"stdin", c"stdout", c"stderr"][i as usize];
            let p = libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) as *const *mut c_void;
            if p.is_null() {
                0
            } else {
                *p as u64
            }
        };
        let mut ints = [0u64; INT_REGS];
        let mut floats = [0f64; FLOAT_REGS];
        let (mut ni, mut nf) = (0, 0);
        for a in args {
            match *a {
                NativeArg::Int(v) => {
                    ints[ni] = v;
                    ni += 1;
                }
                NativeArg::Ptr { buf, offset } => {
                    ints[ni] = copies[buf].as_mut_ptr() as u64 + offset;
                    ni += 1;
                }
                NativeArg::Stdio(i) => {
                    ints[ni] = stdio(i);
                    ni += 1;
                }
                NativeArg::Float(bits) => {
                    floats[nf] = f64::from_bits(bits);
                    nf += 1;
                }
            }
        }
        *libc::__errno_location() = 0;
        let [i0, i1, i2, i3, i4, i5] = ints;
        let [d0, d1, d2, d3, d4, d5, d6, d7] = floats;
        let value = if float_ret {
            let f: unsafe extern "C" fn(u64, ...) -> f64 = std::mem::transmute(func);
            f(i0, i1, i2, i3, i4, i5, d0, d1, d2, d3, d4, d5, d6, d7).to_bits()
        } else {
            let f: unsafe extern "C" fn(u64, ...) -> u64 = std::mem::transmute(func);
            f(i0, i1, i2, i3, i4, i5, d0, d1, d2, d3, d4, d5, d6, d7)
        };
        let errno = *libc::__errno_location();
        libc::fflush(std::ptr::null_mut());
        let into = copies.iter().enumerate().find_map(|(i, c)| {
            let base = c.as_ptr() as u64;
            (value >= base && value <= base + buffers[i].len() as u64)
                .then(|| (i as u64 + 1, value - base))
        });
        let mut out = Vec::new();
        for v in [
            MAGIC,
            value,
            errno as u64,
            into.map_or(0, |x| x.0),
            into.map_or(0, |x| x.1),
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for (i, c) in copies.iter_mut().enumerate() {
            let n = buffers[i].len();
            out.extend_from_slice(&(n as u64).to_le_bytes());
            out.extend_from_slice(&c[..n]);
        }
        let mut rest: &[u8] = &out;
        while !rest.is_empty() {
            let n = libc::write(wr, rest.as_ptr() as *const c_void, rest.len());
            if n <= 0 {
                break;
            }
            rest = &rest[n as usize..];
        }
        libc::_exit(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_functions_run_on_copies_of_buffers() {
        let strlen = host_symbol("strlen").expect("libc exports strlen");
        let r = call(
            strlen,
            &[NativeArg::Ptr { buf: 0, offset: 1 }],
            &[b"hello\0".to_vec()],
            false,
        )
        .unwrap();
        assert!(
            matches!(r, NativeOutcome::Returned { value: 4, .. }),
            "{r:?}"
        );
        // The function writes its buffer; the result points into it.
        let strcpy = host_symbol("strcpy").unwrap();
        let r = call(
            strcpy,
            &[
                NativeArg::Ptr { buf: 0, offset: 0 },
                NativeArg::Ptr { buf: 1, offset: 0 },
            ],
            &[vec![0; 4], b"abc\0".to_vec()],
            false,
        )
        .unwrap();
        let NativeOutcome::Returned {
            points_into,
            buffers,
            ..
        } = r
        else {
            panic!("{r:?}")
        };
        assert_eq!(points_into, Some((0, 0)));
        assert_eq!(buffers[0], b"abc\0");
        // Floating point in and out.
        let pow = host_symbol("pow").unwrap();
        let r = call(
            pow,
            &[
                NativeArg::Float(2f64.to_bits()),
                NativeArg::Float(10f64.to_bits()),
            ],
            &[],
            true,
        )
        .unwrap();
        assert!(
            matches!(r, NativeOutcome::Returned { value, .. } if f64::from_bits(value) == 1024.0),
            "{r:?}"
        );
    }

    #[test]
    fn a_crash_or_exit_ends_only_the_child() {
        let strlen = host_symbol("strlen").unwrap();
        let r = call(strlen, &[NativeArg::Int(8)], &[], false).unwrap();
        assert!(
            matches!(r, NativeOutcome::Failed(ref m) if m.contains("signal")),
            "{r:?}"
        );
        let exit = host_symbol("exit").unwrap();
        let r = call(exit, &[NativeArg::Int(3)], &[], false).unwrap();
        assert!(
            matches!(r, NativeOutcome::Failed(ref m) if m.contains("exit status 3")),
            "{r:?}"
        );
        assert!(host_symbol("no_such_function_anywhere").is_none());
    }
}
