/* See num_kernel.h: the x86_fp80 variant. */
typedef long double NUM;
#include "num_kernel.h"
