/* The smoke graphs: an f32 add and an f32 matmul, the smallest programs that prove a compiler +
 * runtime + device path end to end, and an empty function for measuring the bridge's per-call cost. */
#ifndef MX_HLO_SMOKE_H
#define MX_HLO_SMOKE_H

#include "base/status.h"

#define MX_SMOKE_ADD_ROWS 2
#define MX_SMOKE_ADD_COLS 3
#define MX_SMOKE_MM_M 64
#define MX_SMOKE_MM_K 128
#define MX_SMOKE_MM_N 32

/* @add(x: 2x3 f32, y: 2x3 f32) -> x + y, and @empty() -> () */
MX_MUST_USE mx_status_t mx_hlo_smoke_add(char **text_out);
/* @matmul(a: 64x128 f32, b: 128x32 f32) -> a b */
MX_MUST_USE mx_status_t mx_hlo_smoke_matmul(char **text_out);

#endif
