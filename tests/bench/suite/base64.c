/*
 * base64.c - RFC 4648 base64: encoding with padding, and a strict decoder
 * that rejects characters outside the alphabet, bad padding and
 * non-canonical trailing bits.  Decoding what was encoded must give the
 * input back.
 *
 * Harness: a symbolic base64 text of up to 8 characters is decoded (the
 * output buffer is sized from the text length), re-encoded and compared;
 * a symbolic 4-byte binary string is encoded and decoded.
 *
 * Planted bug: the decoded size subtracts two bytes (instead of one) for
 * the second padding character, so for texts ending in "==" the buffer is
 * one byte short and the decoder's terminating NUL lands past it.
 */
#include "symtest.h"
#include <stdlib.h>

#define TEXT_LEN 8
#define BIN_LEN 4

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int decode_char(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

static unsigned encoded_len(unsigned n) { return (n + 2) / 3 * 4; }

static unsigned encode(char *out, const unsigned char *in, unsigned n) {
  unsigned i, o = 0;
  for (i = 0; i + 2 < n; i += 3) {
    unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
    out[o++] = alphabet[v >> 18];
    out[o++] = alphabet[(v >> 12) & 63];
    out[o++] = alphabet[(v >> 6) & 63];
    out[o++] = alphabet[v & 63];
  }
  if (i < n) {
    unsigned v = (unsigned)in[i] << 16;
    if (i + 1 < n)
      v |= (unsigned)in[i + 1] << 8;
    out[o++] = alphabet[v >> 18];
    out[o++] = alphabet[(v >> 12) & 63];
    out[o++] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
    out[o++] = '=';
  }
  return o;
}

/* Bytes needed to decode a text of length len (without the NUL). */
static unsigned decoded_size(const char *text, unsigned len) {
  unsigned n = len / 4 * 3;
  if (len % 4 != 0)
    return 0;
  if (len >= 1 && text[len - 1] == '=')
    n--;
  if (len >= 2 && text[len - 2] == '=')
    n -= 2; /* bug: should be 1 */
  return n;
}

/* Decodes text into out and NUL-terminates it; returns the decoded length,
 * or -1 if the text is not canonical base64. */
static int decode(unsigned char *out, const char *text, unsigned len) {
  unsigned i, o = 0;
  if (len % 4 != 0)
    return -1;
  for (i = 0; i < len; i += 4) {
    int a = decode_char(text[i]), b = decode_char(text[i + 1]);
    int c, d;
    int last = i + 4 == len;
    if (a < 0 || b < 0)
      return -1;
    if (last && text[i + 2] == '=') {
      if (text[i + 3] != '=' || (b & 15) != 0)
        return -1;
      out[o++] = (unsigned char)(a << 2 | b >> 4);
      break;
    }
    c = decode_char(text[i + 2]);
    if (c < 0)
      return -1;
    if (last && text[i + 3] == '=') {
      if ((c & 3) != 0)
        return -1;
      out[o++] = (unsigned char)(a << 2 | b >> 4);
      out[o++] = (unsigned char)((b & 15) << 4 | c >> 2);
      break;
    }
    d = decode_char(text[i + 3]);
    if (d < 0)
      return -1;
    out[o++] = (unsigned char)(a << 2 | b >> 4);
    out[o++] = (unsigned char)((b & 15) << 4 | c >> 2);
    out[o++] = (unsigned char)((c & 3) << 6 | d);
  }
  out[o] = '\0'; // EXPECT-ERROR: ptr
  return (int)o;
}

static int same(const char *a, const char *b, unsigned n) {
  unsigned i;
  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

int main(void) {
  char text[TEXT_LEN];
  unsigned char bin[BIN_LEN], round[BIN_LEN];
  char enc[TEXT_LEN + 4];
  unsigned char *out;
  unsigned len = (unsigned)symtest_range(0, TEXT_LEN + 1, "len");
  unsigned nbin = (unsigned)symtest_range(0, BIN_LEN + 1, "binlen");
  int n;
  symtest_make_symbolic(text, sizeof text, "text");
  symtest_make_symbolic(bin, sizeof bin, "bin");

  out = malloc(decoded_size(text, len) + 1);
  if (!out)
    return 1;
  n = decode(out, text, len);
  if (n >= 0) {
    unsigned m = encode(enc, out, (unsigned)n);
    symtest_assert(m == len && same(enc, text, len));
  }
  free(out);

  n = (int)encode(enc, bin, nbin);
  symtest_assert((unsigned)n == encoded_len(nbin));
  symtest_assert(decode(round, enc, (unsigned)n) == (int)nbin);
  symtest_assert(same((const char *)round, (const char *)bin, nbin));
  return 0;
}
