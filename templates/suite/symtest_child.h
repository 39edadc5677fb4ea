/*
 * symtest_child.h - how the child process of a test starts, before the code
 * under test runs (symtest_child.c; used by symtest_runner.c).
 */
#ifndef SYMTEST_CHILD_H
#define SYMTEST_CHILD_H

#include <stddef.h>

struct symtest_case;

/* The failures test `c` injects (its *_fail objects, ENV_CONTRACT order) as
 * the failure shim's spec "read=1,open=2" in `spec`; 0 when it injects none. */
int symtest_case_fail_spec(const struct symtest_case *c, char *spec, size_t size);
/* A whole program's arguments (at most `max` - 1, argv[0] its name, then a
 * NULL) rebuilt from the objects of symtest_current; it enters `files_dir`
 * (the test's directory, or NULL) and writes its files A, B, ... there.
 * Returns argc. */
int symtest_program_argv(char **argv, int max, const char *files_dir);
/* Standard input: a regular file holding the test's stdin object. */
void symtest_feed_stdin(void);
/* environ: the engine's fixed environment. */
void symtest_fixed_environment(void);
/* The C library's idea of the program's name: symtest_program_name. */
void symtest_set_program_name(void);
/* SIGALRM after `ms` milliseconds of the process's processor time. */
void symtest_arm_timeout(unsigned ms);
/* A coverage build's per-test profile, COVERAGE_DIR/<test>.profraw, written
 * also when a crash ends the test (nothing without SYMTEST_COVERAGE). */
void symtest_coverage_setup(const struct symtest_case *c, const char *coverage_dir);

#endif
