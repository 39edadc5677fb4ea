/* A UTF-8 decoder over 8 symbolic bytes, as a C library's mbrtowc decodes
 * (the coreutils wc spent 93% of its minute in Bitwuzla on these
 * conditions): a lead byte in 0xc2..0xf4 indexes a read-only 51-entry
 * table whose entry gives the number of continuation bytes and the range
 * of the first one, so each continuation byte is checked against its lead
 * byte through the table (two-byte conditions) and the code point built
 * from three bytes is compared (three-byte conditions). */
#include "symtest.h"
#include <stdint.h>

#define E(n, lo, hi) (((uint32_t)(n) << 16) | ((uint32_t)(lo) << 8) | (uint32_t)(hi))
#define A E(1, 0x80, 0xbf)
#define B E(2, 0x80, 0xbf)
#define D E(3, 0x80, 0xbf)

static const uint32_t lead[51] = {
    A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, /* c2..d0 */
    A, A, A, A, A, A, A, A, A, A, A, A, A, A, A, /* d1..df */
    E(2, 0xa0, 0xbf), B, B, B, B, B, B, B, B, B, B, B, B, /* e0..ec */
    E(2, 0x80, 0x9f), B, B, /* ed..ef */
    E(3, 0x90, 0xbf), D, D, D, E(3, 0x80, 0x8f), /* f0..f4 */
};

int main(void) {
  unsigned char s[8];
  symtest_make_symbolic(s, sizeof s, "s");
  int chars = 0, bad = 0, wide = 0;
  unsigned i = 0;
  while (i < sizeof s) {
    unsigned c = s[i++];
    if (c < 0x80) {
      chars++;
      continue;
    }
    if (c < 0xc2 || c > 0xf4) {
      bad++;
      continue;
    }
    uint32_t e = lead[c - 0xc2];
    unsigned n = e >> 16, lo = (e >> 8) & 0xff, hi = e & 0xff;
    uint32_t cp = c & (0x3f >> n);
    unsigned k;
    for (k = 0; k < n && i < sizeof s; k++, i++) {
      unsigned d = s[i];
      if (d < (k ? 0x80u : lo) || d > (k ? 0xbfu : hi))
        break;
      cp = cp << 6 | (d - 0x80);
    }
    if (k < n) {
      bad++;
      continue;
    }
    chars++;
    if (cp >= 0x1100 && cp <= 0x115f) /* Hangul Jamo: double width */
      wide++;
  }
  return (chars << 4 | bad << 1 | (wide > 0)) & 0xff;
}
