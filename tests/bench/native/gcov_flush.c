/*
 * gcov_flush.c - linked into the gcov build of a benchmark program by
 * `cargo xtask bench`: a test that ends in a crash (abort, assertion,
 * SIGSEGV, SIGFPE) still writes its coverage, so bug-finding tests count
 * like every other test.  Compiled without --coverage.
 */
#include <signal.h>
#include <string.h>

extern void __gcov_dump(void);

static void flush_and_die(int sig) {
  __gcov_dump();
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void) {
  static const int sigs[] = {SIGABRT, SIGSEGV, SIGFPE, SIGBUS, SIGILL};
  unsigned i;
  for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    signal(sigs[i], flush_and_die);
}
