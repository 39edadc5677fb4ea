/* A number parsed from standard input by the C library's strtol: the
 * library's code forks on every byte's character class, all under one call
 * of the program. With --library-forks 8 that call site's forks run out and
 * strtol's further branches follow the current input, while the program's
 * own branches on the result still fork; with 0 every branch forks. Every
 * test replays natively as recorded either way. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    char buf[6] = {0};
    if (read(0, buf, 5) != 5)
        return 2;
    char *end;
    long v = strtol(buf, &end, 10);
    if (end == buf) {
        puts("no number");
        return 1;
    }
    if (v > 100) {
        puts("big");
        return 0;
    }
    puts("small");
    return 0;
}
