/*
 * symtest.h - annotations for programs checked by symtest.
 *
 * A harness includes this header, marks its inputs symbolic and states what
 * it assumes and asserts.  The same source is used in two ways:
 *
 *   - Symbolic execution (`cargo symtest`): the program is compiled to LLVM
 *     bitcode and interpreted by the engine, which implements every function
 *     below itself.  Their bodies are never executed.
 *
 *   - Native replay: the program is compiled natively (with ASan/UBSan) and
 *     linked with libc-models/replay/symtest_replay.c.  That runtime reads the
 *     .ktest file named by the environment variable SYMTEST_KTEST (KLEE's
 *     KTEST_FILE is accepted too) and hands its objects out, in order, to the
 *     calls that create symbolic values.
 *
 * Exit codes of a natively replayed program that are reserved by the runtime:
 *   125  replay mismatch: the .ktest cannot drive this run (missing or corrupt
 *        file, no object left, object size differs, a value outside a
 *        symtest_range, or an assumption that does not hold).
 *   124  user error reported with symtest_report_error / klee_report_error.
 *
 * The header is plain C and usable from C89 to C17 and from C++.
 */
#ifndef SYMTEST_H
#define SYMTEST_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define SYMTEST_NORETURN __attribute__((__noreturn__))
#else
#define SYMTEST_NORETURN
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* symtest_make_symbolic - make the nbytes bytes at addr symbolic.
 *
 * Symbolic execution: the bytes become fresh unconstrained symbolic values
 * (one array of nbytes bytes named `name`; NULL means "unnamed").  nbytes must
 * cover the whole object that addr points into, as in KLEE.
 * Native replay: copies the next object of the .ktest into addr.  The object
 * must be exactly nbytes long, otherwise the run stops with exit code 125.
 * A different name only produces a warning on stderr. */
void symtest_make_symbolic(void *addr, size_t nbytes, const char *name);

/* symtest_assume - add `condition != 0` to the path condition.
 *
 * Symbolic execution: the path continues only with inputs satisfying the
 * condition; no new path is created.  If the condition cannot hold on the
 * current path, the path ends there without a test and without an error (an
 * assumption is the harness's, not a bug of the code under test; a one-time
 * warning names its line).  `&&` and `||` in the condition are branches: the
 * paths where they decide it false end at the assumption.  To constrain
 * without forking, assume each condition separately (or combine comparisons
 * with `&`).
 * Native replay: if the condition is false, prints
 * "symtest-replay: assumption failed" and exits with 125. */
void symtest_assume(uintptr_t condition);

/* symtest_range - a symbolic int in the half-open interval [lo, hi).
 *
 * Symbolic execution: lo must be < hi.  If hi == lo + 1 the result is the
 * constant lo and NO symbolic object is created; otherwise a 4-byte symbolic
 * object named `name` is created and constrained to [lo, hi) (like
 * klee_range: make_symbolic + assumes, no fork).
 * Native replay: if hi == lo + 1 returns lo without consuming an object;
 * otherwise reads the next object as an int (4 bytes, host byte order) and
 * exits with 125 if it lies outside [lo, hi). */
int symtest_range(int lo, int hi, const char *name);

/* symtest_int - an unconstrained symbolic int (a 4-byte object `name`).
 * Native replay: the next object, read as an int. */
int symtest_int(const char *name);

/* symtest_assert - check a property.
 *
 * Symbolic execution: if cond can be 0 on the current path, an `assert` error
 * is reported (with a test case) for those inputs and the path continues with
 * cond != 0 when that is possible.
 * Native replay: if cond is 0, prints "symtest-replay: assertion failed" and
 * calls abort(). */
void symtest_assert(int cond);

/* symtest_prefer_cex - prefer test inputs for which cond holds.
 *
 * Symbolic execution: when the engine picks concrete values for the object
 * obj (the one containing that address) it tries to satisfy cond, without
 * constraining the path.  Native replay: does nothing. */
void symtest_prefer_cex(void *obj, uintptr_t cond);

/* symtest_is_symbolic - 1 if n is symbolic on the current path, else 0.
 * Native replay: always 0. */
unsigned symtest_is_symbolic(uintptr_t n);

/* symtest_get_value_* - a concrete value that x can take on the current path.
 *
 * Symbolic execution: asks the solver for one feasible value and returns it
 * (the path is not constrained to it).  Native replay: returns x. */
int32_t symtest_get_value_i32(int32_t x);
int64_t symtest_get_value_i64(int64_t x);
uint32_t symtest_get_value_u32(uint32_t x);
uint64_t symtest_get_value_u64(uint64_t x);
void *symtest_get_value_ptr(void *x);

/* symtest_silent_exit - end the path without generating a test case.
 * Native replay: exit(status). */
void symtest_silent_exit(int status) SYMTEST_NORETURN;

/* symtest_report_error - report a user-defined error and end the path.
 *
 * Symbolic execution: a `user` error at file:line with the message; suffix
 * names the error file (like KLEE's "<suffix>" in testN.<suffix>).
 * Native replay: prints
 *   "symtest-replay: user error: <file>:<line>: <message>"
 * and exits with 124. */
void symtest_report_error(const char *file, int line, const char *message,
                          const char *suffix) SYMTEST_NORETURN;

/* symtest_abort - end the path with an `abort` error.
 * Native replay: abort(). */
void symtest_abort(void) SYMTEST_NORETURN;

/* symtest_print_expr - print msg and the expression of the following
 * argument (debugging).  Native replay: prints msg on stderr. */
void symtest_print_expr(const char *msg, ...);

/* symtest_warning - print a warning (engine log / stderr under replay). */
void symtest_warning(const char *message);

/* symtest_expect_output - record SIZE bytes at VALUE, under NAME, as part of
 * what the test does (a return value, an output buffer).  The engine checks
 * that the bytes can be read and otherwise ignores the call; the regression
 * suite `cargo symtest` emits records the values of each test's native run
 * and fails the test when a later run records other ones.  Native replay
 * (replay runtime): ignored. */
void symtest_expect_output(const char *name, const void *value, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* SYMTEST_H */
