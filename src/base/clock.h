#ifndef MX_BASE_CLOCK_H
#define MX_BASE_CLOCK_H
/* Monotonic milliseconds, for timings and deadlines. */
double mx_now_ms(void);
#endif
