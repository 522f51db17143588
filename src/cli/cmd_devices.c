/* mlxcel devices: what the pinned runtime can drive on this host. */
#include <stdio.h>

#include "cli/cli.h"
#include "engine/probe.h"

int mx_cmd_devices(int argc, char **argv) {
  mx_opt_cmd_t c = {
      .prog = "mlxcel devices",
      .synopsis = "",
      .about = "Starts the device worker and lists every HAL driver of the pinned IREE runtime: whether it loads on "
               "this host (and why not), its devices as URIs for MLXCEL_XLA_DEVICE / --device, and each device's "
               "architecture (sm_XY for CUDA, gfxNNNN for HIP) to pass as the compile target.",
  };
  int code = mx_cli_parse(&c, argc, argv);
  if (code >= 0) return code;
  mx_driver_desc_t drivers[16];
  int n = 0;
  char runtime[32];
  mx_status_t st = mx_probe_devices(drivers, 16, &n, runtime, sizeof runtime);
  if (!st) {
    printf("IREE runtime %s\n", runtime);
    printf("%-11s %-24s %-12s %s\n", "driver", "device", "arch", "name / status");
    for (int i = 0; i < n; i++) {
      mx_driver_desc_t *d = &drivers[i];
      if (!d->available) {
        printf("%-11s %-24s %-12s unavailable: %s\n", d->name, "-", "-", d->error);
        if (d->remedy[0]) printf("%-11s %-24s %-12s   remedy: %s\n", "", "", "", d->remedy);
        continue;
      }
      if (d->n_devices == 0) {
        printf("%-11s %-24s %-12s driver loads, no devices%s%s\n", d->name, "-", "-", d->error[0] ? ": " : "", d->error);
        if (d->remedy[0]) printf("%-11s %-24s %-12s   remedy: %s\n", "", "", "", d->remedy);
      }
      for (int k = 0; k < d->n_devices; k++)
        printf("%-11s %-24s %-12s %s\n", d->name, d->devices[k].uri, d->devices[k].arch[0] ? d->devices[k].arch : "?",
               d->devices[k].name);
    }
  }
  return mx_cli_report(st);
}
