/* A tokenizer in the C library whose forks lead somewhere: strtol parses
 * standard input under one call of the program, and every number of bytes
 * it consumes takes the program to its own line. Quoting-like forks that
 * lead nowhere use up a call site's --library-forks; forks after which the
 * path covers new program code give the site a quarter of its budget back.
 * With --library-forks 4 (five paths through strtol without the credit) six
 * of the seven counts are reached; the native replay agrees
 * with every test. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    char buf[7] = {0};
    if (read(0, buf, 6) != 6)
        return 2;
    char *end;
    (void)strtol(buf, &end, 10);
    switch (end - buf) {
    case 0:
        puts("consumed 0");
        break;
    case 1:
        puts("consumed 1");
        break;
    case 2:
        puts("consumed 2");
        break;
    case 3:
        puts("consumed 3");
        break;
    case 4:
        puts("consumed 4");
        break;
    case 5:
        puts("consumed 5");
        break;
    default:
        puts("consumed 6");
        break;
    }
    return 0;
}
