/* Prints its own name, as usage messages do (`basename: missing operand`):
 * the engine's argv[0] and the natively replayed program's must agree. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    printf("%s: missing operand\n", argv[0]);
    return 1;
  }
  if (strcmp(argv[1], "-v") == 0) {
    printf("%s 1.0\n", argv[0]);
    return 0;
  }
  printf("%s\n", argv[1]);
  return 0;
}
