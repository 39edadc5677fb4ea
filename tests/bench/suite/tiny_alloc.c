/*
 * tiny_alloc.c - a first-fit allocator over a static arena with block
 * headers, splitting of large free blocks, coalescing of adjacent free
 * blocks on free, and realloc that grows in place when the next block is
 * free.  A small "handle table" API on top hands out indices; large
 * requests bypass the arena and go to malloc.
 *
 * Harness: a symbolic sequence of alloc/free/realloc/write operations on
 * four handles, with consistency checks of the block list.
 *
 * Planted bug: releasing a handle that holds a large (malloc'ed) block does
 * not clear the handle, so releasing it twice frees the block twice.
 */
#include "symtest.h"
#include <stdlib.h>

#define ARENA 128
#define ALIGN 8
#define HDR ((unsigned)sizeof(struct block))
#define LARGE 48
#define NHANDLES 4
#define NOPS 6

struct block {
  unsigned size; /* payload bytes */
  unsigned free;
};

static unsigned char arena[ARENA] __attribute__((aligned(8)));

static struct block *first_block(void) { return (struct block *)arena; }

static struct block *next_block(struct block *b) {
  unsigned char *p = (unsigned char *)b + HDR + b->size;
  return p < arena + ARENA ? (struct block *)p : 0;
}

static void arena_init(void) {
  struct block *b = first_block();
  b->size = ARENA - HDR;
  b->free = 1;
}

static unsigned round_up(unsigned n) { return (n + ALIGN - 1) & ~(unsigned)(ALIGN - 1); }

static void *arena_alloc(unsigned n) {
  struct block *b;
  n = round_up(n ? n : 1);
  for (b = first_block(); b; b = next_block(b)) {
    if (!b->free || b->size < n)
      continue;
    if (b->size >= n + HDR + ALIGN) {
      struct block *rest = (struct block *)((unsigned char *)b + HDR + n);
      rest->size = b->size - n - HDR;
      rest->free = 1;
      b->size = n;
    }
    b->free = 0;
    return (unsigned char *)b + HDR;
  }
  return 0;
}

static void coalesce(void) {
  struct block *b = first_block();
  while (b) {
    struct block *n = next_block(b);
    if (n && b->free && n->free) {
      b->size += HDR + n->size;
      continue;
    }
    b = n;
  }
}

static void arena_free(void *p) {
  struct block *b = (struct block *)((unsigned char *)p - HDR);
  b->free = 1;
  coalesce();
}

static void *arena_realloc(void *p, unsigned n) {
  struct block *b = (struct block *)((unsigned char *)p - HDR), *nx;
  unsigned char *q;
  unsigned i;
  n = round_up(n ? n : 1);
  if (n <= b->size)
    return p;
  nx = next_block(b);
  if (nx && nx->free && b->size + HDR + nx->size >= n) {
    b->size += HDR + nx->size;
    return p;
  }
  q = arena_alloc(n);
  if (!q)
    return 0;
  for (i = 0; i < b->size; i++)
    q[i] = ((unsigned char *)p)[i];
  arena_free(p);
  return q;
}

/* Every block lies in the arena and the sizes add up. */
static int arena_ok(void) {
  unsigned total = 0;
  struct block *b;
  for (b = first_block(); b; b = next_block(b))
    total += HDR + b->size;
  return total == ARENA;
}

struct handle {
  unsigned char *p;
  unsigned size;
  int large;
};

static struct handle handles[NHANDLES];

static int handle_alloc(int h, unsigned n) {
  if (handles[h].p)
    return 0;
  if (n >= LARGE) {
    handles[h].p = malloc(n);
    handles[h].large = 1;
  } else {
    handles[h].p = arena_alloc(n);
    handles[h].large = 0;
  }
  handles[h].size = n;
  return handles[h].p != 0;
}

static void handle_release(int h) {
  if (handles[h].large) {
    free(handles[h].p); // EXPECT-ERROR: free
    return;            /* bug: the handle keeps its pointer */
  }
  if (handles[h].p)
    arena_free(handles[h].p);
  handles[h].p = 0;
}

/* Request sizes come in classes (as an allocator's callers' would). */
static unsigned size_class(unsigned char c) {
  switch (c & 3) {
  case 0:
    return 5;
  case 1:
    return 16;
  case 2:
    return 36;
  default:
    return 60;
  }
}

int main(void) {
  unsigned char ops[NOPS][2];
  int i;
  symtest_make_symbolic(ops, sizeof ops, "ops");
  arena_init();
  for (i = 0; i < NOPS; i++) {
    int h = 0;
    unsigned arg = size_class(ops[i][1]);
    if (ops[i][0] & 1)
      h += 1;
    if (ops[i][0] & 2)
      h += 2;
    switch ((ops[i][0] >> 2) & 3) {
    case 0:
      handle_alloc(h, arg);
      break;
    case 1:
      handle_release(h);
      break;
    case 2:
      if (handles[h].p && !handles[h].large && arg < 40) {
        unsigned char *q = arena_realloc(handles[h].p, arg);
        if (q) {
          handles[h].p = q;
          if (arg > handles[h].size)
            handles[h].size = arg;
        }
      }
      break;
    default:
      if (handles[h].p && !handles[h].large && handles[h].size > 0)
        handles[h].p[(unsigned)ops[i][1] % handles[h].size] = (unsigned char)i;
      break;
    }
    symtest_assert(arena_ok());
  }
  return 0;
}
