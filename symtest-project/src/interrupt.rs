//! SIGINT, SIGTERM and SIGHUP noted instead of ending the process at once,
//! so that what a run changed (temporary files, programs set aside) can be
//! put right first; then the signal takes its usual effect.

use std::sync::atomic::{AtomicI32, Ordering};

static CAUGHT: AtomicI32 = AtomicI32::new(0);
const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn note(sig: libc::c_int) {
    CAUGHT.store(sig, Ordering::SeqCst);
}

/// The signal caught so far, if any.
pub fn caught() -> Option<libc::c_int> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// Handlers installed for its lifetime.
pub struct Guard(());

impl Guard {
    /// Installs the handlers, with no signal caught yet.
    pub fn install() -> Guard {
        CAUGHT.store(0, Ordering::SeqCst);
        for s in SIGNALS {
            // SAFETY: the handler only stores to an atomic (async-signal-safe).
            unsafe {
                libc::signal(s, note as extern "C" fn(libc::c_int) as libc::sighandler_t);
            }
        }
        Guard(())
    }

    /// The signal caught so far, if any.
    pub fn caught(&self) -> Option<libc::c_int> {
        caught()
    }

    /// Ends the process by `sig` with its default action, as it would
    /// have without the guard.
    pub fn reraise(self, sig: libc::c_int) -> ! {
        drop(self);
        // SAFETY: restoring the default action and raising a signal.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
        std::process::exit(128 + sig)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        for s in SIGNALS {
            // SAFETY: restoring the default action.
            unsafe {
                libc::signal(s, libc::SIG_DFL);
            }
        }
    }
}
