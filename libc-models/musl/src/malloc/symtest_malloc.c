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

/* The engine aligns every allocation to 16 bytes; larger alignments (up to a
 * page, 4096) are placed by the engine itself, so the object still starts at
 * the pointer returned (free and bounds checks see a whole object). */
void *__symtest_aligned_malloc(size_t align, size_t len);

static void *aligned(size_t align, size_t len)
{
	if (align <= 16)
		return malloc(len);
	if (align > 4096) {
		errno = ENOMEM;
		return 0;
	}
	void *p = __symtest_aligned_malloc(align, len);
	if (!p)
		errno = ENOMEM;
	return p;
}

void *aligned_alloc(size_t align, size_t len)
{
	if ((align & -align) != align) {
		errno = EINVAL;
		return 0;
	}
	return aligned(align, len);
}

int posix_memalign(void **res, size_t align, size_t len)
{
	if (align < sizeof(void *) || (align & -align) != align)
		return EINVAL;
	void *p = aligned(align, len);
	if (!p)
		return ENOMEM;
	*res = p;
	return 0;
}

void *memalign(size_t align, size_t len)
{
	return aligned_alloc(align, len);
}

/* reallocarray (musl 1.2.3 has it in src/malloc, which the runtime leaves out). */
void *reallocarray(void *p, size_t m, size_t n)
{
	if (n && m > (size_t)-1 / n) {
		errno = ENOMEM;
		return 0;
	}
	return realloc(p, m * n);
}
