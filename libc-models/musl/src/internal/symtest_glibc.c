/* symtest: the C library the tests are replayed with (see symtest_glibc.h). */
#include "symtest_glibc.h"

int __symtest_glibc = 1;
