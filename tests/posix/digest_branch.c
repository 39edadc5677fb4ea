/* A branch on a hash of the input (no solver inverts it) next to a plain
 * branch on one byte: the plain one forks, the one on the hash follows the
 * input each path already has (--digest-depth). */
#include <stdio.h>
#include <unistd.h>

static unsigned mix(const unsigned char *b, int n) {
    unsigned h = 2166136261u;
    for (int round = 0; round < 4; round++)
        for (int i = 0; i < n; i++) {
            h = (h ^ b[i]) * 16777619u;
            h ^= h >> 13;
            h += h << 5;
        }
    return h;
}

int main(void) {
    unsigned char buf[8] = {0};
    if (read(0, buf, sizeof buf) != (ssize_t)sizeof buf)
        return 2;
    if (buf[0] == 'a')
        puts("starts with a");
    else
        puts("starts otherwise");
    if ((mix(buf, 8) & 0xff) == 0x5a)
        puts("hash 5a");
    else
        puts("hash other");
    return 0;
}
