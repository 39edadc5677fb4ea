/*
 * bitset.c - a fixed-capacity bitset stored in 32-bit words: set, clear,
 * toggle and test single bits, set and clear ranges, population count,
 * find-first-set from a position, and union/intersection with a second
 * set.  Checked against a byte-per-bit model.
 *
 * Harness: a symbolic sequence of operations with bit indices.
 *
 * Planted bug: `bitset_clear_range` visits words up to hi / 32 inclusive;
 * a range that ends at the capacity touches the word after the last one.
 */
#include "symtest.h"
#include <stdlib.h>

#define NBITS 64
#define NWORDS (NBITS / 32)
#define NOPS 5

struct bitset {
  unsigned *words; /* NWORDS words */
};

static unsigned popcount32(unsigned x) {
  unsigned n = 0;
  while (x) {
    x &= x - 1;
    n++;
  }
  return n;
}

static int bitset_init(struct bitset *b) {
  int i;
  b->words = malloc(NWORDS * sizeof *b->words);
  if (!b->words)
    return 0;
  for (i = 0; i < NWORDS; i++)
    b->words[i] = 0;
  return 1;
}

static void bitset_set(struct bitset *b, unsigned i) { b->words[i / 32] |= 1u << (i % 32); }
static void bitset_clear(struct bitset *b, unsigned i) { b->words[i / 32] &= ~(1u << (i % 32)); }
static void bitset_toggle(struct bitset *b, unsigned i) { b->words[i / 32] ^= 1u << (i % 32); }
static int bitset_test(const struct bitset *b, unsigned i) { return (b->words[i / 32] >> (i % 32)) & 1; }

/* Sets bits [lo, hi). */
static void bitset_set_range(struct bitset *b, unsigned lo, unsigned hi) {
  unsigned i;
  if (lo >= hi)
    return;
  for (i = lo; i < hi; i++) {
    if (i % 32 == 0 && i + 32 <= hi) {
      b->words[i / 32] = ~0u;
      i += 31;
      continue;
    }
    bitset_set(b, i);
  }
}

/* Clears bits [lo, hi) a word at a time. */
static void bitset_clear_range(struct bitset *b, unsigned lo, unsigned hi) {
  unsigned w;
  if (lo >= hi)
    return;
  for (w = lo / 32; w <= hi / 32; w++) { /* bug: one word too many when hi == NBITS */
    unsigned first = w * 32, mask = ~0u;
    if (first < lo)
      mask &= ~0u << (lo - first);
    if (hi < first + 32)
      mask &= (1u << (hi - first)) - 1;
    b->words[w] &= ~mask; // EXPECT-ERROR: ptr
  }
}

static unsigned bitset_count(const struct bitset *b) {
  unsigned i, n = 0;
  for (i = 0; i < NWORDS; i++)
    n += popcount32(b->words[i]);
  return n;
}

/* Index of the first set bit at or after `from`, or NBITS. */
static unsigned bitset_next(const struct bitset *b, unsigned from) {
  unsigned i;
  for (i = from; i < NBITS; i++) {
    if (i % 32 == 0 && b->words[i / 32] == 0) {
      i += 31;
      continue;
    }
    if (bitset_test(b, i))
      return i;
  }
  return NBITS;
}

static unsigned char model[NBITS];

int main(void) {
  unsigned char ops[NOPS][3];
  struct bitset b;
  unsigned i, k;
  symtest_make_symbolic(ops, sizeof ops, "ops");
  if (!bitset_init(&b))
    return 1;
  for (i = 0; i < NOPS; i++) {
    unsigned x = ops[i][1] % NBITS, y = ops[i][2] % (NBITS + 1);
    switch (ops[i][0] & 7) {
    case 0:
      bitset_set(&b, x);
      model[x] = 1;
      break;
    case 1:
      bitset_clear(&b, x);
      model[x] = 0;
      break;
    case 2:
      bitset_toggle(&b, x);
      model[x] ^= 1;
      break;
    case 3:
      symtest_assert(bitset_test(&b, x) == model[x]);
      break;
    case 4:
      bitset_set_range(&b, x, y);
      for (k = x; k < y; k++)
        model[k] = 1;
      break;
    case 5:
      bitset_clear_range(&b, x, y);
      for (k = x; k < y; k++)
        model[k] = 0;
      break;
    case 6: {
      unsigned n = 0;
      for (k = 0; k < NBITS; k++)
        n += model[k];
      symtest_assert(bitset_count(&b) == n);
      break;
    }
    default: {
      unsigned nx = bitset_next(&b, x);
      for (k = x; k < nx; k++)
        symtest_assert(!model[k]);
      if (nx < NBITS)
        symtest_assert(model[nx]);
      break;
    }
    }
  }
  free(b.words);
  return 0;
}
