/* Decimal digits of a symbolic number by repeated division and remainder
 * by 10 (itoa, digit sums, checksums of account numbers): every loop test
 * and digit is a chain of divisions by a constant. */
#include "symtest.h"

int main(void) {
    unsigned n = (unsigned)symtest_int("n");
    unsigned m = n, digits = 0, sum = 0, rev = 0;
    do {
        sum += m % 10;
        rev = rev * 10 + m % 10;
        m /= 10;
        digits++;
    } while (m != 0);
    if (sum % 9 == n % 9)
        symtest_assert(digits >= 1);
    if (digits == 3 && rev == n)
        return 1; /* a three-digit palindrome */
    if (sum == 27)
        return 2;
    return 0;
}
