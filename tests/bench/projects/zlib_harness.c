/* zlib: inflate a symbolic compressed stream (uncompress). */
#include "symtest.h"
#include "zlib.h"

int main(void) {
  unsigned char in[12], out[32];
  symtest_make_symbolic(in, sizeof in, "deflated");
  uLongf n = sizeof out;
  int r = uncompress(out, &n, in, sizeof in);
  return r == Z_OK ? (int)n : 0;
}
