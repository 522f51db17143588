/* mlxcel devices: what the pinned runtime can drive on this host. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/probe.h"

static void help(void) {
  printf("usage: mlxcel devices\n\n"
         "Starts the device worker and lists every HAL driver of the pinned IREE runtime: whether it\n"
         "loads on this host (and why not), its devices as URIs for MLXCEL_XLA_DEVICE / --device, and\n"
         "each device's architecture (sm_XY for CUDA, gfxNNNN for HIP) to pass as the compile target.\n");
}

int mx_cmd_devices(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      help();
      return 0;
    }
    return mx_cli_report(mx_status_make(MX_STAGE_USAGE, "run `mlxcel devices --help`", "unknown option '%s'", argv[i]));
  }
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
