#include "base/build_info.h"

#ifndef MX_GIT_COMMIT
#define MX_GIT_COMMIT "unknown"
#endif
#ifndef MX_BUILD_DATE
#define MX_BUILD_DATE "unknown"
#endif

const char *mx_build_commit(void) { return MX_GIT_COMMIT; }
const char *mx_build_date(void) { return MX_BUILD_DATE; }
