/* An option parser that steps over the NUL ending its argument when an
 * option's value is missing, as coreutils pr's getoptarg did on `--e=`:
 * "-w" alone makes it read the byte after the NUL.  Natively the bytes after
 * an argument are another string's (no test can fix them), so the engine
 * reports that access as out of bounds, and the native replay (each argument
 * ends right before an unmapped page) crashes on it as reported.  Reading an
 * argument up to and including its NUL (strlen, the digit loop) is fine. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 2 || argv[1][0] != '-' || argv[1][1] != 'w') {
        printf("length %zu\n", argc < 2 ? (size_t)0 : strlen(argv[1]));
        return 0;
    }
    const char *p = argv[1] + 2;
    if (*p == 0)
        p++; /* the bug: skips the terminator, as if a separator were there */
    if (*p >= '0' && *p <= '9') {
        puts("width");
        return 1;
    }
    puts("no width");
    return 2;
}
