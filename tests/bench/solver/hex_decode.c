/* Decodes a symbolic hex string through a 256-entry lookup table indexed
 * by the input characters (reads at symbolic indices), then checks a
 * checksum and dispatches on the decoded bytes, like a protocol decoder. */
#include "symtest.h"

#define HEX 8

static signed char hexval[256];

static void init_table(void) {
  for (int c = 0; c < 256; c++)
    hexval[c] = -1;
  for (int c = '0'; c <= '9'; c++)
    hexval[c] = (signed char)(c - '0');
  for (int c = 'a'; c <= 'f'; c++)
    hexval[c] = (signed char)(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; c++)
    hexval[c] = (signed char)(c - 'A' + 10);
}

int main(void) {
  unsigned char in[HEX];
  unsigned char out[HEX / 2];
  symtest_make_symbolic(in, sizeof in, "hex");
  init_table();
  for (int i = 0; i < HEX / 2; i++) {
    int hi = hexval[in[2 * i]];
    int lo = hexval[in[2 * i + 1]];
    if (hi < 0 || lo < 0)
      return 1; /* not a hex digit */
    out[i] = (unsigned char)(hi * 16 + lo);
  }
  unsigned char sum = 0;
  for (int i = 0; i < HEX / 2 - 1; i++)
    sum ^= out[i];
  if (sum != out[HEX / 2 - 1])
    return 2; /* bad checksum */
  switch (out[0] >> 6) {
  case 0:
    return out[1] > 0x7f ? 3 : 4;
  case 1:
    return out[2] == 0 ? 5 : 6;
  default:
    return 7;
  }
}
