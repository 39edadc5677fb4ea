/* See num_kernel.h: the integer variant. */
typedef long NUM;
#include "num_kernel.h"
