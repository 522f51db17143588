#include "format/mapped_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

mx_status_t mx_mapped_file_open(const char *path, mx_mapped_file_t *out) {
  memset(out, 0, sizeof *out);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return mx_status_make(MX_STAGE_IO, "check the path and its permissions", "cannot open %s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return mx_status_make(MX_STAGE_IO, "pass a regular file", "%s is not a regular file", path);
  }
  out->size = (size_t)st.st_size;
  if (out->size > 0) {
    void *p = mmap(NULL, out->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      close(fd);
      return mx_status_make(MX_STAGE_IO, "check free memory and the address-space limit (`ulimit -v`)", "cannot map %s: %s", path,
                            strerror(e));
    }
    out->data = p;
  }
  close(fd);
  out->path = strdup(path);
  if (!out->path) {
    mx_mapped_file_close(out);
    return mx_status_oom();
  }
  return NULL;
}

void mx_mapped_file_close(mx_mapped_file_t *f) {
  if (f->data && f->size) munmap((void *)f->data, f->size);
  free(f->path);
  memset(f, 0, sizeof *f);
}
