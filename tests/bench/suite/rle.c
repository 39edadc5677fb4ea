/*
 * rle.c - run-length coding in the PackBits format: a header byte h in
 * 0..127 is followed by h + 1 literal bytes, h in 129..255 means the next
 * byte repeated 257 - h times, 128 is a no-op.  The encoder chooses
 * between runs and literal stretches; the decoder checks its input.
 * Decoding an encoding must give the input back.
 *
 * Planted bug: the encoder counts runs up to 129 bytes, one more than the
 * format can express (128), so a run of 129 equal bytes decodes to a
 * different length and the round-trip assertion fails.
 */
#include "symtest.h"
#include <stdlib.h>

#define MAX_RUN 129 /* bug: the format allows 128 */
#define MAX_LITERAL 128
#define INPUT_LEN 10

/* Worst case: one header per 128 literal bytes. */
static unsigned encode_bound(unsigned n) { return n + n / MAX_LITERAL + 1; }

static unsigned run_length(const unsigned char *in, unsigned n, unsigned i) {
  unsigned r = 1;
  while (i + r < n && in[i + r] == in[i] && r < MAX_RUN)
    r++;
  return r;
}

static unsigned rle_encode(unsigned char *out, const unsigned char *in, unsigned n) {
  unsigned i = 0, o = 0;
  while (i < n) {
    unsigned r = run_length(in, n, i);
    if (r >= 3) {
      out[o++] = (unsigned char)(257 - r);
      out[o++] = in[i];
      i += r;
    } else {
      unsigned start = i, len = 0;
      while (i < n && len < MAX_LITERAL && (run_length(in, n, i) < 3)) {
        i++;
        len++;
      }
      out[o++] = (unsigned char)(len - 1);
      while (start < i)
        out[o++] = in[start++];
    }
  }
  return o;
}

/* Returns the decoded length, or -1 if the input is malformed or the
 * output would exceed cap. */
static int rle_decode(unsigned char *out, unsigned cap, const unsigned char *in, unsigned n) {
  unsigned i = 0, o = 0;
  while (i < n) {
    unsigned h = in[i++];
    if (h < 128) {
      unsigned len = h + 1;
      if (i + len > n || o + len > cap)
        return -1;
      while (len--)
        out[o++] = in[i++];
    } else if (h > 128) {
      unsigned len = 257 - h;
      if (i >= n || o + len > cap)
        return -1;
      while (len--)
        out[o++] = in[i];
      i++;
    }
  }
  return (int)o;
}

static unsigned char big[MAX_RUN + 8];

int main(void) {
  unsigned char in[INPUT_LEN], enc[2 * INPUT_LEN + 4], dec[64];
  unsigned char *buf;
  unsigned n = (unsigned)symtest_range(0, INPUT_LEN + 1, "len");
  unsigned long run = (unsigned)symtest_range(MAX_LITERAL - 8, MAX_RUN + 1, "run");
  unsigned m, k;
  int d;
  symtest_make_symbolic(in, sizeof in, "bytes");

  /* arbitrary short inputs: decode the bytes as an encoding, and
   * round-trip them */
  d = rle_decode(dec, sizeof dec, in, n);
  m = rle_encode(enc, in, n);
  symtest_assert(m <= encode_bound(n));
  symtest_assert(rle_decode(dec, sizeof dec, enc, m) == (int)n);
  for (k = 0; k < n; k++)
    symtest_assert(dec[k] == in[k]);

  /* one long run followed by a short tail */
  for (k = 0; k < run; k++)
    big[k] = in[0];
  big[run] = (unsigned char)(in[0] + 1);
  buf = malloc(2 * (MAX_RUN + 8));
  if (!buf)
    return 1;
  m = rle_encode(buf, big, (unsigned)run + 1);
  {
    unsigned char *back = malloc(MAX_RUN + 8);
    if (!back)
      return 1;
    d = rle_decode(back, MAX_RUN + 8, buf, m);
    symtest_assert(d == (int)run + 1); // EXPECT-ERROR: assert
    free(back);
  }
  free(buf);
  return d < 0;
}
