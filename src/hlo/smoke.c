#include "hlo/smoke.h"

#include "hlo/builder.h"

mx_status_t mx_hlo_smoke_add(char **text_out) {
  mx_hlo_t *h = mx_hlo_create();
  if (!h) return mx_status_oom();
  int64_t dims[2] = {MX_SMOKE_ADD_ROWS, MX_SMOKE_ADD_COLS};
  mx_hval_t types[2] = {mx_htype(MX_F32, 2, dims), mx_htype(MX_F32, 2, dims)}, args[2];
  mx_hlo_func_begin(h, "add", 2, types, args);
  mx_hval_t sum = mx_hlo_add(h, args[0], args[1]);
  mx_hlo_func_end(h, 1, &sum);
  mx_hlo_func_begin(h, "empty", 0, NULL, NULL);
  mx_hlo_func_end(h, 0, NULL);
  mx_status_t st = mx_hlo_finish(h, text_out);
  mx_hlo_destroy(h);
  return st;
}

mx_status_t mx_hlo_smoke_matmul(char **text_out) {
  mx_hlo_t *h = mx_hlo_create();
  if (!h) return mx_status_oom();
  int64_t da[2] = {MX_SMOKE_MM_M, MX_SMOKE_MM_K}, db[2] = {MX_SMOKE_MM_K, MX_SMOKE_MM_N};
  mx_hval_t types[2] = {mx_htype(MX_F32, 2, da), mx_htype(MX_F32, 2, db)}, args[2];
  mx_hlo_func_begin(h, "matmul", 2, types, args);
  mx_hval_t prod = mx_hlo_matmul(h, args[0], args[1]);
  mx_hlo_func_end(h, 1, &prod);
  mx_status_t st = mx_hlo_finish(h, text_out);
  mx_hlo_destroy(h);
  return st;
}
