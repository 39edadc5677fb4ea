/* Global constructors and destructors that print, around atexit handlers:
 * natively the constructors run before main in ascending priority; at exit
 * (a return from main or a call of exit) the atexit handlers run, the last
 * registered first (main's, then the one a constructor registered), then
 * the destructors in descending priority, then stdio is flushed.
 * cargo-symtest/tests/it/native_replay.rs runs it under the POSIX runtime
 * (with and without -DNO_ATEXIT, which leaves atexit out of the linked
 * libc) and compares every test's stdout with the native run's.
 *
 * Paths (here: argv = {name}, argc == 1 is concrete): 1. */
#include <stdio.h>
#include <stdlib.h>

#ifndef NO_ATEXIT
static void from_ctor(void) { printf("atexit handler from a constructor\n"); }
static void from_main(void) { printf("atexit handler from main\n"); }
#endif

__attribute__((constructor(102))) static void ctor102(void) {
  printf("constructor 102\n");
}

__attribute__((constructor(101))) static void ctor101(void) {
  printf("constructor 101\n");
#ifndef NO_ATEXIT
  atexit(from_ctor);
#endif
}

__attribute__((destructor(101))) static void dtor101(void) {
  printf("destructor 101\n");
}

__attribute__((destructor(102))) static void dtor102(void) {
  printf("destructor 102\n");
}

int main(int argc, char **argv) {
#ifndef NO_ATEXIT
  atexit(from_main);
#endif
  printf("main %d\n", argc);
  if (argc > 1)
    exit(argc);
  return 0;
}
// EXPECT-PATHS: 1
// EXPECT-NO-ERRORS
