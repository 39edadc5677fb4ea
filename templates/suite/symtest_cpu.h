/*
 * symtest_cpu.h - the processor the engine models, for the native build of
 * the code under test (included before each of its files with -include).
 *
 * The engine answers `cpuid` as a processor that reports no leaves and no
 * optional features, so a program that picks code by CPU features (coreutils'
 * wc takes wc_lines_avx2, cksum its PCLMUL code, when the processor has them)
 * runs its portable code there.  Natively the same tests would run the
 * processor's: here <cpuid.h>'s queries answer as in the engine, so each test
 * runs the code the engine ran it through.
 */
#ifndef SYMTEST_CPU_H
#define SYMTEST_CPU_H
#if (defined(__x86_64__) || defined(__i386__)) && defined(__has_include)
#if __has_include(<cpuid.h>)
#include <cpuid.h>
/* A call, not a constant: the compiler keeps the condition's code, so the
 * line that tests it counts as run, as in the engine. */
static unsigned symtest_cpu_none(void) __attribute__((unused));
static unsigned symtest_cpu_none(void) { return 0; }
#undef __cpuid
#undef __cpuid_count
#define __cpuid(leaf, a, b, c, d) ((a) = (b) = (c) = (d) = symtest_cpu_none())
#define __cpuid_count(leaf, count, a, b, c, d) ((a) = (b) = (c) = (d) = symtest_cpu_none())
#define __get_cpuid_max(ext, sig) symtest_cpu_none()
#define __get_cpuid(leaf, a, b, c, d) ((int)symtest_cpu_none())
#define __get_cpuid_count(leaf, count, a, b, c, d) ((int)symtest_cpu_none())
#define __builtin_cpu_supports(feature) ((int)symtest_cpu_none())
#endif
#endif
#endif
