/* IEEE half and bfloat16 conversions (round to nearest even; NaN and infinity kept). */
#ifndef MX_BASE_HALF_H
#define MX_BASE_HALF_H

#include <stdint.h>

float mx_f16_to_f32(uint16_t h);
uint16_t mx_f32_to_f16(float f);
float mx_bf16_to_f32(uint16_t h);
uint16_t mx_f32_to_bf16(float f);

#endif
