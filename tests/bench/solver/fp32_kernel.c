/* See num_kernel.h: the single-precision variant. */
typedef float NUM;
#include "num_kernel.h"
