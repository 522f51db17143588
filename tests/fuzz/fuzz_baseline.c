/* libFuzzer target: the qualification kit's phase-0 parsers on arbitrary text (what nvidia-smi,
 * rocminfo, amdgpu-arch, rocm_agent_enumerator, iree-compile and /proc print on a machine we do not
 * control). The first byte picks the parser; the rest, NUL-terminated, is its input. Each must
 * return a value (never crash, never read past the text) that serializes as JSON, with every string
 * valid UTF-8 whatever bytes the tool printed (the first finding: a CPU model name in Latin-1). */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "qualify/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char *text = malloc(size);
  memcpy(text, data + 1, size - 1);
  text[size - 1] = 0;
  json_t *j = NULL;
  char *s = NULL;
  switch (data[0] % 8) {
    case 0: j = mx_qual_parse_nvidia_smi_csv(text); break;
    case 1: j = mx_qual_parse_rocminfo(text); break;
    case 2: j = mx_qual_parse_gfx_list(text); break;
    case 3: j = mx_qual_parse_target_backends(text); break;
    case 4: j = mx_qual_parse_proc_status(text); break;
    case 5: j = mx_qual_parse_cpuinfo(text); break;
    case 6: s = mx_qual_parse_os_release(text); break;
    default: s = mx_qual_parse_cuda_version(text); (void)mx_qual_parse_mem_total(text); break;
  }
  if (j) {
    char *dump = json_dumps(j, 0); /* every piece is a JSON value */
    if (!dump) abort();
    free(dump);
    json_decref(j);
  } else if (data[0] % 8 < 6) {
    abort(); /* the array/object parsers always return one */
  }
  if (s && mx_utf8_valid_prefix((const uint8_t *)s, strlen(s)) != strlen(s)) abort(); /* valid UTF-8 only */
  free(s);
  free(text);
  return 0;
}
