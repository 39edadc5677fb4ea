/* Concrete, loop-heavy: measures interpreted LLVM instructions per second. */
#include "symtest.h"
unsigned table[256];
int main(void) {
  unsigned h = 2166136261u;
  for (unsigned i = 0; i < 256; i++) table[i] = i * 2654435761u;
  for (unsigned r = 0; r < 20000; r++)
    for (unsigned i = 0; i < 64; i++) {
      h ^= table[(h + i) & 255];
      h *= 16777619u;
    }
  return h & 1;
}
