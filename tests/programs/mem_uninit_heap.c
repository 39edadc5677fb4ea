/* Memory read before it is written: a table that only one path builds
 * (chmlib's LZX decoder reads its Huffman tables after a failed call left
 * them unbuilt) and the part realloc adds to a block. Fresh memory is zero
 * in the engine, and natively too: the replay runtime has AddressSanitizer
 * fill every new block with zero bytes (its own fill is 0xbe, so natively the
 * decoder indexed far past its table and crashed where the engine's path
 * exited 0). Each path exits 0 in both.
 *
 * Paths: `c == 'b'` forks once; every read is of concrete zeros or of the
 * table just built: 2 paths. */
#include <stdlib.h>
#include "symtest.h"

// EXPECT-PATHS: 2
// EXPECT-NO-ERRORS

int main(void) {
  char c;
  symtest_make_symbolic(&c, sizeof c, "c");
  unsigned short *table = malloc(512 * sizeof *table);
  char *grown = malloc(4);
  if (!table || !grown)
    return 3;
  if (c == 'b')
    for (int i = 0; i < 512; i++)
      table[i] = (unsigned short)(i % 64);
  char *bigger = realloc(grown, 64);
  if (!bigger)
    return 3;
  int out = 0;
  for (int i = 0; i < 512; i++)
    out |= table[i] >= 64;
  if (out)
    return 1;
  return bigger[40] != 0 ? 2 : 0;
}
