/* See num_kernel.h: the floating-point variant. */
typedef double NUM;
#include "num_kernel.h"
