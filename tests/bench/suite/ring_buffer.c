/*
 * ring_buffer.c - a byte ring buffer with a power-of-two capacity:
 * push/pop of single bytes, bulk write and read that wrap around, peek at
 * an offset, discard, and growth (doubling) that linearizes the contents.
 * Every operation is checked against a simple model (a shadow array kept
 * in order) with symtest_assert.
 *
 * Harness: a symbolic sequence of commands (opcode + operand byte).
 *
 * EXPECT-NO-ERRORS
 */
#include "symtest.h"
#include <stdlib.h>

#define NCMDS 6
#define MODEL_CAP 64

struct ring {
  unsigned char *buf;
  unsigned cap; /* power of two */
  unsigned head; /* index of the oldest byte */
  unsigned len;
};

static int ring_init(struct ring *r, unsigned cap) {
  r->buf = malloc(cap);
  r->cap = cap;
  r->head = 0;
  r->len = 0;
  return r->buf != 0;
}

static int ring_grow(struct ring *r) {
  unsigned i, ncap = r->cap * 2;
  unsigned char *nbuf;
  if (ncap > MODEL_CAP)
    return 0;
  nbuf = malloc(ncap);
  if (!nbuf)
    return 0;
  for (i = 0; i < r->len; i++)
    nbuf[i] = r->buf[(r->head + i) & (r->cap - 1)];
  free(r->buf);
  r->buf = nbuf;
  r->cap = ncap;
  r->head = 0;
  return 1;
}

static int ring_push(struct ring *r, unsigned char b) {
  if (r->len == r->cap && !ring_grow(r))
    return 0;
  r->buf[(r->head + r->len) & (r->cap - 1)] = b;
  r->len++;
  return 1;
}

static int ring_pop(struct ring *r, unsigned char *out) {
  if (r->len == 0)
    return 0;
  *out = r->buf[r->head];
  r->head = (r->head + 1) & (r->cap - 1);
  r->len--;
  return 1;
}

static int ring_peek(const struct ring *r, unsigned off, unsigned char *out) {
  if (off >= r->len)
    return 0;
  *out = r->buf[(r->head + off) & (r->cap - 1)];
  return 1;
}

static unsigned ring_write(struct ring *r, const unsigned char *src, unsigned n) {
  unsigned i;
  for (i = 0; i < n; i++)
    if (!ring_push(r, src[i]))
      break;
  return i;
}

static unsigned ring_read(struct ring *r, unsigned char *dst, unsigned n) {
  unsigned first, i;
  if (n > r->len)
    n = r->len;
  first = r->cap - r->head;
  if (first > n)
    first = n;
  for (i = 0; i < first; i++)
    dst[i] = r->buf[r->head + i];
  for (; i < n; i++)
    dst[i] = r->buf[i - first];
  r->head = (r->head + n) & (r->cap - 1);
  r->len -= n;
  return n;
}

static void ring_discard(struct ring *r, unsigned n) {
  if (n >= r->len) {
    r->head = 0;
    r->len = 0;
    return;
  }
  r->head = (r->head + n) & (r->cap - 1);
  r->len -= n;
}

/* the model: bytes in order */
static unsigned char model[MODEL_CAP];
static unsigned model_len;

static void model_drop(unsigned n) {
  unsigned i;
  if (n > model_len)
    n = model_len;
  for (i = n; i < model_len; i++)
    model[i - n] = model[i];
  model_len -= n;
}

int main(void) {
  unsigned char cmds[NCMDS][2];
  unsigned char tmp[8];
  struct ring r;
  int i;
  unsigned k;
  symtest_make_symbolic(cmds, sizeof cmds, "cmds");
  if (!ring_init(&r, 4))
    return 1;
  for (i = 0; i < NCMDS; i++) {
    unsigned char op = cmds[i][0] & 7, arg = cmds[i][1];
    unsigned char b;
    switch (op) {
    case 0:
    case 1:
      if (ring_push(&r, arg)) {
        model[model_len++] = arg;
      } else {
        symtest_assert(model_len == MODEL_CAP);
      }
      break;
    case 2:
      if (ring_pop(&r, &b)) {
        symtest_assert(b == model[0]);
        model_drop(1);
      } else {
        symtest_assert(model_len == 0);
      }
      break;
    case 3:
      if (ring_peek(&r, arg & 7, &b))
        symtest_assert(b == model[arg & 7]);
      else
        symtest_assert((arg & 7) >= model_len);
      break;
    case 4: {
      unsigned n = (arg & 7) + 1;
      for (k = 0; k < n; k++)
        tmp[k] = (unsigned char)(arg + k);
      k = ring_write(&r, tmp, n);
      for (n = 0; n < k; n++)
        model[model_len++] = tmp[n];
      break;
    }
    case 5: {
      unsigned got = ring_read(&r, tmp, arg & 7);
      for (k = 0; k < got; k++)
        symtest_assert(tmp[k] == model[k]);
      model_drop(got);
      break;
    }
    case 6:
      ring_discard(&r, arg & 3);
      model_drop(arg & 3);
      break;
    default:
      symtest_assert(r.len == model_len);
      break;
    }
  }
  symtest_assert(r.len == model_len);
  free(r.buf);
  return (int)r.len;
}
