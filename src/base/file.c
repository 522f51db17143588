#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/toolchain.h"

mx_status_t mx_read_stream(const char *path, size_t max_bytes, char **text) {
  *text = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return mx_status_make(MX_STAGE_IO, "check the path", "cannot open %s: %s", path, strerror(errno));
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0 || n >= max_bytes) break;
    if (cap - n - 1 == 0) {
      char *nb = cap * 2 > max_bytes + 1 ? realloc(buf, max_bytes + 1) : realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      cap = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
      buf = nb;
    }
  }
  fclose(f);
  if (!buf) return mx_status_make(MX_STAGE_OOM, NULL, "out of memory reading %s", path);
  buf[n] = '\0';
  *text = buf;
  return NULL;
}

mx_status_t mx_read_file(const char *path, size_t max_bytes, char **text, size_t *len) {
  *text = NULL;
  if (len) *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return mx_status_make(MX_STAGE_IO, "check the path", "cannot open %s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max_bytes) {
    fclose(f);
    return mx_status_make(MX_STAGE_IO, "pass a regular file of sensible size", "%s is not a regular file of at most %zu bytes",
                          path, max_bytes);
  }
  size_t n = (size_t)st.st_size;
  char *buf = malloc(n + 1);
  if (!buf) {
    fclose(f);
    return mx_status_make(MX_STAGE_OOM, NULL, "out of memory reading %s", path);
  }
  size_t got = fread(buf, 1, n, f);
  fclose(f);
  if (got != n) {
    free(buf);
    return mx_status_make(MX_STAGE_IO, "the file changed while it was read, or the disk failed: retry, and check the disk",
                          "short read on %s", path);
  }
  buf[n] = '\0';
  *text = buf;
  if (len) *len = n;
  return NULL;
}

mx_status_t mx_write_file(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return mx_status_make(MX_STAGE_IO, "check the directory is writable", "cannot write %s: %s", path, strerror(errno));
  bool ok = fwrite(data, 1, len, f) == len;
  ok = (fclose(f) == 0) && ok;
  if (!ok) return mx_status_make(MX_STAGE_IO, "check free disk space", "short write to %s", path);
  return NULL;
}

bool mx_file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool mx_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

mx_status_t mx_mkdirs(const char *path) {
  char tmp[MX_PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return mx_status_make(MX_STAGE_IO, "check permissions", "cannot create %s", tmp);
    *p = '/';
  }
  if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return mx_status_make(MX_STAGE_IO, "check permissions", "cannot create %s", tmp);
  return NULL;
}
