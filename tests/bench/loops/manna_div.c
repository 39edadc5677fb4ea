/* Manna's division by repeated subtraction of one: q and r count up while
 * y3 counts the dividend down. Both inputs are symbolic; each iteration
 * compares one of them with a concrete value (y3 = a - steps, r + 1 == b),
 * and the result is checked against the definition of division. */
#include "symtest.h"

int main(void) {
    int a = symtest_int("a");
    int b = symtest_int("b");
    symtest_assume(a >= 0);
    symtest_assume(a <= 300);
    symtest_assume(b >= 1);
    symtest_assume(b <= 20);
    int q = 0, r = 0, y3 = a;
    while (y3 != 0) {
        if (r + 1 == b) {
            q++;
            r = 0;
        } else {
            r++;
        }
        y3--;
    }
    symtest_assert(q * b + r == a);
    symtest_assert(r < b);
    return q;
}
