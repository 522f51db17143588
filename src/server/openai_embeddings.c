/* POST /v1/embeddings: the request body (OpenAI's fields) and the answer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/openai_internal.h"

static void free_inputs(mx_api_embeddings_t *r) {
  for (size_t i = 0; i < r->n; i++) {
    free(r->in[i].text);
    free(r->in[i].ids);
  }
  free(r->in);
}

void mx_api_embeddings_free(mx_api_embeddings_t *r) {
  free_inputs(r);
  memset(r, 0, sizeof *r);
}

/* One input: a non-empty string, or a non-empty array of this model's token ids. `name` is how the
 * refusals call it ("input" or "input[i]"). */
static mx_status_t parse_one(const json_t *v, const char *name, int vocab, mx_api_embedding_input_t *out, mx_api_error_t *err) {
  if (json_is_string(v)) {
    if (json_string_length(v) == 0) return mx_api_bad(err, "input", "invalid_value", "%s is an empty string", name);
    out->len = json_string_length(v);
    if (!(out->text = malloc(out->len + 1))) return mx_api_oom(err);
    memcpy(out->text, json_string_value(v), out->len + 1);
    return NULL;
  }
  if (!json_is_array(v))
    return mx_api_bad(err, "input", "invalid_type", "%s must be a string or an array of token ids, not %s", name, mx_api_json_kind(v));
  size_t n = json_array_size(v), i;
  if (n == 0) return mx_api_bad(err, "input", "invalid_value", "%s is an empty array", name);
  if (!(out->ids = malloc(sizeof *out->ids * n))) return mx_api_oom(err);
  json_t *e;
  json_array_foreach(v, i, e) {
    if (!json_is_integer(e))
      return mx_api_bad(err, "input", "invalid_type", "%s[%zu] must be a token id (an integer), not %s", name, i, mx_api_json_kind(e));
    json_int_t id = json_integer_value(e);
    if (id < 0 || id >= vocab)
      return mx_api_bad(err, "input", "invalid_value", "%s[%zu] is %lld, not a token id of this model (0 .. %d)", name, i,
                        (long long)id, vocab - 1);
    out->ids[i] = (int32_t)id;
  }
  out->n_ids = n;
  return NULL;
}

/* input: a string, an array of token ids, or an array of either (a batch; OpenAI's four forms). */
static mx_status_t parse_input(const json_t *v, const mx_api_embed_limits_t *lim, mx_api_embeddings_t *r, mx_api_error_t *err) {
  bool batch = json_is_array(v) && json_array_size(v) > 0 && !json_is_integer(json_array_get(v, 0));
  size_t n = batch ? json_array_size(v) : 1;
  if (n > MX_API_MAX_EMBED_INPUTS)
    return mx_api_bad(err, "input", "invalid_value", "input holds %zu inputs; at most %d are accepted per request", n,
                      MX_API_MAX_EMBED_INPUTS);
  if (!(r->in = calloc(n, sizeof *r->in))) return mx_api_oom(err);
  r->n = n;
  if (!batch) return parse_one(v, "input", lim->vocab, &r->in[0], err);
  for (size_t i = 0; i < n; i++) {
    const json_t *e = json_array_get(v, i);
    if (!json_is_string(e) && !json_is_array(e))
      return mx_api_bad(err, "input", "invalid_type", "input[%zu] must be a string or an array of token ids, not %s (an array "
                        "starting with a token id must hold only token ids)", i, mx_api_json_kind(e));
    char name[40];
    snprintf(name, sizeof name, "input[%zu]", i);
    MX_RETURN_IF_ERROR(parse_one(e, name, lim->vocab, &r->in[i], err));
  }
  return NULL;
}

static mx_status_t parse_field(const char *key, const json_t *v, const mx_api_embed_limits_t *lim, mx_api_embeddings_t *r,
                               mx_api_error_t *err) {
  if (!strcmp(key, "input")) return parse_input(v, lim, r, err);
  if (!strcmp(key, "model") || !strcmp(key, "user")) {
    if (!json_is_string(v)) return mx_api_bad(err, key, "invalid_type", "%s must be a string, not %s", key, mx_api_json_kind(v));
    return NULL;
  }
  if (!strcmp(key, "encoding_format")) {
    const char *f = json_string_value(v);
    if (json_is_null(v)) return NULL;
    if (!f || (strcmp(f, "float") && strcmp(f, "base64")))
      return mx_api_bad(err, key, "invalid_value", "encoding_format must be \"float\" or \"base64\"");
    r->base64 = !strcmp(f, "base64");
    return NULL;
  }
  if (!strcmp(key, "dimensions")) {
    if (json_is_null(v)) return NULL;
    if (!json_is_integer(v)) return mx_api_bad(err, key, "invalid_type", "dimensions must be an integer, not %s", mx_api_json_kind(v));
    if (json_integer_value(v) != lim->dim)
      return mx_api_bad(err, key, "unsupported_value", "dimensions is %lld; this model's embeddings have %d (send %d or leave it out)",
                        (long long)json_integer_value(v), lim->dim, lim->dim);
    return NULL;
  }
  return mx_api_bad(err, key, "unknown_parameter", "%.60s is not a field of /v1/embeddings (input, model, encoding_format, "
                    "dimensions, user)", key);
}

mx_status_t mx_api_parse_embeddings(const char *body, size_t len, const mx_api_embed_limits_t *lim, mx_api_embeddings_t *out,
                                    mx_api_error_t *err) {
  memset(out, 0, sizeof *out);
  json_t *root;
  MX_RETURN_IF_ERROR(mx_api_load_object(body, len, &root, err));
  mx_status_t st = NULL;
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    if ((st = parse_field(key, v, lim, out, err))) break;
  }
  if (!st && !out->in) st = mx_api_bad(err, "input", "missing_required_parameter", "input is missing");
  json_decref(root);
  if (st) mx_api_embeddings_free(out);
  return st;
}

/* The floats' little-endian bytes in base64, as OpenAI's encoding_format "base64" (the openai
 * client asks for it by default and decodes it as float32). */
static json_t *base64_floats(const float *v, int n) {
  static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t bytes = (size_t)n * 4, o = 0;
  uint8_t *b = malloc(bytes);
  char *s = malloc((bytes + 2) / 3 * 4 + 1);
  json_t *j = NULL;
  if (b && s) {
    for (int i = 0; i < n; i++) {
      uint32_t u;
      memcpy(&u, &v[i], 4);
      for (int k = 0; k < 4; k++) b[4 * i + k] = (uint8_t)(u >> (8 * k));
    }
    for (size_t i = 0; i < bytes; i += 3) {
      uint32_t w = (uint32_t)b[i] << 16 | (i + 1 < bytes ? (uint32_t)b[i + 1] << 8 : 0) | (i + 2 < bytes ? b[i + 2] : 0);
      s[o++] = abc[w >> 18 & 63];
      s[o++] = abc[w >> 12 & 63];
      s[o++] = i + 1 < bytes ? abc[w >> 6 & 63] : '=';
      s[o++] = i + 2 < bytes ? abc[w & 63] : '=';
    }
    s[o] = '\0';
    j = json_string(s);
  }
  free(b);
  free(s);
  return j;
}

static json_t *float_array(const float *v, int n) {
  json_t *a = json_array();
  for (int i = 0; a && i < n; i++)
    if (json_array_append_new(a, json_real(v[i])) != 0) {
      json_decref(a);
      return NULL;
    }
  return a;
}

char *mx_api_embeddings_json(const char *model, const float *const *vectors, int n, int dim, bool base64, int prompt_tokens) {
  json_t *data = json_array();
  for (int i = 0; data && i < n; i++) {
    json_t *e = base64 ? base64_floats(vectors[i], dim) : float_array(vectors[i], dim);
    json_t *item = e ? json_pack("{s:s, s:i, s:o}", "object", "embedding", "index", i, "embedding", e) : NULL;
    if (!item || json_array_append_new(data, item) != 0) {
      json_decref(data);
      data = NULL;
    }
  }
  json_t *j = data ? json_pack("{s:s, s:o, s:s, s:{s:i, s:i}}", "object", "list", "data", data, "model", model, "usage",
                               "prompt_tokens", prompt_tokens, "total_tokens", prompt_tokens)
                   : NULL;
  char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
  json_decref(j);
  return text;
}
