/* memcmp over a length past both buffers, on buffers that differ before
 * their ends: it reads up to the first difference (the engine's memcmp,
 * musl's loop), so no byte past either buffer is read, and natively
 * AddressSanitizer checks only the bytes compared too (strict_memcmp=0;
 * its default checks the whole length first: libsv's semver_id_pcmp
 * compared two ids with the larger of their lengths, (size_t)-1 on a
 * made-up id, and natively aborted on a "negative size" where the engine
 * returned). Exit 3: the length (size_t)-1; 4: a length of 64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    char c;
    if (read(0, &c, 1) != 1)
        return 2;
    char *a = malloc(4), *b = malloc(4);
    if (!a || !b)
        return 2;
    memcpy(a, "abc", 4);
    memcpy(b, "xbd", 4);
    int code;
    size_t n;
    if (c == 'x') {
        a[0] = 'x';
        n = (size_t)-1;
        code = 3;
    } else {
        n = 64;
        code = 4;
    }
    int r = memcmp(a, b, n);
    printf("%s\n", r < 0 ? "less" : r > 0 ? "more" : "equal");
    free(a);
    free(b);
    return code;
}
