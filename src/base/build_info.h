/* What the binary was built from: the repository commit (with "-dirty" for uncommitted changes) and
 * the build date, passed in by the Makefile to build_info.o alone, for the qualification baseline. */
#ifndef MX_BASE_BUILD_INFO_H
#define MX_BASE_BUILD_INFO_H

const char *mx_build_commit(void);
const char *mx_build_date(void);

#endif
