#include "base/cachefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/hash64.h"
#include "base/interrupt.h"
#include "base/log.h"
#include "base/toolchain.h"

/* Chunks small enough to stay in the L2 cache between read()'s copy and the hash. */
#define CHUNK (256 * 1024)
#define SUM_MAX 128

void mx_cache_tmp_path(const char *path, char *out, size_t cap) { snprintf(out, cap, "%s.tmp%d", path, (int)getpid()); }

static void sum_path(const char *path, char *out, size_t cap) { snprintf(out, cap, "%s.sum", path); }

mx_status_t mx_cache_file_hash(const char *path, uint64_t *size, uint64_t *hash) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return mx_status_make(MX_STAGE_IO, "check the cache directory's permissions", "cannot open %s: %s", path, strerror(errno));
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  char *buf = malloc(CHUNK);
  if (!buf) {
    close(fd);
    return mx_status_oom();
  }
  mx_hash64_t h;
  mx_hash64_init(&h, 0);
  mx_status_t st = NULL;
  for (;;) {
    ssize_t n = read(fd, buf, CHUNK);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) st = mx_status_make(MX_STAGE_IO, "check the disk (dmesg)", "cannot read %s: %s", path, strerror(errno));
    if (n <= 0) break;
    mx_hash64_update(&h, buf, (size_t)n);
    if ((st = mx_interrupt_status("checking a cache file", "stopped before trusting it"))) break;
  }
  free(buf);
  close(fd);
  *size = h.total;
  *hash = mx_hash64_final(&h);
  return st;
}

/* Reads <path>.sum; false with the reason when it is missing or not a sidecar of this version. */
static bool read_sum(const char *path, uint64_t *size, uint64_t *hash, char *why, size_t cap) {
  char sum[MX_PATH_MAX + 8], text[SUM_MAX + 1], version[64];
  sum_path(path, sum, sizeof sum);
  FILE *f = fopen(sum, "r");
  if (!f) {
    snprintf(why, cap, "%s: %s", errno == ENOENT ? "no checksum file" : "cannot read its checksum file", strerror(errno));
    return false;
  }
  size_t n = fread(text, 1, SUM_MAX, f);
  fclose(f);
  text[n] = '\0';
  unsigned long long s, hsh;
  if (sscanf(text, "%63s size=%llu hash64=%llx", version, &s, &hsh) != 3 || strcmp(version, MX_CACHE_SUM_VERSION) != 0) {
    snprintf(why, cap, "its checksum file is not a %s line", MX_CACHE_SUM_VERSION);
    return false;
  }
  *size = s;
  *hash = hsh;
  return true;
}

static void reject(const char *path, const char *why) {
  char sum[MX_PATH_MAX + 8];
  sum_path(path, sum, sizeof sum);
  mx_log(MX_LOG_WARN, "mlxcel: cache: %s failed verification (%s); deleting it and rebuilding it", path, why);
  unlink(path);
  unlink(sum);
}

mx_status_t mx_cache_file_verify(const char *path, bool *trusted) {
  *trusted = false;
  struct stat sb;
  if (stat(path, &sb) != 0) return NULL; /* not there: built from scratch, nothing to say */
  char why[MX_PATH_MAX + 128];
  uint64_t want_size = 0, want_hash = 0, size = 0, hash = 0;
  if (!read_sum(path, &want_size, &want_hash, why, sizeof why)) {
    reject(path, why);
    return NULL;
  }
  if ((uint64_t)sb.st_size != want_size) {
    snprintf(why, sizeof why, "it has %lld bytes, its checksum says %" PRIu64, (long long)sb.st_size, want_size);
    reject(path, why);
    return NULL;
  }
  mx_status_t st = mx_cache_file_hash(path, &size, &hash);
  if (st && mx_interrupt_signal()) return st; /* interrupted: the file may be fine; leave it */
  if (st) {
    snprintf(why, sizeof why, "%s", mx_status_message(st));
    mx_status_free(st);
  } else if (size != want_size || hash != want_hash)
    snprintf(why, sizeof why, "its contents changed: hash %016" PRIx64 ", its checksum says %016" PRIx64, hash, want_hash);
  else {
    *trusted = true;
    return NULL;
  }
  reject(path, why);
  return NULL;
}

mx_status_t mx_cache_file_seal(const char *tmp, const char *path) {
  char sum[MX_PATH_MAX + 8], sum_tmp[MX_PATH_MAX + 32], text[SUM_MAX];
  sum_path(path, sum, sizeof sum);
  mx_cache_tmp_path(sum, sum_tmp, sizeof sum_tmp);
  uint64_t size, hash;
  mx_status_t st = mx_cache_file_hash(tmp, &size, &hash);
  if (!st) {
    int n = snprintf(text, sizeof text, "%s size=%" PRIu64 " hash64=%016" PRIx64 "\n", MX_CACHE_SUM_VERSION, size, hash);
    st = mx_write_file(sum_tmp, text, (size_t)n);
  }
  /* The sidecar first, then the file, each by an atomic rename: a reader (another process starting on
   * the same cache) never finds the file without its sidecar, which it would reject and delete under
   * the writer. Between the two it finds no file and builds its own (the same bytes: the name is the
   * content's key). */
  if (!st && rename(sum_tmp, sum) != 0)
    st = mx_status_make(MX_STAGE_IO, "check that the cache directory is writable (XDG_CACHE_HOME)", "cannot store %s: %s", sum,
                        strerror(errno));
  else if (!st && rename(tmp, path) != 0) {
    st = mx_status_make(MX_STAGE_IO, "check that the cache directory is writable (XDG_CACHE_HOME)", "cannot store %s: %s", path,
                        strerror(errno));
    unlink(sum); /* a sidecar without its file would only be swept */
  }
  if (st) {
    unlink(tmp);
    unlink(sum_tmp);
  }
  return st;
}

long mx_cache_tmp_pid(const char *name) {
  for (const char *p = strstr(name, ".tmp"); p; p = strstr(p + 1, ".tmp")) {
    const char *d = p + 4, *e = d;
    while (*e >= '0' && *e <= '9') e++;
    if (e == d || e - d > 9) continue;
    if (*e && strcmp(e, ".mlir") != 0 && strcmp(e, ".log") != 0) continue;
    return strtol(d, NULL, 10);
  }
  return 0;
}

static bool pid_running(long pid) { return kill((pid_t)pid, 0) == 0 || errno == EPERM; }

int mx_cache_sweep(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int removed = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    long pid = mx_cache_tmp_pid(e->d_name);
    if (pid <= 0 || pid > INT_MAX || pid_running(pid)) continue;
    char path[MX_PATH_MAX + 256];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || unlink(path) != 0) continue;
    mx_log(MX_LOG_INFO, "mlxcel: cache: removed %s, left behind by process %ld, which is gone", path, pid);
    removed++;
  }
  closedir(d);
  return removed;
}
