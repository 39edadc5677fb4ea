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
 *
 * It also defines _exit and _Exit, which skip the exit handlers where gcov
 * writes its data (gnulib's close_stdout leaves through _exit after a write
 * error): they write it first.  A process's data is written once, however
 * often __gcov_dump is called.
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

long syscall(long number, ...);

void _exit(int status) {
  __gcov_dump();
  for (;;)
    syscall(231 /* SYS_exit_group on x86-64 */, status);
}

void _Exit(int status) { _exit(status); }
