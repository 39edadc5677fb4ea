/* The allocator family real utilities use (coreutils' cat allocates its
 * buffer page-aligned; gnulib's xnmalloc calls reallocarray): each returns a
 * whole object at an aligned address, freed like any other. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  void *p = 0;
  if (posix_memalign(&p, 4096, 100) != 0 || ((uintptr_t)p & 4095) != 0)
    return 10;
  memset(p, 'x', 100);
  char *q = aligned_alloc(64, 128);
  if (!q || ((uintptr_t)q & 63) != 0)
    return 11;
  int *r = reallocarray(0, 4, sizeof(int));
  if (!r)
    return 12;
  r[3] = 7;
  errno = 0;
  if (reallocarray(r, (size_t)-1 / 2, 4) != 0 || errno != ENOMEM)
    return 13;
  char c;
  ssize_t n = read(0, &c, 1);
  free(p);
  free(q);
  free(r);
  if (n == 1 && c == 'a') {
    puts("a");
    return 1;
  }
  return 0;
}
