/* A geometric series with a symbolic ratio and a symbolic length: x is
 * 1 + z + ... + z^k and y is z^k, so x * (z - 1) == y * z - 1 holds at
 * every iteration; the products make the queries nonlinear. */
#include "symtest.h"

int main(void) {
    int z = symtest_int("z");
    int k = symtest_int("k");
    symtest_assume(z >= 2);
    symtest_assume(z <= 50);
    symtest_assume(k >= 0);
    symtest_assume(k <= 30);
    long long x = 1, y = 1;
    for (int c = 0; c < k; c++) {
        x = x * z + 1;
        y = y * z;
        if (y > 1000000000LL)
            return 3; /* stop before it overflows */
    }
    symtest_assert(x * (z - 1) == y * z - 1);
    return 0;
}
