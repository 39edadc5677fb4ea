/* Host files the program names: devices, FIFOs, pseudo-files, huge files.
 * For each argument, prints what fopen + fread gave: "read N" or "error E".
 * The engine never reads a device or FIFO (open fails with EACCES, /dev/null
 * opens empty), copies at most 16 MiB of a regular file (larger: EFBIG) and
 * reads a /proc file as the size its stat reports (0: empty). */
#include <errno.h>
#include <stdio.h>

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "r");
    if (!f) {
      printf("%s: error %d\n", argv[i], errno);
      continue;
    }
    char buf[64];
    size_t n = fread(buf, 1, sizeof buf, f);
    printf("%s: read %zu\n", argv[i], n);
    fclose(f);
  }
  return 0;
}
