/* symtest: which C library the native replay of the tests links, so that the
 * model follows it where musl and glibc disagree on what a program can see.
 * Nonzero (the default): glibc, the host's, which harnesses and programs are
 * replayed with; 0: musl, which a program that injects system-call failures
 * (--max-fail N, N > 0) is replayed with (the suite's LIBC=musl). The POSIX
 * runtime's option parsing sets it (libc-models/posix/init.c), by the rule of
 * symtest-project's recipe::libc. */
#ifndef SYMTEST_GLIBC_H
#define SYMTEST_GLIBC_H
extern int __symtest_glibc;
#endif
