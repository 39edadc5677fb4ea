/* The rest of KLEE 3's klee.h, each used as KLEE's own tests use it.
 *
 * Paths: klee_choose(3) forks once (values 3 and up end silently: 1 path);
 * `c == 2` forks (a user error); with forking disabled, the branch on b[2]
 * follows one side: 1 silent + 1 user error + 1 normal = 3. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  char b[10];
  klee_make_symbolic(b, sizeof b, "b");
  /* symbolic under the engine; natively (replay) nothing is */
  klee_assert(klee_is_replay() ? !klee_is_symbolic(b[0]) : klee_is_symbolic(b[0]));
  klee_assert(klee_get_obj_size(b) == 10);
  char *h = malloc(33);
  klee_assert(klee_get_obj_size(h) == 33);
  klee_check_memory_access(h, 33);
  klee_prefer_cex(b, b[0] == 'x');
  klee_posix_prefer_cex(b, b[1] == 'y');
  int v = klee_get_valuel(b[1]);
  klee_assert(v >= -128 && v < 128);
  klee_print_expr("b[3] is", b[3]);
  klee_warning("a warning");
  klee_warning_once("a warning, once");
  klee_stack_trace();
  klee_open_merge();
  klee_close_merge();
  errno = 0;
  klee_assert(klee_get_errno() == 0);
  uintptr_t c = klee_choose(3);
  klee_print_range("c", (int)c);
  if (c == 2)
    klee_report_error(__FILE__, __LINE__, "c is two", "user"); // EXPECT-ERROR: user
  klee_set_forking(0);
  if (b[2] == 'q')
    puts("q");
  klee_set_forking(1);
  klee_mark_global(h);
  return 0;
}
// EXPECT-PATHS: 3
