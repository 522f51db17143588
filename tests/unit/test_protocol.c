#include "testutil.h"

#include "device/protocol.h"

static void header_round_trips(void **state) {
  (void)state;
  uint8_t h[MX_FRAME_HEADER_SIZE];
  mx_frame_header_encode(h, 1234, 0x123456789ull);
  assert_memory_equal(h, "MXW1", 4);
  assert_int_equal(h[4], 1234 & 0xff); /* little endian */
  mx_frame_header_t d;
  assert_ok(mx_frame_header_decode(h, &d));
  assert_int_equal(d.json_len, 1234);
  assert_true(d.bin_len == 0x123456789ull);
}

static void bad_magic_is_a_protocol_error(void **state) {
  (void)state;
  uint8_t h[MX_FRAME_HEADER_SIZE];
  mx_frame_header_encode(h, 10, 0);
  h[0] = 'X';
  mx_frame_header_t d;
  assert_status(mx_frame_header_decode(h, &d), MX_STAGE_PROTOCOL, "magic");
}

static void absurd_lengths_are_refused(void **state) {
  (void)state;
  uint8_t h[MX_FRAME_HEADER_SIZE];
  mx_frame_header_t d;
  mx_frame_header_encode(h, MX_FRAME_MAX_JSON + 1, 0);
  assert_status(mx_frame_header_decode(h, &d), MX_STAGE_PROTOCOL, "out of bounds");
  mx_frame_header_encode(h, 0, 0);
  assert_status(mx_frame_header_decode(h, &d), MX_STAGE_PROTOCOL, "out of bounds");
  mx_frame_header_encode(h, 2, MX_FRAME_MAX_BIN + 1);
  assert_status(mx_frame_header_decode(h, &d), MX_STAGE_PROTOCOL, "out of bounds");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(header_round_trips),
      cmocka_unit_test(bad_magic_is_a_protocol_error),
      cmocka_unit_test(absurd_lengths_are_refused),
  };
  return cmocka_run_group_tests_name("device/protocol", tests, NULL, NULL);
}
