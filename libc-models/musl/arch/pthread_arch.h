/* symtest: replaces musl's arch/x86_64/pthread_arch.h. The thread pointer is an
 * ordinary global (one thread per state) instead of %fs:0; see src/tls.c. */

extern uintptr_t __symtest_tp;

static inline uintptr_t __get_tp()
{
	return __symtest_tp;
}

#define MC_PC gregs[REG_RIP]
