/*
 * gcov_crash.c - linked into `cargo symtest cc --native --coverage`
 * executables: writes the coverage data (.gcda) when the program dies of a
 * crash signal, which gcov alone only does at a normal exit.  The signal is
 * then delivered again with its default action, so the run ends exactly as
 * it would have (same signal, same core-dump behaviour).  The lines a
 * crashing test executed thus count in the replay's coverage.
 *
 * The handler calls __gcov_dump (libgcov), which is not async-signal-safe;
 * a crash inside malloc or stdio may lose that test's data (the watchdog
 * still ends the run).
 */
#include <signal.h>
#include <string.h>

extern void __gcov_dump(void);

static void symtest_gcov_on_crash(int sig) {
  __gcov_dump();
  signal(sig, SIG_DFL);
  /* Returning re-executes the faulting instruction (SIGSEGV, SIGILL, SIGFPE,
   * SIGBUS); abort() raises SIGABRT again itself.  raise() covers the rest. */
  if (sig == SIGTRAP)
    raise(sig);
}

__attribute__((constructor)) static void symtest_gcov_crash_init(void) {
  static const int sigs[] = {SIGSEGV, SIGILL, SIGFPE, SIGBUS, SIGABRT, SIGTRAP};
  for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = symtest_gcov_on_crash;
    sa.sa_flags = SA_RESETHAND;
    sigaction(sigs[i], &sa, 0);
  }
}
