/* Helpers shared by the cmocka unit tests. */
#ifndef MX_TESTS_TESTUTIL_H
#define MX_TESTS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/status.h"

/* Asserts that `st` failed at `stage` with a message containing `needle` (NULL: any), then frees it. */
#define assert_status(st, stage, needle) mx_test_assert_status((st), (stage), (needle), __FILE__, __LINE__)

static inline void mx_test_assert_status(mx_status_t st, mx_stage_t stage, const char *needle, const char *file,
                                         int line) {
  if (!st) _fail(file, line);
  if (mx_status_stage(st) != stage || (needle && !strstr(mx_status_message(st), needle))) {
    fprintf(stderr, "%s:%d: expected stage %s containing '%s', got: ", file, line, mx_stage_name(stage),
            needle ? needle : "");
    mx_status_print(stderr, st);
    mx_status_free(st);
    _fail(file, line);
  }
  /* Every status prints as exactly one line. */
  assert_null(strchr(mx_status_message(st), '\n'));
  assert_null(strchr(mx_status_remedy(st), '\n'));
  mx_status_free(st);
}

#define assert_ok(st)                      \
  do {                                     \
    mx_status_t st__ = (st);               \
    if (st__) {                            \
      mx_status_print(stderr, st__);       \
      mx_status_free(st__);                \
      fail();                              \
    }                                      \
  } while (0)

/* The Llama 3 tokenizer in the shared data folder beside the checkout (CI lays it there too);
 * MLXCEL_SHARED_DIR overrides the folder. */
static inline const char *mx_test_llama3_tokenizer_dir(void) {
  static char path[4096];
  const char *shared = getenv("MLXCEL_SHARED_DIR");
  snprintf(path, sizeof path, "%s/data/llama3-tokenizer", shared && shared[0] ? shared : "../shared");
  return path;
}

#endif
