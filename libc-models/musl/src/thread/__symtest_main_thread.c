/* symtest: the one thread of a state, set up statically so that errno, locale
 * and stdio locking work from the first instruction, with or without the POSIX
 * runtime's entry (musl's __init_tls reads ELF program headers we do not have). */
#include <stdint.h>
#include "pthread_impl.h"

static struct pthread main_thread = {
	.self = &main_thread,
	.prev = &main_thread,
	.next = &main_thread,
	.tid = 2,
	.detach_state = DT_JOINABLE,
	.locale = &libc.global_locale,
	.robust_list = { .head = &main_thread.robust_list.head },
};

uintptr_t __symtest_tp = (uintptr_t)&main_thread;
