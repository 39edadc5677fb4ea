/* Sums of powers up to a symbolic bound, as in verification tasks that check
 * a closed form at every iteration: x = 1^3 + ... + y^3 must equal
 * (y(y+1)/2)^2. Only the bound `k` is symbolic: every iteration forks on
 * `c < k` and the invariant is concrete on each path. */
#include "symtest.h"

int main(void) {
    int k = symtest_int("k");
    symtest_assume(k >= 0);
    symtest_assume(k <= 2000);
    long long x = 0, y = 0, c = 0;
    while (1) {
        long long t = y * (y + 1) / 2;
        symtest_assert(4 * x == 4 * t * t);
        if (!(c < k))
            break;
        c++;
        y++;
        x += y * y * y;
    }
    return (int)(x & 1);
}
