/* symtest: replaces musl's memset (x86_64 assembly); llvm.memset in the engine. */
#include <string.h>

void *memset(void *dest, int c, size_t n)
{
	__builtin_memset(dest, c, n);
	return dest;
}
