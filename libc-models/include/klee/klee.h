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
#if __cplusplus >= 201103L
#define KLEE_NOTHROW noexcept(true)
#else
#define KLEE_NOTHROW throw()
#endif
extern "C" {
#else
#define KLEE_NOTHROW
#endif

/* klee_make_symbolic - make the nbytes bytes at addr symbolic; nbytes must
 * be the whole object.  name identifies the object in test files (NULL means
 * "unnamed").  Native replay: copies the next .ktest object into addr; a
 * size mismatch stops the run with exit code 125. */
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);

/* klee_range - a symbolic int in the signed interval [begin, end).
 * If end == begin + 1 the result is begin and no object is created (no
 * object is consumed on replay either).  Native replay: the next object as an
 * int; outside [begin, end) -> exit code 125. */
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
 * and end the path; suffix names the error file (testN.<suffix>).
 * Native replay: prints "symtest-replay: user error: <file>:<line>: <message>"
 * and exits with 124. */
void klee_report_error(const char *file, int line, const char *message,
                       const char *suffix) KLEE_NORETURN;

/* klee_print_expr - print msg and the expression of the next argument.
 * Native replay: prints msg on stderr. */
void klee_print_expr(const char *msg, ...);

/* glibc's assertion handler; the engine treats a call to it as an `assert`
 * error, natively it prints the message and aborts. */
void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function) KLEE_NOTHROW KLEE_NORETURN;

/* klee_assert - assertion that does not depend on NDEBUG.  As in KLEE it
 * expands to a call of __assert_fail, so a violation is an `assert` error
 * located at the line of the klee_assert use. */
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define KLEE_ASSERT_FUNCTION __func__
#elif defined(__GNUC__)
#define KLEE_ASSERT_FUNCTION (__extension__ __FUNCTION__)
#else
#define KLEE_ASSERT_FUNCTION "?"
#endif
#define klee_assert(expr)                                                      \
  ((expr) ? (void)(0)                                                          \
          : __assert_fail(#expr, __FILE__, __LINE__, KLEE_ASSERT_FUNCTION))

/* klee_is_symbolic - 1 if n is symbolic on the current path.
 * Native replay: 0. */
unsigned klee_is_symbolic(uintptr_t n);

/* klee_assume - constrain the current path to condition != 0 (no fork).  A
 * condition that cannot hold ends the path with a user error.
 * Native replay: a false condition prints
 * "symtest-replay: assumption failed" and exits with 125. */
void klee_assume(uintptr_t condition);

/* klee_warning / klee_warning_once - print a warning (the _once form at most
 * once per call site/message).  Native replay: printed on stderr. */
void klee_warning(const char *message);
void klee_warning_once(const char *message);

/* klee_prefer_cex - when choosing concrete test values for `object`, prefer
 * ones satisfying condition (does not constrain the path).
 * Native replay: no effect. */
void klee_prefer_cex(void *object, uintptr_t condition);

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

#ifdef __cplusplus
}
#endif

#endif /* KLEE_H */
