/*
 * utf8_valid.c - a UTF-8 decoder and validator following RFC 3629: it
 * rejects overlong forms, surrogates (U+D800..U+DFFF), code points above
 * U+10FFFF, truncated sequences and stray continuation bytes; an encoder
 * for code points; and a character-class counter (ASCII letters, digits,
 * other ASCII, BMP, astral).  Encoding a decoded code point must give the
 * same bytes back.
 *
 * EXPECT-NO-ERRORS
 */
#include "symtest.h"

#define INPUT_LEN 8

enum { U_ERR = -1 };

/* Decodes one code point at s[*i]; returns it or U_ERR. */
static long decode_one(const unsigned char *s, int n, int *i) {
  unsigned char c = s[*i];
  long cp;
  int need, k;
  if (c < 0x80) {
    (*i)++;
    return c;
  }
  if (c < 0xC2)
    return U_ERR; /* continuation byte or overlong 2-byte lead */
  if (c < 0xE0) {
    need = 1;
    cp = c & 0x1F;
  } else if (c < 0xF0) {
    need = 2;
    cp = c & 0x0F;
  } else if (c < 0xF5) {
    need = 3;
    cp = c & 0x07;
  } else {
    return U_ERR;
  }
  if (*i + need >= n)
    return U_ERR;
  for (k = 1; k <= need; k++) {
    unsigned char cc = s[*i + k];
    if ((cc & 0xC0) != 0x80)
      return U_ERR;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if (need == 2 && cp < 0x800)
    return U_ERR;
  if (need == 3 && (cp < 0x10000 || cp > 0x10FFFF))
    return U_ERR;
  if (cp >= 0xD800 && cp <= 0xDFFF)
    return U_ERR;
  *i += need + 1;
  return cp;
}

static int encode_one(unsigned char *out, long cp) {
  if (cp < 0x80) {
    out[0] = (unsigned char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (unsigned char)(0xC0 | (cp >> 6));
    out[1] = (unsigned char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (unsigned char)(0xE0 | (cp >> 12));
    out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (unsigned char)(0xF0 | (cp >> 18));
  out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (unsigned char)(0x80 | (cp & 0x3F));
  return 4;
}

struct classes {
  int letters, digits, other_ascii, bmp, astral;
};

static void classify(long cp, struct classes *c) {
  if (cp < 0x80) {
    if ((cp | 32) >= 'a' && (cp | 32) <= 'z')
      c->letters++;
    else if (cp >= '0' && cp <= '9')
      c->digits++;
    else
      c->other_ascii++;
  } else if (cp < 0x10000) {
    c->bmp++;
  } else {
    c->astral++;
  }
}

/* Returns the number of code points, or -(offset + 1) of the first error. */
static int utf8_scan(const unsigned char *s, int n, struct classes *c) {
  int i = 0, count = 0;
  while (i < n) {
    int start = i, k, len;
    unsigned char again[4];
    long cp = decode_one(s, n, &i);
    if (cp == U_ERR)
      return -(start + 1);
    len = encode_one(again, cp);
    symtest_assert(len == i - start);
    for (k = 0; k < len; k++)
      symtest_assert(again[k] == s[start + k]);
    classify(cp, c);
    count++;
  }
  return count;
}

int main(void) {
  unsigned char s[INPUT_LEN];
  struct classes c = {0, 0, 0, 0, 0};
  int n = symtest_range(1, INPUT_LEN + 1, "len");
  int r;
  symtest_make_symbolic(s, sizeof s, "bytes");
  r = utf8_scan(s, n, &c);
  if (r < 0)
    return 1;
  if (c.astral > 0)
    return 2;
  if (c.bmp > 0)
    return 3;
  return c.letters > c.digits ? 4 : 0;
}
