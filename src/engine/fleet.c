#include "engine/fleet.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

struct mx_fleet {
  int n;
  char *devices[MX_FLEET_MAX_DEVICES];
  mx_session_t *sessions[MX_FLEET_MAX_DEVICES];
  mx_sched_t *scheds[MX_FLEET_MAX_DEVICES];
};

mx_status_t mx_fleet_create(const mx_fleet_options_t *o, mx_fleet_t **out) {
  *out = NULL;
  if (o->n_devices < 1 || o->n_devices > MX_FLEET_MAX_DEVICES)
    return mx_status_make(MX_STAGE_USAGE, "list 1 to 16 devices", "%d devices", o->n_devices);
  mx_fleet_t *f = calloc(1, sizeof *f);
  if (!f) return mx_status_oom();
  mx_status_t st = NULL;
  for (int i = 0; i < o->n_devices && !st; i++) {
    f->n = i + 1;
    if (!(f->devices[i] = strdup(o->devices[i]))) {
      st = mx_status_oom();
      break;
    }
    mx_session_options_t so = o->session;
    so.device = f->devices[i];
    if (o->n_devices > 1) mx_log(MX_LOG_INFO, "mlxcel: starting device %d of %d: %s", i + 1, o->n_devices, so.device);
    st = mx_session_open(&so, &f->sessions[i]);
    if (!st) st = mx_session_start(f->sessions[i]);
    char label[96];
    snprintf(label, sizeof label, "%s (backend %d)", so.device, i);
    mx_sched_options_t sched = {.n_slots = st ? 0 : mx_session_slots(f->sessions[i]), .queue_max = o->queue_max,
                                .probe_interval_ms = o->probe_interval_ms, .probe_timeout_ms = o->probe_timeout_ms,
                                .max_restarts = o->max_restarts, .label = label, .prefix_reuse = o->prefix_reuse};
    if (!st) st = mx_sched_create(f->sessions[i], &sched, &f->scheds[i]);
  }
  if (st) {
    mx_fleet_destroy(f);
    return st;
  }
  *out = f;
  return NULL;
}

typedef struct {
  mx_sched_t *sched;
  int deadline_ms;
} drain_t;

static void *drain_one(void *arg) {
  drain_t *d = arg;
  mx_sched_shutdown(d->sched, d->deadline_ms);
  return NULL;
}

void mx_fleet_drain(mx_fleet_t *f, int deadline_ms) {
  pthread_t th[MX_FLEET_MAX_DEVICES];
  drain_t d[MX_FLEET_MAX_DEVICES];
  bool started[MX_FLEET_MAX_DEVICES] = {0};
  for (int i = 0; i < f->n; i++) {
    d[i] = (drain_t){f->scheds[i], deadline_ms};
    if (f->scheds[i]) started[i] = pthread_create(&th[i], NULL, drain_one, &d[i]) == 0;
    if (f->scheds[i] && !started[i]) drain_one(&d[i]);
  }
  for (int i = 0; i < f->n; i++)
    if (started[i]) pthread_join(th[i], NULL);
}

void mx_fleet_destroy(mx_fleet_t *f) {
  if (!f) return;
  mx_fleet_drain(f, 0);
  for (int i = 0; i < f->n; i++) {
    mx_sched_destroy(f->scheds[i]);
    mx_session_close(f->sessions[i]); /* stops the device worker */
    free(f->devices[i]);
  }
  free(f);
}

int mx_fleet_size(const mx_fleet_t *f) { return f->n; }
const char *mx_fleet_device(const mx_fleet_t *f, int i) { return f->devices[i]; }
mx_session_t *mx_fleet_session(const mx_fleet_t *f, int i) { return f->sessions[i]; }
mx_sched_t *mx_fleet_sched(const mx_fleet_t *f, int i) { return f->scheds[i]; }

int mx_fleet_slots(const mx_fleet_t *f) {
  int slots = 0;
  for (int i = 0; i < f->n; i++) slots += mx_session_slots(f->sessions[i]);
  return slots;
}

int mx_fleet_pick(const mx_fleet_t *f, uint64_t tiebreak) {
  int best = -1, waiting = -1;
  double best_load = 0;
  for (int k = 0; k < f->n; k++) {
    int i = (int)((tiebreak + (uint64_t)k) % (uint64_t)f->n);
    mx_sched_stats_t st;
    mx_sched_stats(f->scheds[i], &st);
    if (st.state == MX_DEVICE_RESTARTING && waiting < 0) waiting = i;
    if (st.state != MX_DEVICE_READY) continue;
    double load = (double)(st.active + st.queued) / (st.n_slots > 0 ? st.n_slots : 1);
    if (best < 0 || load < best_load) best = i, best_load = load;
  }
  return best >= 0 ? best : waiting;
}
