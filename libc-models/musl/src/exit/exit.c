/* symtest: musl's exit without the ELF .fini_array walk (there is no ELF image
 * under the engine): atexit handlers, stdio flush, then _Exit. */
#include <stdlib.h>
#include "libc.h"

static void dummy()
{
}

weak_alias(dummy, __funcs_on_exit);
weak_alias(dummy, __stdio_exit);

_Noreturn void exit(int code)
{
	__funcs_on_exit();
	__stdio_exit();
	_Exit(code);
}
