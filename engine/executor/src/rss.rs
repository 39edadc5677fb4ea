//! The process's resident memory as the OS reports it (Linux `/proc`), and
//! giving freed memory back to the OS so the figure falls when states go.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes of one page as `/proc/self/statm` counts them.
fn page_bytes() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as f64
    } else {
        4096.0
    }
}

/// Reads the resident set size cheaply: `/proc/self/statm` is opened once and
/// re-read with one `pread` per sample (a few microseconds).
pub struct RssSampler {
    file: Option<File>,
    page: f64,
}

impl Default for RssSampler {
    fn default() -> Self {
        RssSampler {
            file: File::open("/proc/self/statm").ok(),
            page: page_bytes(),
        }
    }
}

impl RssSampler {
    /// Resident memory now, MiB (0 where `/proc` is unavailable).
    pub fn sample_mb(&mut self) -> f64 {
        let Some(f) = &self.file else {
            return 0.0;
        };
        let mut buf = [0u8; 128];
        let Ok(n) = f.read_at(&mut buf, 0) else {
            return 0.0;
        };
        let text = std::str::from_utf8(&buf[..n]).unwrap_or("");
        let pages: f64 = text
            .split_whitespace()
            .nth(1)
            .and_then(|x| x.parse().ok())
            .unwrap_or(0.0);
        pages * self.page / (1024.0 * 1024.0)
    }
}

/// The system allocator, counting the memory it has handed out: a binary that
/// installs it (`#[global_allocator]`) lets the memory cap know the memory in
/// use at the cost of one atomic addition per allocation, where asking the
/// allocator (`mallinfo2`) walks its free lists.
pub struct CountingAllocator;

/// Bytes of live allocations, as the allocator's chunks (glibc: the request
/// plus an 8-byte header, in 16-byte steps, at least 32).
static IN_USE: AtomicUsize = AtomicUsize::new(0);

fn chunk(size: usize) -> usize {
    ((size + 8 + 15) & !15).max(32)
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counter is only arithmetic on the sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            IN_USE.fetch_add(chunk(l.size()), Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(l);
        if !p.is_null() {
            IN_USE.fetch_add(chunk(l.size()), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        IN_USE.fetch_sub(chunk(l.size()), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, l, new_size);
        if !q.is_null() {
            IN_USE.fetch_add(chunk(new_size), Ordering::Relaxed);
            IN_USE.fetch_sub(chunk(l.size()), Ordering::Relaxed);
        }
        q
    }
}

/// Bytes of live Rust allocations, if [`CountingAllocator`] is installed.
pub fn counted_heap_bytes() -> Option<usize> {
    match IN_USE.load(Ordering::Relaxed) {
        0 => None,
        n => Some(n),
    }
}

/// Resident memory now, MiB.
pub fn current_mb() -> f64 {
    RssSampler::default().sample_mb()
}

/// The highest resident memory of the process so far (the kernel's `VmHWM`),
/// MiB; 0 where `/proc` is unavailable.
pub fn peak_mb() -> f64 {
    let Ok(s) = std::fs::read_to_string("/proc/self/status") else {
        return 0.0;
    };
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Returns memory the allocator holds free to the OS (glibc keeps freed
/// chunks mapped; without this the resident figure stays high after states
/// are dropped or suspended).
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resident_memory_is_read_and_follows_allocation() {
        let mut s = RssSampler::default();
        let before = s.sample_mb();
        assert!(before > 0.0);
        // 64 MiB touched: the resident figure grows by about that much.
        // (black_box: an optimized build would not make an unused vector.)
        let v = std::hint::black_box(vec![1u8; 64 << 20]);
        let during = s.sample_mb();
        assert!(during - before > 48.0, "{before} -> {during}");
        assert!(peak_mb() >= during - 1.0);
        drop(v);
        release_free_memory();
        let after = s.sample_mb();
        assert!(during - after > 48.0, "{during} -> {after}");
    }
}
