/* symtest: replaces musl's __set_thread_area (x86_64 assembly, arch_prctl).
 * The thread pointer is the global __symtest_tp (see pthread_arch.h). */
#include <stdint.h>
#include "pthread_impl.h"

int __set_thread_area(void *p)
{
	__symtest_tp = (uintptr_t)p;
	return 0;
}
