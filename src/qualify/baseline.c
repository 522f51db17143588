#include "qualify/baseline.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/build_info.h"
#include "base/file.h"
#include "base/sha256.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "base/toolchain.h"
#include "qualify/run.h"

extern char **environ;

/* ---- parsers ----------------------------------------------------------------------------------- */

/* Copies [b, e) trimmed of spaces, tabs, CR and quotes, as valid UTF-8 (a tool printing in another
 * encoding gets U+FFFD for what is not UTF-8, so every value can go into JSON). */
static char *trimmed(const char *b, const char *e) {
  while (b < e && *b && strchr(" \t\r\"", *b)) b++;
  while (e > b && e[-1] && strchr(" \t\r\"", e[-1])) e--;
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  mx_utf8_append_lossy(&out, (const uint8_t *)b, (size_t)(e - b));
  if (!out.data) mx_strbuf_append(&out, "", 0);
  return mx_strbuf_take(&out);
}

/* A JSON string of any text (NULL: null), made valid UTF-8 the same way. */
static json_t *jstr(const char *s) {
  if (!s) return json_null();
  char *t = trimmed(s, s + strlen(s));
  json_t *j = t ? json_string(t) : NULL;
  free(t);
  return j ? j : json_null();
}

/* Calls fn for each line (without its newline). */
#define FOR_LINES(text, line, end)                                                                   \
  for (const char *line = (text), *end; line && *line; line = *end ? end + 1 : end)                  \
    if ((end = strchr(line, '\n')) == NULL ? (end = line + strlen(line), 1) : 1)

/* The value of "KEY=value" / "Key: value" lines: the text after sep, trimmed; NULL if absent. */
static char *keyed(const char *text, const char *key, char sep) {
  size_t k = strlen(key);
  FOR_LINES(text, line, end) {
    const char *p = line;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if ((size_t)(end - p) > k && !strncmp(p, key, k)) {
      const char *q = p + k;
      while (q < end && (*q == ' ' || *q == '\t')) q++;
      if (q < end && *q == sep) return trimmed(q + 1, end);
    }
  }
  return NULL;
}

char *mx_qual_parse_os_release(const char *text) {
  char *v = keyed(text, "PRETTY_NAME", '=');
  return v ? v : keyed(text, "NAME", '=');
}

json_t *mx_qual_parse_nvidia_smi_csv(const char *text) {
  json_t *gpus = json_array();
  FOR_LINES(text, line, end) {
    char *f[6] = {0};
    int n = 0;
    const char *b = line;
    while (n < 6 && b <= end) {
      const char *c = memchr(b, ',', (size_t)(end - b));
      if (!c) c = end;
      f[n++] = trimmed(b, c);
      b = c + 1;
    }
    if (n >= 5 && f[0] && f[0][0] >= '0' && f[0][0] <= '9') {
      json_t *g = json_pack("{s:i, s:s, s:I, s:s, s:s}", "index", atoi(f[0]), "name", f[1], "memory_mib",
                            (json_int_t)atoll(f[2]), "driver", f[3], "pci_bus_id", f[4]);
      if (n == 6 && f[5] && f[5][0] && strchr(f[5], '.')) {
        int major = atoi(f[5]), minor = atoi(strchr(f[5], '.') + 1);
        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d%d", major, minor);
        json_object_set_new(g, "compute_cap", json_string(f[5]));
        json_object_set_new(g, "arch", json_string(arch));
      }
      json_array_append_new(gpus, g);
    }
    for (int i = 0; i < n; i++) free(f[i]);
  }
  return gpus;
}

char *mx_qual_parse_cuda_version(const char *text) {
  const char *p = strstr(text, "CUDA Version:");
  if (!p) return NULL;
  p += strlen("CUDA Version:");
  while (*p == ' ') p++;
  const char *e = p;
  while ((*e >= '0' && *e <= '9') || *e == '.') e++;
  return e > p ? trimmed(p, e) : NULL;
}

json_t *mx_qual_parse_rocminfo(const char *text) {
  json_t *gpus = json_array(), *agent = NULL;
  bool is_gpu = false;
  FOR_LINES(text, line, end) {
    const char *p = line;
    int indent = 0;
    while (p < end && *p == ' ') p++, indent++;
    if (!strncmp(p, "Agent ", 6) && indent == 0) {
      if (agent && is_gpu) json_array_append(gpus, agent);
      json_decref(agent);
      agent = json_object();
      is_gpu = false;
      continue;
    }
    if (!agent || indent != 2) continue; /* the agent's own fields, not its nested pools and ISAs */
    const char *colon = memchr(p, ':', (size_t)(end - p));
    if (!colon) continue;
    char *key = trimmed(p, colon), *val = trimmed(colon + 1, end);
    if (key && val) {
      if (!strcmp(key, "Name")) json_object_set_new(agent, "name", json_string(val));
      else if (!strcmp(key, "Marketing Name")) json_object_set_new(agent, "marketing_name", json_string(val));
      else if (!strcmp(key, "Uuid")) json_object_set_new(agent, "uuid", json_string(val));
      else if (!strcmp(key, "Compute Unit")) json_object_set_new(agent, "compute_units", json_integer(atoi(val)));
      else if (!strcmp(key, "Device Type")) is_gpu = !strcmp(val, "GPU");
    }
    free(key);
    free(val);
  }
  if (agent && is_gpu) json_array_append(gpus, agent);
  json_decref(agent);
  return gpus;
}

json_t *mx_qual_parse_gfx_list(const char *text) {
  json_t *a = json_array();
  FOR_LINES(text, line, end) {
    char *t = trimmed(line, end);
    if (t && !strncmp(t, "gfx", 3) && strcmp(t, "gfx000") != 0 && !strpbrk(t, " \t")) json_array_append_new(a, json_string(t));
    free(t);
  }
  return a;
}

json_t *mx_qual_parse_target_backends(const char *text) {
  json_t *a = json_array();
  FOR_LINES(text, line, end) {
    if (line < end && line[0] == ' ') {
      char *t = trimmed(line, end);
      if (t && t[0]) json_array_append_new(a, json_string(t));
      free(t);
    }
  }
  return a;
}

json_t *mx_qual_parse_proc_status(const char *text) {
  json_t *o = json_object();
  static const struct {
    const char *key, *name;
  } fields[] = {{"CapEff", "cap_eff"}, {"CapBnd", "cap_bnd"}, {"NoNewPrivs", "no_new_privs"}, {"Seccomp", "seccomp"}};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    char *v = keyed(text, fields[i].key, ':');
    if (v) json_object_set_new(o, fields[i].name, json_string(v));
    free(v);
  }
  return o;
}

long long mx_qual_parse_mem_total(const char *text) {
  char *v = keyed(text, "MemTotal", ':');
  long long kb = v ? atoll(v) : -1;
  free(v);
  return kb < 0 ? -1 : kb * 1024;
}

json_t *mx_qual_parse_cpuinfo(const char *text) {
  char *model = keyed(text, "model name", ':');
  if (!model) model = keyed(text, "Model", ':'); /* arm64 */
  int n = 0;
  FOR_LINES(text, line, end) {
    if (!strncmp(line, "processor", 9)) n++;
  }
  json_t *o = json_pack("{s:s?, s:i}", "model", model, "logical_cpus", n);
  free(model);
  return o;
}

/* ---- the collector ----------------------------------------------------------------------------- */

/* A tool on PATH (or in one of the extra directories); false when absent. */
static bool find_tool(const char *name, char *out, size_t cap) {
  const char *path = getenv("PATH");
  char dirs[8192];
  snprintf(dirs, sizeof dirs, "%s:/opt/rocm/bin:/usr/sbin:/sbin", path ? path : "/usr/bin:/bin");
  for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    snprintf(out, cap, "%s/%s", d, name);
    if (access(out, X_OK) == 0) return true;
  }
  return false;
}

/* Runs a tool (20 s deadline) into logs_dir/<log>.txt; its output when it exited 0, else NULL.
 * tools[log] records what happened. */
static char *tool(json_t *tools, const char *logs_dir, const char *log, const char *name, const char *const *args) {
  char exe[MX_PATH_MAX], path[MX_PATH_MAX], how[160];
  if (!find_tool(name, exe, sizeof exe)) {
    json_object_set_new(tools, log, json_pack("{s:s}", "status", "not installed"));
    return NULL;
  }
  char *argv[16] = {exe};
  int n = 1;
  for (; args && args[n - 1] && n < 15; n++) argv[n] = (char *)args[n - 1];
  argv[n] = NULL;
  snprintf(path, sizeof path, "%s/%s.txt", logs_dir, log);
  mx_qrun_result_t r;
  char *text = NULL;
  mx_status_t st = mx_qrun_capture(argv, path, 20, &r, &text);
  if (st) {
    snprintf(how, sizeof how, "%s", mx_status_message(st));
    mx_status_free(st);
  } else {
    mx_qrun_describe(&r, how, sizeof how);
  }
  json_object_set_new(tools, log, json_pack("{s:s, s:s, s:s}", "status", text ? "ok" : "failed", "how", how, "log", path));
  return text;
}

static char *read_small(const char *path) {
  char *t = NULL;
  mx_status_ignore(mx_read_stream(path, 4u << 20, &t));
  return t;
}

/* Access to a device node: "rw", "r", "no access", "absent". */
static const char *node_access(const char *path) {
  struct stat sb;
  if (stat(path, &sb) != 0) return "absent";
  if (access(path, R_OK | W_OK) == 0) return "rw";
  return access(path, R_OK) == 0 ? "r" : "no access";
}

/* /dev/kfd, the nodes under /dev/dri and /dev/nvidia*, each with its access. */
static json_t *device_nodes(void) {
  json_t *o = json_object();
  json_object_set_new(o, "/dev/kfd", json_string(node_access("/dev/kfd")));
  static const char *dirs[] = {"/dev/dri", "/dev"};
  for (int d = 0; d < 2; d++) {
    DIR *dir = opendir(dirs[d]);
    struct dirent *e;
    while (dir && (e = readdir(dir)) != NULL) {
      if (e->d_name[0] == '.' || (d == 1 && strncmp(e->d_name, "nvidia", 6) != 0)) continue;
      char p[MX_PATH_MAX];
      snprintf(p, sizeof p, "%s/%s", dirs[d], e->d_name);
      if (d == 1 && mx_is_dir(p)) continue;
      json_object_set_new(o, p, json_string(node_access(p)));
    }
    if (dir) closedir(dir);
    if (d == 0 && !dir) json_object_set_new(o, "/dev/dri", json_string("absent"));
  }
  return o;
}

static json_t *user_info(void) {
  uid_t uid = geteuid();
  struct passwd *pw = getpwuid(uid);
  json_t *groups = json_array();
  gid_t g[256];
  int n = getgroups(256, g);
  for (int i = 0; i < n; i++) {
    struct group *gr = getgrgid(g[i]);
    json_array_append_new(groups, gr ? json_string(gr->gr_name) : json_integer(g[i]));
  }
  char *status = read_small("/proc/self/status");
  json_t *o = json_pack("{s:i, s:s?, s:o, s:o}", "euid", (int)uid, "name", pw ? pw->pw_name : NULL, "groups", groups,
                        "process", status ? mx_qual_parse_proc_status(status) : json_object());
  free(status);
  return o;
}

/* Markers of a container boundary, and the mounts of GPU device nodes that it shows. */
static json_t *container_info(void) {
  json_t *markers = json_array(), *mounts = json_array();
  if (mx_file_exists("/.dockerenv")) json_array_append_new(markers, json_string("/.dockerenv"));
  if (mx_file_exists("/run/.containerenv")) json_array_append_new(markers, json_string("/run/.containerenv"));
  char *cg = read_small("/proc/1/cgroup");
  if (cg && (strstr(cg, "docker") || strstr(cg, "kubepods") || strstr(cg, "containerd") || strstr(cg, "lxc")))
    json_array_append_new(markers, json_string("/proc/1/cgroup names a container runtime"));
  char *mi = read_small("/proc/self/mountinfo");
  if (mi) {
    FOR_LINES(mi, line, end) {
      char *l = trimmed(line, end);
      if (l && (strstr(l, " /dev/kfd ") || strstr(l, " /dev/dri") || strstr(l, " /dev/nvidia")))
        json_array_append_new(mounts, jstr(l));
      free(l);
    }
  }
  char *apparmor = read_small("/proc/self/attr/current");
  if (apparmor) apparmor[strcspn(apparmor, "\n")] = 0;
  json_t *o = json_pack("{s:b, s:o, s:o, s:o, s:o}", "likely_container", json_array_size(markers) > 0, "markers", markers,
                        "device_mounts", mounts, "apparmor", jstr(apparmor), "cgroup", jstr(cg));
  free(cg);
  free(mi);
  free(apparmor);
  return o;
}

/* Display and 3D controllers on the PCI bus (class 0x03xxxx), from /sys. */
static json_t *pci_gpus(void) {
  json_t *a = json_array();
  DIR *dir = opendir("/sys/bus/pci/devices");
  struct dirent *e;
  while (dir && (e = readdir(dir)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char p[MX_PATH_MAX];
    snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/class", e->d_name);
    char *cls = read_small(p);
    if (cls && !strncmp(cls, "0x03", 4)) {
      snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/vendor", e->d_name);
      char *vendor = read_small(p);
      snprintf(p, sizeof p, "/sys/bus/pci/devices/%s/numa_node", e->d_name);
      char *numa = read_small(p);
      if (vendor) vendor[strcspn(vendor, "\n")] = 0;
      cls[strcspn(cls, "\n")] = 0;
      json_array_append_new(a, json_pack("{s:s, s:s, s:s?, s:i}", "address", e->d_name, "class", cls, "vendor", vendor,
                                         "numa_node", numa ? atoi(numa) : -1));
      free(vendor);
      free(numa);
    }
    free(cls);
  }
  if (dir) closedir(dir);
  return a;
}

static json_t *env_vars(void) {
  json_t *o = json_object();
  static const char *visible[] = {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
                                  "GPU_DEVICE_ORDINAL", "NVIDIA_VISIBLE_DEVICES"};
  for (char **e = environ; e && *e; e++) {
    bool ours = !strncmp(*e, "MLXCEL_", 7) || !strncmp(*e, "IREE_", 5);
    for (size_t i = 0; !ours && i < sizeof visible / sizeof visible[0]; i++)
      ours = !strncmp(*e, visible[i], strlen(visible[i])) && (*e)[strlen(visible[i])] == '=';
    if (!ours) continue;
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    char key[256];
    snprintf(key, sizeof key, "%.*s", (int)(eq - *e), *e);
    /* A secret is recorded as set, never its value. */
    json_object_set_new(o, key, jstr(!strcmp(key, "MLXCEL_API_KEY") ? "(set)" : eq + 1));
  }
  return o;
}

mx_status_t mx_qual_model_digest(const char *model, char out[65], long long *bytes) {
  mx_sha256_t h;
  mx_sha256_init(&h);
  *bytes = 0;
  char files[64][MX_PATH_MAX];
  int n = 0;
  if (mx_is_dir(model)) {
    struct dirent **list;
    int k = scandir(model, &list, NULL, alphasort);
    for (int i = 0; i < k; i++) {
      const char *nm = list[i]->d_name;
      size_t l = strlen(nm);
      if (n < 64 && ((l > 12 && !strcmp(nm + l - 12, ".safetensors")) || !strcmp(nm, "config.json")))
        snprintf(files[n++], MX_PATH_MAX, "%s/%s", model, nm);
      free(list[i]);
    }
    if (k >= 0) free(list);
  } else {
    snprintf(files[n++], MX_PATH_MAX, "%s", model);
  }
  static char buf[1 << 20];
  for (int i = 0; i < n; i++) {
    FILE *f = fopen(files[i], "rb");
    if (!f) return mx_status_make(MX_STAGE_IO, "pass a readable model", "cannot read %s: %s", files[i], strerror(errno));
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0) {
      mx_sha256_update(&h, buf, r);
      *bytes += (long long)r;
    }
    fclose(f);
  }
  mx_sha256_hex(&h, out);
  return NULL;
}

mx_status_t mx_qual_baseline(const char *logs_dir, const char *model, const char *device, const char *target, json_t **out) {
  MX_RETURN_IF_ERROR(mx_mkdirs(logs_dir));
  json_t *env = json_object(), *tools = json_object();
  struct utsname u;
  if (uname(&u) == 0)
    json_object_set_new(env, "kernel", json_pack("{s:s, s:s, s:s}", "release", u.release, "version", u.version, "machine", u.machine));
  char *t = read_small("/etc/os-release"), *os = t ? mx_qual_parse_os_release(t) : NULL;
  json_object_set_new(env, "os", os ? json_string(os) : json_null());
  free(t);
  free(os);
  t = read_small("/proc/cpuinfo");
  json_object_set_new(env, "cpu", t ? mx_qual_parse_cpuinfo(t) : json_null());
  free(t);
  t = read_small("/proc/meminfo");
  json_object_set_new(env, "memory_bytes", json_integer(t ? mx_qual_parse_mem_total(t) : -1));
  free(t);
  json_object_set_new(env, "container", container_info());
  json_object_set_new(env, "user", user_info());
  json_object_set_new(env, "device_nodes", device_nodes());
  json_object_set_new(env, "pci_display_controllers", pci_gpus());

  /* NVIDIA */
  json_t *nv = json_object();
  const char *q[] = {"--query-gpu=index,name,memory.total,driver_version,pci.bus_id,compute_cap",
                     "--format=csv,noheader,nounits", NULL};
  char *csv = tool(tools, logs_dir, "nvidia-smi-query", "nvidia-smi", q);
  if (csv) json_object_set_new(nv, "gpus", mx_qual_parse_nvidia_smi_csv(csv));
  char *banner = tool(tools, logs_dir, "nvidia-smi", "nvidia-smi", NULL);
  char *cuda = banner ? mx_qual_parse_cuda_version(banner) : NULL;
  if (cuda) json_object_set_new(nv, "cuda_version", json_string(cuda));
  const char *topo[] = {"topo", "-m", NULL};
  free(tool(tools, logs_dir, "nvidia-smi-topo", "nvidia-smi", topo));
  const char *nvcc_v[] = {"--version", NULL};
  free(tool(tools, logs_dir, "nvcc-version", "nvcc", nvcc_v));
  free(csv);
  free(banner);
  free(cuda);
  json_object_set_new(env, "nvidia", nv);

  /* AMD */
  json_t *amd = json_object();
  char *ri = tool(tools, logs_dir, "rocminfo", "rocminfo", NULL);
  if (ri) json_object_set_new(amd, "rocminfo_gpus", mx_qual_parse_rocminfo(ri));
  char *aa = tool(tools, logs_dir, "amdgpu-arch", "amdgpu-arch", NULL);
  if (aa) json_object_set_new(amd, "amdgpu_arch", mx_qual_parse_gfx_list(aa));
  char *ra = tool(tools, logs_dir, "rocm_agent_enumerator", "rocm_agent_enumerator", NULL);
  if (ra) json_object_set_new(amd, "rocm_agent_enumerator", mx_qual_parse_gfx_list(ra));
  const char *hv[] = {"--version", NULL};
  char *hip = tool(tools, logs_dir, "hipconfig-version", "hipconfig", hv);
  if (hip) hip[strcspn(hip, "\n")] = 0, json_object_set_new(amd, "hip_version", jstr(hip));
  char *rocm = read_small("/opt/rocm/.info/version");
  if (rocm) rocm[strcspn(rocm, "\n")] = 0, json_object_set_new(amd, "rocm_version", jstr(rocm));
  free(ri);
  free(aa);
  free(ra);
  free(hip);
  free(rocm);
  json_object_set_new(env, "amd", amd);

  /* The toolchain: IREE pin, compiler, lock. */
  char path[MX_PATH_MAX], home[MX_PATH_MAX];
  json_t *iree = json_pack("{s:s}", "pin", mx_toolchain_version());
  mx_status_t st = mx_toolchain_compiler(path, sizeof path);
  if (!st) {
    json_object_set_new(iree, "compiler", json_string(path));
    char lp[MX_PATH_MAX];
    snprintf(lp, sizeof lp, "%s/iree-compile-version.txt", logs_dir);
    char *argv[] = {path, "--version", NULL};
    mx_qrun_result_t r;
    char *v = NULL;
    mx_status_free(mx_qrun_capture(argv, lp, 30, &r, &v));
    json_object_set_new(iree, "compiler_version", jstr(v));
    free(v);
  } else {
    json_object_set_new(iree, "compiler", json_null());
    json_object_set_new(iree, "compiler_error", json_string(mx_status_message(st)));
    mx_status_free(st);
  }
  if (!mx_toolchain_home(home, sizeof home)) {
    snprintf(path, sizeof path, "%s/requirements.lock", home);
    char *lock = read_small(path);
    json_object_set_new(iree, "lock", jstr(lock ? lock : "absent: the runtime was not installed by the setup scripts"));
    free(lock);
  }
  json_object_set_new(env, "iree", iree);

  if (model) {
    char hex[65];
    long long bytes;
    st = mx_qual_model_digest(model, hex, &bytes);
    json_object_set_new(env, "model", st ? json_pack("{s:s, s:s}", "path", model, "error", mx_status_message(st))
                                         : json_pack("{s:s, s:s, s:I}", "path", model, "sha256", hex, "bytes", (json_int_t)bytes));
    mx_status_free(st);
  }
  json_object_set_new(env, "selected", json_pack("{s:s, s:s?}", "device", device, "target", target));
  json_object_set_new(env, "mlxcel", json_pack("{s:s, s:s}", "commit", mx_build_commit(), "built", mx_build_date()));
  json_object_set_new(env, "environment", env_vars());
  json_object_set_new(env, "tools", tools);
  *out = env;
  return NULL;
}
