#include "qualify/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/strbuf.h"

static mx_status_t http_error(const char *what, int port) {
  return mx_status_make(MX_STAGE_IO, "check that the server is running and listening on loopback",
                        "HTTP to 127.0.0.1:%d: %s: %s", port, what, strerror(errno));
}

mx_status_t mx_http_request(int port, const char *method, const char *path, const char *body, double timeout_s,
                            mx_http_reply_t *out) {
  *out = (mx_http_reply_t){0};
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return http_error("socket", port);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    mx_status_t st = http_error("connect", port);
    close(fd);
    return st;
  }
  mx_strbuf_t req;
  mx_strbuf_init(&req);
  size_t blen = body ? strlen(body) : 0;
  mx_strbuf_printf(&req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n", method, path, port);
  if (body) mx_strbuf_printf(&req, "Content-Type: application/json\r\nContent-Length: %zu\r\n", blen);
  mx_strbuf_printf(&req, "\r\n");
  if (body) mx_strbuf_append(&req, body, blen);
  mx_status_t st = req.failed ? mx_status_oom() : NULL;
  for (size_t off = 0; !st && off < req.len;) {
    ssize_t w = send(fd, req.data + off, req.len - off, MSG_NOSIGNAL);
    if (w <= 0) st = http_error("send", port);
    else off += (size_t)w;
  }
  mx_strbuf_free(&req);
  mx_strbuf_t resp;
  mx_strbuf_init(&resp);
  double end = mx_now_ms() + timeout_s * 1000;
  char buf[16384];
  while (!st) {
    int left = (int)(end - mx_now_ms());
    if (left <= 0) {
      st = mx_status_make(MX_STAGE_IO, "the server did not answer in time: look at its log",
                          "HTTP %s %s on port %d: no complete answer in %.0f s", method, path, port, timeout_s);
      break;
    }
    struct pollfd p = {fd, POLLIN, 0};
    int r = poll(&p, 1, left);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) st = http_error("recv", port);
    if (n <= 0) break;
    mx_strbuf_append(&resp, buf, (size_t)n);
  }
  close(fd);
  if (!st && (resp.failed || !resp.data)) st = resp.failed ? mx_status_oom() : mx_status_make(MX_STAGE_IO, "look at the server's log", "HTTP %s %s: the server closed without answering", method, path);
  const char *hdr_end = st ? NULL : strstr(resp.data, "\r\n\r\n");
  if (!st && (!hdr_end || sscanf(resp.data, "HTTP/1.%*d %d", &out->status) != 1))
    st = mx_status_make(MX_STAGE_IO, "look at the server's log", "HTTP %s %s: malformed answer", method, path);
  if (!st) {
    const char *b = hdr_end + 4;
    const char *te = strcasestr(resp.data, "transfer-encoding: chunked");
    bool chunked = te && te < hdr_end; /* in the headers, not the body */
    mx_strbuf_t dec;
    mx_strbuf_init(&dec);
    if (!chunked) {
      mx_strbuf_append(&dec, b, resp.len - (size_t)(b - resp.data));
    } else {
      const char *p = b, *stop = resp.data + resp.len;
      while (p < stop) {
        char *e;
        unsigned long sz = strtoul(p, &e, 16);
        const char *crlf = strstr(e, "\r\n");
        if (!crlf || sz == 0) break;
        p = crlf + 2;
        if ((size_t)(stop - p) < sz) sz = (unsigned long)(stop - p);
        mx_strbuf_append(&dec, p, sz);
        p += sz + 2;
      }
    }
    if (!dec.data) mx_strbuf_append(&dec, "", 0);
    out->len = dec.len;
    out->body = mx_strbuf_take(&dec);
    if (!out->body) st = mx_status_oom();
  }
  mx_strbuf_free(&resp);
  return st;
}

mx_status_t mx_http_free_port(int *port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t l = sizeof a;
  if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || getsockname(fd, (struct sockaddr *)&a, &l) != 0) {
    if (fd >= 0) close(fd);
    return mx_status_make(MX_STAGE_IO, "free a loopback port", "cannot find a free port: %s", strerror(errno));
  }
  *port = ntohs(a.sin_port);
  close(fd);
  return NULL;
}
