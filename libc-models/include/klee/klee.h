/*
 * klee/klee.h - KLEE's annotation API, for harnesses written for KLEE.
 *
 * symtest implements these names itself (they behave like the symtest_*
 * functions of <symtest.h>), so a program written for KLEE runs unchanged.
 * Signatures follow KLEE's public include/klee/klee.h.
 *
 * Symbolic execution: the engine intercepts every function below; their
 * bodies are never executed.
 * Native replay: libc-models/replay/symtest_replay.c defines them; it reads
 * the .ktest named by SYMTEST_KTEST (or KLEE's KTEST_FILE).  Reserved exit
 * codes: 125 = replay mismatch (see <symtest.h>), 124 = klee_report_error.
 *
 * Every function of KLEE 3's include/klee/klee.h is here (and KLEE 2's
 * klee_alias_function), plus klee_get_value_u32/u64.
 */
#ifndef KLEE_H
#define KLEE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define KLEE_NORETURN __attribute__((__noreturn__))
#else
#define KLEE_NORETURN
#endif

#if defined(__GNUC__) || defined(__clang__)
#define KLEE_EXTENSION __extension__
#else
#define KLEE_EXTENSION
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* klee_define_fixed_object - an accessible object of nbytes bytes at addr
 * (zero-filled; it must not overlap another object, and free() of it is an
 * error).  Native replay: maps the pages around it (mmap MAP_FIXED_NOREPLACE)
 * when they are free. */
void klee_define_fixed_object(void *addr, size_t nbytes);

/* klee_make_symbolic - make the nbytes bytes at addr symbolic; nbytes must
 * be the whole object.  name identifies the object in test files (NULL means
 * "unnamed").  Native replay: copies the next .ktest object into addr; a
 * size mismatch stops the run with exit code 125. */
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);

/* klee_range - a symbolic int in the signed interval [begin, end).
 * If end == begin + 1 the result is begin and no object is created (no
 * object is consumed on replay either).  Constant bounds with begin >= end
 * are a `user` error; symbolic bounds that leave the range empty on a path
 * end it like a false assumption.  Native replay: the next object as an int;
 * outside [begin, end) -> exit code 125; begin >= end -> exit code 124. */
int klee_range(int begin, int end, const char *name);

/* klee_int - an unconstrained symbolic int (a 4-byte object `name`).
 * Native replay: the next object read as an int. */
int klee_int(const char *name);

/* klee_silent_exit - end the current path without generating a test case.
 * Native replay: exit(status). */
void klee_silent_exit(int status) KLEE_NORETURN;

/* klee_abort - end the current path with an `abort` error.
 * Native replay: abort(). */
void klee_abort(void) KLEE_NORETURN;

/* klee_report_error - report a user-defined error at file:line with message
 * and end the path.  The error file is testN.<suffix> (".err" is appended to
 * a suffix that does not end with it; a suffix that is not a plain file-name
 * suffix gives testN.user.err).  Native replay: prints
 * "symtest-replay: user error: <file>:<line>: <message>" and exits with 124. */
void klee_report_error(const char *file, int line, const char *message,
                       const char *suffix) KLEE_NORETURN;

/* klee_get_obj_size - the size of the object ptr is the start of (a symbolic
 * ptr is concretized; anything else is a `ptr` error).  Native replay: the
 * object's size as AddressSanitizer knows it (heap, stack and globals). */
size_t klee_get_obj_size(void *ptr);

/* klee_print_expr - print msg and the expression of the next argument.
 * Native replay: prints msg on stderr. */
void klee_print_expr(const char *msg, ...);

/* klee_choose - a symbolic value in [0, n) (an 8-byte object named
 * "klee_choose"); as in KLEE, it does not fork n ways: the caller compares
 * it.  Paths where it would be n or more end silently.  Native replay: the
 * next object; n or more -> exit(0). */
uintptr_t klee_choose(uintptr_t n);

/* klee_assert_fail - what klee_assert calls when its condition is false: an
 * `assert` error.  Native replay: prints the assertion and aborts. */
void klee_assert_fail(const char *expr, const char *file, unsigned line,
                      const char *function) KLEE_NORETURN;

/* klee_assert - assertion that does not depend on NDEBUG, as KLEE's: a
 * violation is an `assert` error located at the line of the klee_assert use.
 * (This header does not declare __assert_fail, so it combines with any
 * libc's <assert.h>.) */
#if defined(__cplusplus) || defined(__GNUC__)
#define KLEE_ASSERT_FUNCTION __PRETTY_FUNCTION__
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define KLEE_ASSERT_FUNCTION __func__
#else
#define KLEE_ASSERT_FUNCTION "?"
#endif
#define klee_assert(expr)                                                      \
  ((expr) ? (void)(0)                                                          \
          : klee_assert_fail(#expr, __FILE__, __LINE__, KLEE_ASSERT_FUNCTION))

/* klee_is_symbolic - 1 if n is symbolic on the current path.
 * Native replay: 0. */
unsigned klee_is_symbolic(uintptr_t n);

/* klee_is_replay - 0 under symbolic execution, 1 in native replay. */
unsigned klee_is_replay(void);

/* klee_assume - constrain the current path to condition != 0 (no fork).  A
 * condition that cannot hold on a path ends that path without a test and
 * without an error (a harness's assumption is not a bug of the code under
 * test; a one-time warning names its line unless --silent-klee-assume).
 * Native replay: a false condition prints "symtest-replay: assumption
 * failed" and exits with 125. */
void klee_assume(uintptr_t condition);

/* klee_warning / klee_warning_once - print a warning (the _once form at most
 * once per call site/message).  Native replay: printed on stderr. */
void klee_warning(const char *message);
void klee_warning_once(const char *message);

/* klee_prefer_cex / klee_posix_prefer_cex - when choosing concrete test
 * values for `object`, prefer ones satisfying condition (does not constrain
 * the path).  Native replay: no effect. */
void klee_prefer_cex(void *object, uintptr_t condition);
void klee_posix_prefer_cex(void *object, uintptr_t condition);

/* klee_mark_global - the object holding `object` is treated as a global:
 * freeing it is a `free` error.  Native replay: no effect. */
void klee_mark_global(void *object);

/* klee_get_value* - one concrete value the expression can take on the current
 * path (the path is not constrained).  Native replay: identity. */
float klee_get_valuef(float expr);
double klee_get_valued(double expr);
long klee_get_valuel(long expr);
#if !defined(__cplusplus) || __cplusplus >= 201103L
/* (not declared for C++98, which has no long long) */
KLEE_EXTENSION long long klee_get_valuell(long long expr);
#endif
int32_t klee_get_value_i32(int32_t expr);
int64_t klee_get_value_i64(int64_t expr);
uint32_t klee_get_value_u32(uint32_t expr);
uint64_t klee_get_value_u64(uint64_t expr);

/* klee_check_memory_access - the size bytes at address must be accessible
 * (a `ptr` error where they are not; a symbolic address forks per object).
 * Native replay: reads each byte, so AddressSanitizer reports a bad one. */
void klee_check_memory_access(const void *address, size_t size);

/* klee_set_forking - with 0, branches on this path no longer fork: each
 * follows one feasible side (at random, seeded); 1 turns forking back on.
 * Native replay: no effect. */
void klee_set_forking(unsigned enable);

/* klee_stack_trace - print the call stack.  Native replay: a note on stderr. */
void klee_stack_trace(void);

/* klee_print_range - print the value of arg on this path, or the unsigned
 * range it can take.  Native replay: prints the value. */
void klee_print_range(const char *name, int arg);

/* klee_open_merge / klee_close_merge - KLEE's state-merging markers.  Paths
 * are not merged (as in KLEE without --use-merge); a one-time warning says
 * so.  Native replay: no effect. */
void klee_open_merge(void);
void klee_close_merge(void);

/* klee_get_errno - errno on the current path (the libc's errno when one is
 * linked in; without a libc, the engine's, set by --external-calls=all
 * calls).  Native replay: errno. */
int klee_get_errno(void);

/* klee_alias_function - from now on (on this path) calls of the function
 * named fn_name go to new_fn_name; the same name twice removes the alias.
 * (KLEE 2's API.)  Native replay: calls are not redirected; a warning says
 * so, and tests of paths that call the aliased function may not replay. */
void klee_alias_function(const char *fn_name, const char *new_fn_name);

#ifdef __cplusplus
}
#endif

#endif /* KLEE_H */
