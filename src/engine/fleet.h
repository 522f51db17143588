/* One model on several devices (data parallel): a started session and a scheduler per device, and
 * the choice of device for each new request. The server and `mlxcel serve` hold a fleet; a single
 * device is a fleet of one.
 *
 * Thread model: create and destroy from one thread (each device worker is tied to the thread that
 * started it); pick, the accessors and the schedulers' own calls from any thread. */
#ifndef MX_ENGINE_FLEET_H
#define MX_ENGINE_FLEET_H

#include <stdint.h>

#include "base/status.h"
#include "engine/scheduler.h"
#include "engine/session.h"

#define MX_FLEET_MAX_DEVICES 16

typedef struct {
  mx_session_options_t session; /* every device gets these, with its own device URI */
  const char *const *devices;   /* URIs (copied) */
  int n_devices;                /* 1..MX_FLEET_MAX_DEVICES */
  int queue_max;                /* requests that may wait for a slot, per device */
  int probe_interval_ms, probe_timeout_ms, max_restarts; /* per device: mx_sched_options_t */
  bool prefix_reuse;                                     /* likewise */
} mx_fleet_options_t;

typedef struct mx_fleet mx_fleet_t;

/* Opens and starts a session per device, in order, and a scheduler over each; progress goes to
 * stderr when there is more than one device. On failure, what was started is stopped again. */
MX_MUST_USE mx_status_t mx_fleet_create(const mx_fleet_options_t *o, mx_fleet_t **out);
/* Shuts every scheduler down at once, against one deadline (mx_sched_shutdown blocks until its
 * requests end, so one after another would let the later ones keep admitting). */
void mx_fleet_drain(mx_fleet_t *f, int deadline_ms);
/* Drains with no deadline, stops the schedulers and the device workers, frees the fleet. */
void mx_fleet_destroy(mx_fleet_t *f);

int mx_fleet_size(const mx_fleet_t *f);
const char *mx_fleet_device(const mx_fleet_t *f, int i);
mx_session_t *mx_fleet_session(const mx_fleet_t *f, int i);
mx_sched_t *mx_fleet_sched(const mx_fleet_t *f, int i);
int mx_fleet_slots(const mx_fleet_t *f); /* over every device */

/* The ready device with the most room (fewest active + queued requests per slot); when none is
 * ready, a restarting one (the request waits in its queue for the restart); -1 when every device
 * was given up. `tiebreak` (any number, e.g. random) rotates the scan so equal devices share the work. */
int mx_fleet_pick(const mx_fleet_t *f, uint64_t tiebreak);

#endif
