/* symtest: musl's allocator is left out; malloc, calloc, realloc and free are the
 * engine's (each allocation its own object, so overflows, use after free and
 * double frees are caught). musl's internal names and the aligned variants map
 * onto them here. */
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

void *__libc_malloc(size_t n)
{
	return malloc(n);
}

void *__libc_malloc_impl(size_t n)
{
	return malloc(n);
}

void *__libc_calloc(size_t m, size_t n)
{
	return calloc(m, n);
}

void *__libc_realloc(void *p, size_t n)
{
	return realloc(p, n);
}

void __libc_free(void *p)
{
	free(p);
}

/* The engine aligns every allocation to 16 bytes. */
void *aligned_alloc(size_t align, size_t len)
{
	if ((align & -align) != align) {
		errno = EINVAL;
		return 0;
	}
	if (align > 16) {
		errno = ENOMEM;
		return 0;
	}
	return malloc(len);
}

int posix_memalign(void **res, size_t align, size_t len)
{
	if (align < sizeof(void *) || (align & -align) != align)
		return EINVAL;
	if (align > 16)
		return ENOMEM;
	void *p = malloc(len);
	if (!p)
		return errno;
	*res = p;
	return 0;
}

void *memalign(size_t align, size_t len)
{
	return aligned_alloc(align, len);
}
