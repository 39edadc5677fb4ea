/* symtest: replaces musl's memmove (x86_64 assembly); llvm.memmove in the engine. */
#include <string.h>

void *memmove(void *dest, const void *src, size_t n)
{
	__builtin_memmove(dest, src, n);
	return dest;
}
