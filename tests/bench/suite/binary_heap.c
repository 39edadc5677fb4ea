/*
 * binary_heap.c - a growable binary min-heap of (priority, id) pairs with
 * push, pop-min, peek, decrease-key by id, and heapify of an array, used
 * as a priority queue.  After every operation the heap property is checked
 * with symtest_assert, and popped priorities must never decrease.
 *
 * Harness: a symbolic sequence of operations.
 *
 * EXPECT-NO-ERRORS
 */
#include "symtest.h"
#include <stdlib.h>

#define NOPS 6

struct item {
  int prio;
  int id;
};

struct heap {
  struct item *a;
  int len;
  int cap;
};

static void swap(struct item *x, struct item *y) {
  struct item t = *x;
  *x = *y;
  *y = t;
}

static void sift_up(struct heap *h, int i) {
  while (i > 0) {
    int parent = (i - 1) / 2;
    if (h->a[parent].prio <= h->a[i].prio)
      break;
    swap(&h->a[parent], &h->a[i]);
    i = parent;
  }
}

static void sift_down(struct heap *h, int i) {
  for (;;) {
    int l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->len && h->a[l].prio < h->a[m].prio)
      m = l;
    if (r < h->len && h->a[r].prio < h->a[m].prio)
      m = r;
    if (m == i)
      return;
    swap(&h->a[i], &h->a[m]);
    i = m;
  }
}

static int heap_push(struct heap *h, int prio, int id) {
  if (h->len == h->cap) {
    int ncap = h->cap ? h->cap * 2 : 2;
    struct item *na = realloc(h->a, (size_t)ncap * sizeof *na);
    if (!na)
      return 0;
    h->a = na;
    h->cap = ncap;
  }
  h->a[h->len].prio = prio;
  h->a[h->len].id = id;
  h->len++;
  sift_up(h, h->len - 1);
  return 1;
}

static int heap_pop(struct heap *h, struct item *out) {
  if (h->len == 0)
    return 0;
  *out = h->a[0];
  h->len--;
  if (h->len > 0) {
    h->a[0] = h->a[h->len];
    sift_down(h, 0);
  }
  return 1;
}

static int heap_decrease(struct heap *h, int id, int prio) {
  int i;
  for (i = 0; i < h->len; i++) {
    if (h->a[i].id == id) {
      if (prio >= h->a[i].prio)
        return 0;
      h->a[i].prio = prio;
      sift_up(h, i);
      return 1;
    }
  }
  return 0;
}

static void heapify(struct heap *h) {
  int i;
  for (i = h->len / 2 - 1; i >= 0; i--)
    sift_down(h, i);
}

static int heap_ok(const struct heap *h) {
  int i;
  for (i = 1; i < h->len; i++)
    if (h->a[(i - 1) / 2].prio > h->a[i].prio)
      return 0;
  return 1;
}

int main(void) {
  signed char ops[NOPS][2];
  struct heap h = {0, 0, 0};
  struct item it;
  int i, last = -1000, next_id = 0, pops = 0, reorders = 0;
  symtest_make_symbolic(ops, sizeof ops, "ops");
  for (i = 0; i < NOPS; i++) {
    int arg = ops[i][1];
    switch (ops[i][0] & 3) {
    case 0:
    case 1:
      if (!heap_push(&h, arg, next_id++))
        return 1;
      break;
    case 2:
      if (heap_pop(&h, &it)) {
        pops++;
        if (pops > 1 && it.prio < last)
          reorders++; /* a smaller item was pushed since the last pop */
        last = it.prio;
      }
      break;
    default:
      if (arg & 1) {
        if (!heap_decrease(&h, (arg >> 1) & 3, arg >> 3)) {
          /* unknown id or not a decrease */
        }
      } else if (h.len > 1) {
        /* scramble, then rebuild */
        swap(&h.a[0], &h.a[h.len - 1]);
        heapify(&h);
      }
      break;
    }
    symtest_assert(heap_ok(&h));
  }
  /* drain: the remaining items come out in order */
  last = -1000;
  while (heap_pop(&h, &it)) {
    symtest_assert(it.prio >= last);
    last = it.prio;
  }
  free(h.a);
  return pops + 8 * reorders;
}
