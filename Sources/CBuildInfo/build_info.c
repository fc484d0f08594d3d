#include "build_info.h"

#ifndef TRELLIS_COMMIT
#define TRELLIS_COMMIT ""
#endif

const char *trellis_build_commit(void) { return TRELLIS_COMMIT; }
