/* See num_kernel.h: the 32-bit integer variant. */
typedef int NUM;
#include "num_kernel.h"
