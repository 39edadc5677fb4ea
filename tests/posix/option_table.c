/* An argument matched against a table of option names with strcmp, a prefix
 * with strncmp and a file signature on standard input with memcmp. Each
 * comparison is one expression over the bytes compared, so each name is one
 * fork: nine paths in all (six names, the "--" prefix, the signature, none).
 * Compared byte by byte inside the C library, every position of every name
 * would fork. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const names[] = {
    "bytes", "follow", "help", "lines", "quiet", "version",
};

int main(int argc, char **argv) {
    if (argc != 2)
        return 2;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(argv[1], names[i]) == 0) {
            printf("option %s\n", names[i]);
            return 0;
        }
    if (strncmp(argv[1], "--", 2) == 0) {
        puts("long option");
        return 3;
    }
    char head[4];
    if (read(0, head, sizeof head) != (ssize_t)sizeof head)
        return 4;
    if (memcmp(head, "GIF8", sizeof head) == 0) {
        puts("signature");
        return 5;
    }
    puts("none");
    return 1;
}
