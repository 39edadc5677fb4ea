/* Hardware integer division (shift and subtract): the divisor is doubled
 * while it fits, then halved back, subtracting where it fits. Dividend and
 * divisor are symbolic and meet in every comparison (`r >= d` with
 * d = b << k), with a halving division at each step back. */
#include "symtest.h"

int main(void) {
    unsigned a = (unsigned)symtest_int("a");
    unsigned b = (unsigned)symtest_int("b");
    symtest_assume(a <= 100000);
    symtest_assume(b >= 1);
    symtest_assume(b <= 100000);
    unsigned r = a, d = b, p = 1, q = 0;
    while (r >= d) {
        d = 2 * d;
        p = 2 * p;
    }
    while (p != 1) {
        d = d / 2;
        p = p / 2;
        if (r >= d) {
            r = r - d;
            q = q + p;
        }
    }
    symtest_assert(q * b + r == a);
    symtest_assert(r < b);
    return (int)(q & 1);
}
