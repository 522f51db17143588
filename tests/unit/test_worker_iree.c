/* The device worker and its client, against the real pinned runtime on local-task. */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/toolchain.h"
#include "compiler/compile.h"
#include "device/worker.h"
#include "hlo/smoke.h"

typedef struct {
  char dir[MX_PATH_MAX];
  char python[MX_PATH_MAX], script[MX_PATH_MAX];
  char add_vmfb[MX_PATH_MAX + 32], truncated_vmfb[MX_PATH_MAX + 32], garbage_vmfb[MX_PATH_MAX + 32];
} fixture_t;

static void write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, n, f), n);
  fclose(f);
}

static int group_setup(void **state) {
  fixture_t *fx = calloc(1, sizeof *fx);
  char compiler[MX_PATH_MAX], *mlir;
  assert_ok(mx_toolchain_python(fx->python, sizeof fx->python));
  assert_ok(mx_toolchain_worker_script(fx->script, sizeof fx->script));
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  snprintf(fx->dir, sizeof fx->dir, "/tmp/mlxcel-test-worker-XXXXXX");
  assert_non_null(mkdtemp(fx->dir));
  snprintf(fx->add_vmfb, sizeof fx->add_vmfb, "%s/add.vmfb", fx->dir);
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  assert_ok(mx_hlo_smoke_add(&mlir));
  assert_ok(mx_compile_mlir(compiler, &t, mlir, fx->add_vmfb, NULL));
  free(mlir);
  /* A VMFB cut in half, and a file that is not a VMFB at all. */
  FILE *f = fopen(fx->add_vmfb, "rb");
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  snprintf(fx->truncated_vmfb, sizeof fx->truncated_vmfb, "%s/truncated.vmfb", fx->dir);
  write_bytes(fx->truncated_vmfb, buf, n / 2);
  snprintf(fx->garbage_vmfb, sizeof fx->garbage_vmfb, "%s/garbage.vmfb", fx->dir);
  write_bytes(fx->garbage_vmfb, "this is not a flatbuffer\n", 25);
  *state = fx;
  return 0;
}

static int group_teardown(void **state) {
  fixture_t *fx = *state;
  char cmd[MX_PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
  if (system(cmd) != 0) return -1;
  free(fx);
  return 0;
}

static mx_worker_t *spawn_with(const fixture_t *fx, const char *python, const char *script, int timeout_ms) {
  mx_worker_options_t o = {.python = python ? python : fx->python, .script = script ? script : fx->script,
                           .timeout_ms = timeout_ms};
  mx_worker_t *w = NULL;
  assert_ok(mx_worker_spawn(&o, &w));
  return w;
}

static mx_worker_t *spawn_open(const fixture_t *fx) {
  mx_worker_t *w = spawn_with(fx, NULL, NULL, 30000);
  assert_ok(mx_worker_open(w, "local-task", NULL));
  return w;
}

static int process_gone(pid_t pid) { return kill(pid, 0) == -1 && errno == ESRCH; }

/* ------------------------------------------------------------------------------------------ */

static void ping_reports_the_pinned_runtime(void **state) {
  fixture_t *fx = *state;
  mx_worker_t *w = spawn_with(fx, NULL, NULL, 0);
  assert_ok(mx_worker_ping(w));
  assert_string_equal(mx_worker_runtime_version(w), mx_toolchain_version());
  pid_t pid = mx_worker_pid(w);
  assert_true(pid > 0);
  mx_worker_destroy(w);
  assert_true(process_gone(pid)); /* reaped: no zombie, no orphan */
}

static void list_shows_drivers_devices_and_reasons(void **state) {
  fixture_t *fx = *state;
  mx_worker_t *w = spawn_with(fx, NULL, NULL, 0);
  mx_driver_desc_t d[16];
  int n = 0, saw_local = 0, saw_hip = 0;
  assert_ok(mx_worker_list(w, d, 16, &n));
  for (int i = 0; i < n; i++) {
    if (!strcmp(d[i].name, "local-task")) {
      saw_local = 1;
      assert_true(d[i].available);
      assert_int_equal(d[i].n_devices, 1);
      assert_string_equal(d[i].devices[0].uri, "local-task://0");
      assert_true(d[i].devices[0].arch[0] != '\0');
    }
    if (!strcmp(d[i].name, "hip")) {
      saw_hip = 1;
      /* No AMD GPU here: the driver is listed with the reason it cannot be created and a remedy. */
      if (!d[i].available) {
        assert_non_null(strstr(d[i].error, "amdhip64"));
        assert_true(d[i].remedy[0] != '\0');
      }
    }
  }
  assert_true(saw_local);
  assert_true(saw_hip);
  mx_worker_destroy(w);
}

static void open_errors_name_driver_or_device(void **state) {
  fixture_t *fx = *state;
  mx_worker_t *w = spawn_with(fx, NULL, NULL, 0);
  assert_status(mx_worker_open(w, "metal", NULL), MX_STAGE_DRIVER, "no 'metal' driver");
  assert_status(mx_worker_open(w, "local-task://7", NULL), MX_STAGE_DEVICE, "no index 7");
  assert_status(mx_worker_open(w, "not a uri", NULL), MX_STAGE_DEVICE, "malformed");
  mx_device_desc_t dev;
  assert_ok(mx_worker_open(w, "local-task://0", &dev));
  assert_string_equal(dev.uri, "local-task://0");
  assert_status(mx_worker_open(w, "local-sync", NULL), MX_STAGE_DEVICE, "already");
  mx_worker_destroy(w);
}

static void bad_modules_are_refused_and_the_worker_lives_on(void **state) {
  fixture_t *fx = *state;
  mx_worker_t *w = spawn_with(fx, NULL, NULL, 30000);
  int mod;
  assert_status(mx_worker_load(w, fx->add_vmfb, NULL, 0, &mod), MX_STAGE_DEVICE, "no device");
  assert_ok(mx_worker_open(w, "local-task", NULL));
  assert_status(mx_worker_load(w, "/nonexistent.vmfb", NULL, 0, &mod), MX_STAGE_MODULE_LOAD, "does not exist");
  assert_status(mx_worker_load(w, fx->truncated_vmfb, NULL, 0, &mod), MX_STAGE_MODULE_LOAD, "cannot load");
  assert_status(mx_worker_load(w, fx->garbage_vmfb, NULL, 0, &mod), MX_STAGE_MODULE_LOAD, "cannot load");
  const char *params[] = {"/nonexistent.irpa"};
  assert_status(mx_worker_load(w, fx->add_vmfb, params, 1, &mod), MX_STAGE_MODULE_LOAD, "parameter file");
  assert_ok(mx_worker_ping(w));
  assert_ok(mx_worker_load(w, fx->add_vmfb, NULL, 0, &mod));
  mx_worker_destroy(w);
}

static void call_with_host_inputs_and_device_handles(void **state) {
  fixture_t *fx = *state;
  mx_worker_t *w = spawn_open(fx);
  int mod, n;
  assert_ok(mx_worker_load(w, fx->add_vmfb, NULL, 0, &mod));
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {10, 20, 30, 40, 50, 60};
  int64_t shape[2] = {2, 3};
  mx_tensor_t in[2] = {mx_tensor_host(MX_F32, 2, shape, x), mx_tensor_host(MX_F32, 2, shape, y)};
  mx_tensor_t kept;
  assert_ok(mx_worker_call(w, mod, "add", in, 2, 1u, &kept, 1, &n)); /* keep output 0 */
  assert_int_equal(n, 1);
  assert_true(kept.handle != 0);
  assert_null(kept.data);
  assert_int_equal(kept.rank, 2);
  assert_int_equal(kept.shape[1], 3);
  /* Feed the device-resident result back in together with a host tensor: (x + y) + x. */
  mx_tensor_t in2[2] = {mx_tensor_device(kept.handle), mx_tensor_host(MX_F32, 2, shape, x)};
  mx_tensor_t out;
  assert_ok(mx_worker_call(w, mod, "add", in2, 2, 0, &out, 1, &n));
  assert_int_equal(out.dtype, MX_F32);
  for (int i = 0; i < 6; i++) assert_true(((float *)out.data)[i] == 2 * x[i] + y[i]);
  mx_tensor_release(&out);
  mx_alloc_stats_t s;
  assert_ok(mx_worker_stats(w, &s));
  assert_int_equal(s.live_handles, 1);
  assert_true(s.device_bytes_peak >= 24);
  assert_ok(mx_worker_free_handles(w, &kept.handle, 1));
  assert_status(mx_worker_free_handles(w, &kept.handle, 1), MX_STAGE_TRANSFER, "unknown handle");
  assert_ok(mx_worker_stats(w, &s));
  assert_int_equal(s.live_handles, 0);
  mx_worker_destroy(w);
}

static void bad_calls_name_the_problem(void **state) {
  fixture_t *fx = *state;
  mx_worker_t *w = spawn_open(fx);
  int mod, n;
  assert_ok(mx_worker_load(w, fx->add_vmfb, NULL, 0, &mod));
  float x[9] = {0};
  int32_t xi[6] = {0};
  int64_t s23[2] = {2, 3}, s33[2] = {3, 3};
  mx_tensor_t out[2];
  mx_tensor_t good = mx_tensor_host(MX_F32, 2, s23, x);
  mx_tensor_t one[1] = {good};
  assert_status(mx_worker_call(w, mod, "nope", one, 1, 0, out, 2, &n), MX_STAGE_CALL, "no function 'nope'");
  assert_status(mx_worker_call(w, mod, "add", one, 1, 0, out, 2, &n), MX_STAGE_CALL, "expected 2 arguments");
  mx_tensor_t shape[2] = {good, mx_tensor_host(MX_F32, 2, s33, x)};
  assert_status(mx_worker_call(w, mod, "add", shape, 2, 0, out, 2, &n), MX_STAGE_CALL, "shape");
  mx_tensor_t dtype[2] = {good, mx_tensor_host(MX_I32, 2, s23, xi)};
  assert_status(mx_worker_call(w, mod, "add", dtype, 2, 0, out, 2, &n), MX_STAGE_CALL, "element type");
  assert_status(mx_worker_call(w, 99, "add", shape, 2, 0, out, 2, &n), MX_STAGE_CALL, "unknown module");
  mx_tensor_t handle[2] = {good, mx_tensor_device(12345)};
  assert_status(mx_worker_call(w, mod, "add", handle, 2, 0, out, 2, &n), MX_STAGE_TRANSFER, "unknown handle");
  /* Room for no outputs: refused, and the kept output is freed rather than leaked on the device. */
  mx_tensor_t two[2] = {good, good};
  assert_status(mx_worker_call(w, mod, "add", two, 2, 1u, out, 0, &n), MX_STAGE_CALL, "room for 0");
  mx_alloc_stats_t s;
  assert_ok(mx_worker_stats(w, &s));
  assert_int_equal(s.live_handles, 0);
  assert_ok(mx_worker_ping(w));
  mx_worker_destroy(w);
}

static void worker_killed_mid_call_is_reported_promptly(void **state) {
  fixture_t *fx = *state;
  mx_worker_t *w = spawn_with(fx, NULL, NULL, 20000);
  pid_t pid = mx_worker_pid(w);
  pid_t killer = fork();
  if (killer == 0) {
    usleep(300 * 1000);
    kill(pid, SIGKILL);
    _exit(0);
  }
  double t0 = mx_now_ms();
  assert_status(mx_worker_debug_sleep(w, 10000), MX_STAGE_WORKER, "killed by signal 9");
  double waited = mx_now_ms() - t0;
  assert_true(waited < 5000); /* the EOF is seen at once, not at the 20 s timeout */
  waitpid(killer, NULL, 0);
  assert_true(process_gone(pid));
  t0 = mx_now_ms();
  assert_status(mx_worker_ping(w), MX_STAGE_WORKER, "not running");
  assert_true(mx_now_ms() - t0 < 100);
  mx_worker_destroy(w);
}

static void stopped_worker_times_out_and_is_reaped(void **state) {
  fixture_t *fx = *state;
  mx_worker_t *w = spawn_with(fx, NULL, NULL, 1000);
  pid_t pid = mx_worker_pid(w);
  kill(pid, SIGSTOP);
  double t0 = mx_now_ms();
  assert_status(mx_worker_ping(w), MX_STAGE_WORKER, "did not answer 'ping' within 1000 ms");
  double waited = mx_now_ms() - t0;
  assert_true(waited >= 900 && waited < 4000);
  assert_true(process_gone(pid));
  mx_worker_destroy(w);
}

static void write_script(const fixture_t *fx, const char *name, const char *body, char *path, size_t cap) {
  snprintf(path, cap, "%s/%s", fx->dir, name);
  write_bytes(path, body, strlen(body));
  chmod(path, 0755);
}

static void spawn_failures_are_reported_not_hung(void **state) {
  fixture_t *fx = *state;
  mx_worker_options_t o = {.python = "/nonexistent/python", .script = fx->script};
  mx_worker_t *w = NULL;
  assert_status(mx_worker_spawn(&o, &w), MX_STAGE_SPAWN, "not executable");
  assert_null(w);
  char path[MX_PATH_MAX + 64];
  /* A worker that exits at once. */
  write_script(fx, "exits.py", "import sys\nsys.exit(3)\n", path, sizeof path);
  o = (mx_worker_options_t){.python = fx->python, .script = path, .startup_timeout_ms = 20000};
  assert_status(mx_worker_spawn(&o, &w), MX_STAGE_SPAWN, "exited with status 3");
  /* A worker that writes garbage instead of frames. */
  write_script(fx, "garbage.py", "import os\nos.write(3, b'hello, this is not a frame')\nimport time\ntime.sleep(30)\n",
               path, sizeof path);
  o.script = path;
  assert_status(mx_worker_spawn(&o, &w), MX_STAGE_PROTOCOL, "magic");
  /* A worker that never answers. */
  write_script(fx, "hangs.py", "import time\ntime.sleep(60)\n", path, sizeof path);
  o.script = path;
  o.startup_timeout_ms = 1500;
  double t0 = mx_now_ms();
  assert_status(mx_worker_spawn(&o, &w), MX_STAGE_SPAWN, "did not answer");
  assert_true(mx_now_ms() - t0 < 5000);
}

static void runtime_that_does_not_import_is_a_toolchain_error(void **state) {
  fixture_t *fx = *state;
  /* -S skips site-packages, so the interpreter runs but cannot import iree.runtime. */
  char path[MX_PATH_MAX + 64], body[3 * MX_PATH_MAX];
  snprintf(body, sizeof body, "#!/bin/sh\nexec '%s' -S \"$@\"\n", fx->python);
  write_script(fx, "python-no-site", body, path, sizeof path);
  mx_worker_options_t o = {.python = path, .script = fx->script};
  mx_worker_t *w = NULL;
  assert_status(mx_worker_spawn(&o, &w), MX_STAGE_TOOLCHAIN, "does not import");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ping_reports_the_pinned_runtime),
      cmocka_unit_test(list_shows_drivers_devices_and_reasons),
      cmocka_unit_test(open_errors_name_driver_or_device),
      cmocka_unit_test(bad_modules_are_refused_and_the_worker_lives_on),
      cmocka_unit_test(call_with_host_inputs_and_device_handles),
      cmocka_unit_test(bad_calls_name_the_problem),
      cmocka_unit_test(worker_killed_mid_call_is_reported_promptly),
      cmocka_unit_test(stopped_worker_times_out_and_is_reaped),
      cmocka_unit_test(spawn_failures_are_reported_not_hung),
      cmocka_unit_test(runtime_that_does_not_import_is_a_toolchain_error),
  };
  return cmocka_run_group_tests_name("device/worker", tests, group_setup, group_teardown);
}
