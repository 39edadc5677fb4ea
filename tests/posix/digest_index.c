/* A hash of the input decides a branch and then picks an entry of a table
 * of strings, after two forks on plain bytes: four paths reach the branch
 * on the hash, and the table entry is read through a pointer computed
 * from it. By default both follow each path's input (--digest-depth: the
 * pointer takes the address the input gives it). With the depth rule off
 * and a short solver limit, the first path's question on the hash reaches
 * the limit and the later paths do not ask it again. */
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

static const char *const names[7] = {
    "zero", "one", "two", "three", "four", "five", "six",
};

int main(void) {
    unsigned char buf[8] = {0};
    if (read(0, buf, sizeof buf) != (ssize_t)sizeof buf)
        return 2;
    if (buf[0] == 'a')
        puts("starts with a");
    else
        puts("starts otherwise");
    if (buf[1] == 'b')
        puts("then b");
    else
        puts("then other");
    unsigned h = mix(buf, 8);
    if ((h & 0xff) == 0x5a)
        puts("hash 5a");
    else
        puts("hash other");
    puts(names[h % 7]);
    return 0;
}
