#include "engine/session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "compiler/cache.h"
#include "device/launch.h"
#include "engine/memory.h"
#include "engine/weights.h"
#include "hlo/llama.h"
#include "tokenizer/chat.h"

struct mx_session {
  mx_session_options_t o;
  char *model_path, *device, *vmfb;
  mx_model_t *model;
  mx_tokenizer_t *tok;
  mx_llama_graph_t graph;
  mx_pack_t *pack; /* --quant packed's plan, or NULL */
  mx_target_t target;
  mx_worker_t *worker;
  int module;
  bool caller_checks_tokens; /* device tokens come back unchecked: the caller checks each row */
  mx_session_timings_t t;
};

mx_status_t mx_parse_precision(const char *text, mx_dtype_t *out) {
  if (text && !strcmp(text, "f32")) *out = MX_F32;
  else if (text && !strcmp(text, "f16")) *out = MX_F16;
  else if (text && !strcmp(text, "bf16")) *out = MX_BF16;
  else return mx_status_make(MX_STAGE_USAGE, "use f32, f16 or bf16", "unknown precision '%s'", text ? text : "");
  return NULL;
}

/* The tokenizer that belongs to an opened model: a GGUF carries its vocabulary, an HF directory a
 * tokenizer.json. (Here, not in tokenizer/, which knows file formats but not models.) */
static mx_status_t tokenizer_for_model(const mx_model_t *m, mx_tokenizer_t **out) {
  if (mx_model_format(m) == MX_MODEL_GGUF) return mx_tokenizer_load_gguf(mx_model_gguf(m), mx_model_path(m), out);
  return mx_tokenizer_load_hf(mx_model_path(m), out);
}

mx_status_t mx_session_open(const mx_session_options_t *o, mx_session_t **out) {
  *out = NULL;
  mx_session_t *s = calloc(1, sizeof *s);
  if (!s) return mx_status_oom();
  s->o = *o;
  s->model_path = strdup(o->model_path);
  s->device = strdup(o->device);
  s->vmfb = o->vmfb ? strdup(o->vmfb) : NULL;
  s->o.vmfb = s->vmfb;
  s->o.model_path = s->model_path;
  s->o.device = s->device;
  double t0 = mx_now_ms();
  mx_status_t st = mx_target_for_device(o->device, &o->target, &s->target);
  if (!st) st = mx_target_check_precision(&s->target, mx_dtype_name(o->precision));
  if (!st) st = mx_model_open(o->model_path, &s->model);
  if (!st) st = tokenizer_for_model(s->model, &s->tok);
  if (!st && o->chat_template) st = mx_chat_template_load(o->chat_template, s->tok);
  if (!st) st = mx_weights_pack_plan(s->model, mx_model_config(s->model), &o->quant, &s->pack);
  if (!st && s->pack) mx_target_for_packed(&s->target);
  if (!st) {
    const mx_model_config_t *c = mx_model_config(s->model);
    mx_llama_graph_options_t go = {.precision = o->precision, .weight_dtype = mx_weights_dtype(s->model, o->precision, s->pack),
                                   .slots = o->slots, .capacity = o->capacity, .score_len = o->score_len, .kv = o->kv,
                                   .decode_steps = o->decode_steps, .device_cuts_asked = o->device_cuts,
                                   .pooled = o->embeddings, .pack = s->pack,
                                   .stacked_params = mx_weights_stacked(s->model, s->pack)};
    mx_graph_target_choices(&s->target, c, &go);
    st = mx_llama_graph_make(c, &go, &s->graph);
    if (!st && mx_tokenizer_vocab_size(s->tok) > c->vocab)
      st = mx_status_make(MX_STAGE_IO, "the tokenizer does not belong to this model",
                          "tokenizer has %d tokens but the model's vocabulary is %d", mx_tokenizer_vocab_size(s->tok), c->vocab);
    /* Here, before the worker, the weights and the compile: a session that cannot fit was refused
     * only at load, after minutes of compiling (engine/memory.h). */
    if (!st) st = mx_memory_check(&s->graph, &s->target, o->device);
  }
  s->t.open_ms = mx_now_ms() - t0;
  if (st) {
    mx_session_close(s);
    return st;
  }
  *out = s;
  return NULL;
}

void mx_graph_target_choices(const mx_target_t *t, const mx_model_config_t *c, mx_llama_graph_options_t *go) {
  if (!go->decode_steps) go->decode_steps = mx_target_decode_steps(t);
  go->device_cuts = go->device_cuts_asked ? go->device_cuts_asked > 0 : mx_target_device_cuts(t);
  go->expand_kv_groups = mx_target_expand_kv_groups(t);
  go->head_attention_slots = mx_target_head_attention_slots(t);
  go->head_attention_window = mx_target_head_attention_window(t);
  go->grouped_attention_slots = mx_target_grouped_attention_slots(t, c->n_heads, c->n_kv_heads, c->head_dim, go->kv);
  go->product_rows = mx_target_product_rows(t);
  go->split_reduction = mx_target_split_reduction(t);
  go->split_decode_reduction = mx_target_split_decode_reduction(t, go->precision);
  go->n_whole_decode_products = mx_target_whole_decode_products(t, go->precision, go->slots, go->whole_decode_products,
                                                                MX_LLAMA_MAX_WHOLE_PRODUCTS);
  go->window_ratio = mx_target_window_ratio(t);
  mx_fuse_rule_t fuse = mx_target_fuse_products(t);
  go->fuse_products = fuse == MX_FUSE_ALWAYS || (fuse == MX_FUSE_STACKED && go->stacked_params);
}

void mx_graph_signature(const mx_llama_graph_t *g, const mx_target_t *t, char *out, size_t cap) {
  const mx_model_config_t *c = g->config;
  size_t n = 0;
#define PUT(...) (n += (size_t)snprintf(out + (n < cap ? n : cap), n < cap ? cap - n : 0, __VA_ARGS__))
  PUT("mlxcel graph v3: %d layers, dim %d, %d/%d heads x %d, ffn %d, vocab %d, %s matmuls, %s weights, %s kv; ", c->n_layers,
      c->dim, c->n_heads, c->n_kv_heads, c->head_dim, c->ffn_dim, c->vocab, mx_dtype_name(g->matmul),
      mx_dtype_name(g->weight_dtype), mx_dtype_name(g->kv));
  if (g->pack) PUT("packed %016llx; ", (unsigned long long)mx_pack_plan_hash(g->pack, mx_pack_plan_size(c)));
  PUT("%d slots, capacity %d (%d KV rows, prefill chunk %d), %d decode steps, score %d, %s decode attention, product rows "
      "%d, %s prefill reductions; target %s:%s;", g->slots, g->capacity, g->kv_rows, g->buckets[g->n_buckets - 1],
      g->decode_steps, g->score_len, g->expand_kv_groups ? "expanded" : "grouped", g->product_rows,
      g->split_reduction ? "split" : "whole", t->backend, t->arch);
  for (int i = 0; i < t->n_flags; i++) PUT(" %s", t->flags[i]);
  if (t->tuning) PUT("; tuning %s", t->tuning->name);
  /* Only where set, so that the graphs without it keep their signatures. */
  /* "at every window" since 2026-12-03: before, windows above 512 kept the expanded form */
  if (g->head_attention_slots > 0) PUT("; per-head decode attention from %d slots at every window", g->head_attention_slots);
  if (g->head_attention_window > 0) PUT("; per-head decode attention from window %d", g->head_attention_window);
  if (mx_llama_grouped_rows(g)) PUT("; grouped decode attention over one batch dimension");
  if (g->values_transposed) PUT("; values stored transposed");
  if (g->split_decode_reduction) PUT("; split decode reductions");
  for (int i = 0; i < g->n_whole_decode_products; i++)
    PUT("%s%dx%d", i ? " " : "; whole decode products ", g->whole_decode_products[i][0], g->whole_decode_products[i][1]);
  if (g->window_ratio == 2) PUT("; decode windows x2");
  if (g->fuse_products) PUT("; fused q/k/v and gate/up products%s", g->stacked_params ? " (stacked parameters)" : "");
  if (mx_llama_has_extends(g) && g->n_buckets > 1) PUT("; short last chunks");
  if (g->pooled) PUT("; pooled prefills");
  if (g->slots > 1) PUT("; slot copies");
  if (g->decode_steps > 1) PUT("; decode steps drawn on the device");
  if (g->device_cuts) PUT(" under top-k, top-p and min-p");
#undef PUT
}

/* A prebuilt module must have been built for this session's graph and flags. */
static mx_status_t check_signature(mx_session_t *s) {
  char want[MX_LLAMA_SIGNATURE_MAX + 1], got[MX_LLAMA_SIGNATURE_MAX + 1];
  mx_graph_signature(&s->graph, &s->target, want, sizeof want);
  mx_tensor_t out;
  int n = 0;
  mx_status_t st = mx_worker_call(s->worker, s->module, MX_LLAMA_SIGNATURE_FN, NULL, 0, 0, &out, 1, &n);
  if (st) {
    mx_status_ignore(st); /* the only expected failure: no such function */
    return mx_status_make(MX_STAGE_MODULE_LOAD, "rebuild it with this mlxcel: `mlxcel compile -m MODEL` with the same options",
                          "%s carries no mlxcel signature (built by an older mlxcel or another tool)", s->o.vmfb);
  }
  int64_t len = n == 1 && out.dtype == MX_I32 ? mx_tensor_count(&out) : 0;
  for (int64_t i = 0; i < len && i < MX_LLAMA_SIGNATURE_MAX; i++) got[i] = (char)((int32_t *)out.data)[i];
  got[len < MX_LLAMA_SIGNATURE_MAX ? len : MX_LLAMA_SIGNATURE_MAX] = '\0';
  if (n == 1) mx_tensor_release(&out);
  want[MX_LLAMA_SIGNATURE_MAX] = '\0';
  if (strcmp(got, want) == 0) return NULL;
  return mx_status_make(MX_STAGE_MODULE_LOAD, "rebuild it with `mlxcel compile -m MODEL` and this session's options, or drop --vmfb",
                        "%s was built for [%s]; this session needs [%s]", s->o.vmfb, got, want);
}

mx_status_t mx_session_start(mx_session_t *s) {
  /* The device first: a missing driver, an absent GPU or a target that is not the device's own
   * architecture fails in a second, before preparing weights or compiling. */
  double t0 = mx_now_ms();
  mx_device_desc_t dev;
  MX_RETURN_IF_ERROR(mx_worker_launch(0, &s->worker));
  MX_RETURN_IF_ERROR(mx_worker_open(s->worker, s->device, &dev));
  MX_RETURN_IF_ERROR(mx_target_check_device(&s->target, dev.uri, dev.arch));
  s->t.worker_ms = mx_now_ms() - t0;
  mx_param_files_t params;
  MX_RETURN_IF_ERROR(mx_weights_prepare(s->model, s->o.precision, s->pack, &s->o.quant, &params));
  s->t.prepare_ms = params.prepare_ms;
  if (params.weight_dtype != s->graph.weight_dtype)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "prepared %s weights for a graph of %s weights",
                          mx_dtype_name(params.weight_dtype), mx_dtype_name(s->graph.weight_dtype));
  t0 = mx_now_ms();
  mx_vmfb_t vmfb = {0};
  if (s->o.vmfb) { /* prebuilt: the module load and the first call check that it fits */
    snprintf(vmfb.path, sizeof vmfb.path, "%s", s->o.vmfb);
    vmfb.hit = true;
  } else {
    char *text, sig[MX_LLAMA_SIGNATURE_MAX + 1];
    mx_graph_signature(&s->graph, &s->target, sig, sizeof sig);
    s->graph.signature = sig;
    mx_status_t est = mx_llama_emit(&s->graph, &text);
    s->graph.signature = NULL;
    MX_RETURN_IF_ERROR(est);
    s->t.emit_ms = mx_now_ms() - t0;
    char what[160];
    const mx_model_config_t *c = mx_model_config(s->model);
    snprintf(what, sizeof what, "the %d-layer %s%s graph (capacity %d, %d slot%s)", c->n_layers, s->pack ? "packed " : "",
             mx_dtype_name(s->o.precision), s->graph.capacity, s->graph.slots, s->graph.slots == 1 ? "" : "s");
    mx_status_t st = mx_compile_cached(&s->target, text, what, &vmfb);
    free(text);
    if (st) return st;
  }
  s->t.compile_ms = vmfb.compile_ms;
  s->t.compile_hit = vmfb.hit;
  t0 = mx_now_ms();
  const char *files[MX_MAX_PARAM_FILES];
  for (int i = 0; i < params.n_files; i++) files[i] = params.files[i];
  MX_RETURN_IF_ERROR(mx_worker_load(s->worker, vmfb.path, files, params.n_files, &s->module));
  if (s->o.vmfb) MX_RETURN_IF_ERROR(check_signature(s));
  s->t.load_ms = mx_now_ms() - t0;
  return NULL;
}

mx_status_t mx_session_restart(mx_session_t *s) {
  mx_worker_destroy(s->worker); /* a dead one is only reaped; a live one is asked to stop */
  s->worker = NULL;
  s->module = 0;
  return mx_session_start(s);
}

mx_status_t mx_session_ping(mx_session_t *s, int timeout_ms) {
  if (!s->worker) return mx_status_make(MX_STAGE_INTERNAL, NULL, "session not started");
  return mx_worker_ping_within(s->worker, timeout_ms);
}

bool mx_session_worker_alive(const mx_session_t *s) { return mx_worker_alive(s->worker); }
pid_t mx_session_worker_pid(const mx_session_t *s) { return s->worker ? mx_worker_pid(s->worker) : -1; }
void mx_session_defer_token_checks(mx_session_t *s) { s->caller_checks_tokens = true; }

void mx_session_close(mx_session_t *s) {
  if (!s) return;
  mx_worker_destroy(s->worker);
  mx_tokenizer_close(s->tok);
  mx_model_close(s->model);
  free(s->pack);
  free(s->model_path);
  free(s->device);
  free(s->vmfb);
  free(s);
}

const mx_model_config_t *mx_session_config(const mx_session_t *s) { return mx_model_config(s->model); }
const mx_tokenizer_t *mx_session_tokenizer(const mx_session_t *s) { return s->tok; }
const mx_session_timings_t *mx_session_timings(const mx_session_t *s) { return &s->t; }
int mx_session_capacity(const mx_session_t *s) { return s->graph.capacity; }
int mx_session_slots(const mx_session_t *s) { return s->graph.slots; }

mx_status_t mx_check_token_ids(const char *fn, const int32_t *ids, int n, int vocab, bool from_device) {
  for (int i = 0; i < n; i++) {
    if (ids[i] >= 0 && ids[i] < vocab) continue;
    if (from_device)
      return mx_status_make(MX_STAGE_CALL,
                            "retry; if it recurs with this prompt, report it with the prompt, the device and the VMFB "
                            "(NaN or infinite logits, or a miscompiled argmax: docs/spikes.md)",
                            "%s returned token %d (row %d), outside the vocabulary 0..%d", fn, ids[i], i, vocab - 1);
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "%s given token %d (row %d), outside the vocabulary 0..%d", fn,
                          ids[i], i, vocab - 1);
  }
  return NULL;
}

/* Calls fn and takes back either `n_floats` floats or `n_tokens` i32 tokens. */
static mx_status_t call(mx_session_t *s, const char *fn, mx_tensor_t *in, int n_in, float *floats, size_t n_floats,
                        int32_t *tokens, int n_tokens) {
  if (!s->worker) return mx_status_make(MX_STAGE_INTERNAL, NULL, "session not started");
  mx_tensor_t out;
  int n_out = 0;
  MX_RETURN_IF_ERROR(mx_worker_call(s->worker, s->module, fn, in, n_in, 0, &out, 1, &n_out));
  mx_status_t st = NULL;
  if (n_out != 1) st = mx_status_make(MX_STAGE_INTERNAL, NULL, "%s returned %d outputs", fn, n_out);
  else if (floats) {
    if (out.dtype != MX_F32 || (size_t)mx_tensor_count(&out) != n_floats)
      st = mx_status_make(MX_STAGE_INTERNAL, NULL, "%s returned an unexpected logits tensor", fn);
    else memcpy(floats, out.data, n_floats * sizeof(float));
  } else {
    if (out.dtype != MX_I32 || mx_tensor_count(&out) != n_tokens)
      st = mx_status_make(MX_STAGE_INTERNAL, NULL, "%s returned an unexpected token tensor", fn);
    else {
      memcpy(tokens, out.data, sizeof(int32_t) * (size_t)n_tokens);
      if (!s->caller_checks_tokens) st = mx_check_token_ids(fn, tokens, n_tokens, mx_model_config(s->model)->vocab, true);
    }
  }
  if (n_out == 1) mx_tensor_release(&out);
  return st;
}

static int window_for(const mx_session_t *s, int last) { return mx_llama_window_for(&s->graph, last, false); }

/* One prefill call: tokens [start, start+n) of the prompt in a call of `width` tokens (padded), by
 * prefill_<width> when start is 0, else by extend_<W> (width the chunk) or extend_<W>_t<width>; `logits`
 * or `next` from the call's last token,
 * or with `pooled` (dim floats) the sum of the call's hidden states instead. */
static mx_status_t prefill_call(mx_session_t *s, int slot, const int32_t *ids, int start, int n, int width, float *logits,
                                int32_t *next, float *pooled) {
  int32_t *padded = calloc((size_t)width, sizeof *padded), st0 = start, len = n, sl = slot;
  if (!padded) return mx_status_oom();
  memcpy(padded, ids + start, sizeof *ids * (size_t)n);
  int64_t shape = width;
  /* prefill_<N>(tokens, length, slot); extend_<W>(tokens, start, length, slot). */
  mx_tensor_t in[4];
  int n_in = 0;
  in[n_in++] = mx_tensor_host(MX_I32, 1, &shape, padded);
  if (start > 0) in[n_in++] = mx_tensor_host(MX_I32, 0, NULL, &st0);
  in[n_in++] = mx_tensor_host(MX_I32, 0, NULL, &len);
  in[n_in++] = mx_tensor_host(MX_I32, 0, NULL, &sl);
  char fn[48];
  mx_llama_fn_t kind = start == 0 ? (pooled ? MX_FN_PREFILL_POOLED : logits ? MX_FN_PREFILL_LOGITS : MX_FN_PREFILL)
                                  : (pooled ? MX_FN_EXTEND_POOLED : logits ? MX_FN_EXTEND_LOGITS : MX_FN_EXTEND);
  if (start == 0) mx_llama_fn_name(kind, width, fn, sizeof fn);
  else mx_llama_extend_name(kind, mx_llama_window_for(&s->graph, start + n - 1, true), width, mx_session_prefill_chunk(s), fn, sizeof fn);
  const mx_model_config_t *c = mx_model_config(s->model);
  float *floats = pooled ? pooled : logits;
  int32_t ignored;
  mx_status_t st = call(s, fn, in, n_in, floats, pooled ? (size_t)c->dim : logits ? (size_t)c->vocab : 0,
                        next ? next : &ignored, 1);
  free(padded);
  return st;
}

int mx_session_prefill_chunk(const mx_session_t *s) { return s->graph.buckets[s->graph.n_buckets - 1]; }

mx_status_t mx_session_prefill_slot(mx_session_t *s, int slot, const int32_t *ids, int n, float *logits, int32_t *next) {
  return mx_session_prefill_slot_from(s, slot, ids, 0, n, logits, next);
}

static mx_status_t prefill_from(mx_session_t *s, int slot, const int32_t *ids, int from, int n, float *logits, int32_t *next,
                                float *pooled);

mx_status_t mx_session_prefill_slot_from(mx_session_t *s, int slot, const int32_t *ids, int from, int n, float *logits,
                                         int32_t *next) {
  return prefill_from(s, slot, ids, from, n, logits, next, NULL);
}

bool mx_session_has_embeddings(const mx_session_t *s) { return s->graph.pooled; }

mx_status_t mx_session_embed_slot(mx_session_t *s, int slot, const int32_t *ids, int n, float *out) {
  if (!s->graph.pooled) return mx_status_make(MX_STAGE_INTERNAL, NULL, "the session was opened without embeddings");
  MX_RETURN_IF_ERROR(prefill_from(s, slot, ids, 0, n, NULL, NULL, out));
  int dim = mx_model_config(s->model)->dim;
  /* The mean, then unit length: dividing the sum by n would not change the unit vector, so the sum
   * is normalised directly (in double). */
  double norm = 0;
  for (int i = 0; i < dim; i++) norm += (double)out[i] * out[i];
  if (!isfinite(norm))
    return mx_status_make(MX_STAGE_CALL, "retry; if it recurs with this input, report it with the input, the model and the device",
                          "the device returned a non-finite hidden state for this input (NaN or infinite values)");
  norm = norm > 0 ? 1.0 / sqrt(norm) : 0;
  for (int i = 0; i < dim; i++) out[i] = (float)(out[i] * norm);
  return NULL;
}

/* The smallest prefill bucket that holds n <= the chunk tokens. */
static int bucket_for(const mx_session_t *s, int n) {
  for (int i = 0; i < s->graph.n_buckets; i++)
    if (s->graph.buckets[i] >= n) return s->graph.buckets[i];
  return mx_session_prefill_chunk(s);
}

/* Prefill from `from`; with `pooled` (dim floats) the sum of every call's hidden states goes there
 * instead of a token or logits. */
static mx_status_t prefill_from(mx_session_t *s, int slot, const int32_t *ids, int from, int n, float *logits, int32_t *next,
                                float *pooled) {
  int chunk = mx_session_prefill_chunk(s);
  if (from < 0 || from % chunk || (from && from >= n))
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "prefill from %d of %d tokens (chunks of %d)", from, n, chunk);
  if (n < 1 || n > s->graph.capacity)
    return mx_status_make(MX_STAGE_USAGE, "shorten the prompt or raise the context capacity",
                          "a prompt of %d tokens does not fit the context capacity %d", n, s->graph.capacity);
  if (slot < 0 || slot >= s->graph.slots)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "slot %d of %d", slot, s->graph.slots);
  MX_RETURN_IF_ERROR(mx_check_token_ids("prefill", ids, n, mx_model_config(s->model)->vocab, false));
  if (n <= chunk) return prefill_call(s, slot, ids, 0, n, bucket_for(s, n), logits, next, pooled); /* from is 0 */
  /* A long prompt: full chunks, then the rest in the smallest bucket that holds it, padded (the cache
   * has rows for its padding); only the last call's logits or token are the prompt's; pooled sums add
   * up over the calls. */
  int dim = mx_model_config(s->model)->dim;
  float *part = pooled ? calloc((size_t)dim, sizeof *part) : NULL;
  if (pooled && !part) return mx_status_oom();
  if (pooled) memset(pooled, 0, sizeof *pooled * (size_t)dim);
  mx_status_t st = NULL;
  for (int start = from; start < n && !st; start += chunk) {
    int len = n - start < chunk ? n - start : chunk, width = start == 0 ? chunk : bucket_for(s, len);
    bool last = start + len == n;
    st = prefill_call(s, slot, ids, start, len, width, last ? logits : NULL, last ? next : NULL, part);
    for (int i = 0; pooled && !st && i < dim; i++) pooled[i] += part[i];
  }
  free(part);
  return st;
}

mx_status_t mx_session_prefill(mx_session_t *s, const int32_t *ids, int n, float *logits, int32_t *next) {
  return mx_session_prefill_slot(s, 0, ids, n, logits, next);
}

/* One decode call for every slot: `steps` steps picked on the device (decode_<W>_steps, K x slots
 * tokens into next, drawn as draw[b] says, NULL: greedy), or one greedy step (decode_<W>: slots tokens;
 * decode_<W>_logits: slots x vocab logits). Checks that every position and the steps - 1 after it lie
 * inside the capacity and every token in the vocabulary, and calls the smallest window that holds the
 * last position written. */
static mx_status_t decode_call(mx_session_t *s, const int32_t *tokens, const int32_t *pos, int steps, const mx_device_draw_t *draw, float *logits,
                               int32_t *next) {
  int S = s->graph.slots, last = 0;
  int32_t at[MX_LLAMA_MAX_SLOTS];
  for (int b = 0; b < S; b++) {
    bool parked = pos[b] < 0;
    at[b] = parked ? -(pos[b] + 1) : pos[b];
    if (at[b] + steps > (parked ? s->graph.kv_rows : s->graph.capacity))
      return mx_status_make(MX_STAGE_USAGE, "raise the context capacity", "position %d%s is outside the context capacity %d",
                            at[b] + steps - 1, steps > 1 ? " (the last of a multi-step call)" : "", s->graph.capacity);
    if (!parked && at[b] + steps - 1 > last) last = at[b] + steps - 1;
  }
  MX_RETURN_IF_ERROR(mx_check_token_ids("decode", tokens, S, mx_model_config(s->model)->vocab, false));
  float temperature[MX_LLAMA_MAX_SLOTS] = {0}, top_p[MX_LLAMA_MAX_SLOTS], min_p[MX_LLAMA_MAX_SLOTS] = {0};
  int32_t key[MX_LLAMA_MAX_SLOTS] = {0}, top_k[MX_LLAMA_MAX_SLOTS] = {0};
  int vocab = mx_model_config(s->model)->vocab;
  bool any_cut = false; /* then decode_<W>_cut_steps, else decode_<W>_steps */
  for (int b = 0; b < S; b++) top_p[b] = 1;
  for (int b = 0; steps > 1 && draw && b < S; b++) {
    const mx_device_draw_t *d = &draw[b];
    temperature[b] = d->temperature, key[b] = (int32_t)d->key; /* the same 32 bits */
    top_k[b] = d->top_k, top_p[b] = d->top_p, min_p[b] = d->min_p;
    if (!(temperature[b] >= 0 && temperature[b] <= 100))
      return mx_status_make(MX_STAGE_INTERNAL, NULL, "slot %d's temperature %g for the device's draw", b, temperature[b]);
    bool cut = (top_k[b] > 0 && top_k[b] < vocab) || top_p[b] != 1 || min_p[b] != 0;
    if (cut && !s->graph.device_cuts)
      return mx_status_make(MX_STAGE_INTERNAL, NULL, "slot %d asks the device for a cut the module does not draw", b);
    any_cut = any_cut || cut;
    if (!(top_k[b] >= 0 && top_p[b] > 0 && top_p[b] <= 1 && min_p[b] >= 0 && min_p[b] < 1))
      return mx_status_make(MX_STAGE_INTERNAL, NULL, "slot %d's cuts top-k %d, top-p %g, min-p %g for the device's draw", b,
                            (int)top_k[b], top_p[b], min_p[b]);
  }
  int64_t shape = S;
  /* The tensors only read the host arrays. */
  mx_tensor_t in[7] = {mx_tensor_host(MX_I32, 1, &shape, (int32_t *)tokens), mx_tensor_host(MX_I32, 1, &shape, at),
                       mx_tensor_host(MX_F32, 1, &shape, temperature), mx_tensor_host(MX_I32, 1, &shape, key),
                       mx_tensor_host(MX_I32, 1, &shape, top_k), mx_tensor_host(MX_F32, 1, &shape, top_p),
                       mx_tensor_host(MX_F32, 1, &shape, min_p)};
  size_t V = (size_t)vocab;
  char fn[48];
  mx_llama_fn_t kind = steps > 1 ? (any_cut ? MX_FN_DECODE_CUT_STEPS : MX_FN_DECODE_STEPS) : logits ? MX_FN_DECODE_LOGITS : MX_FN_DECODE;
  mx_llama_fn_name(kind, window_for(s, last), fn, sizeof fn);
  return call(s, fn, in, steps == 1 ? 2 : any_cut ? 7 : 4, logits, logits ? (size_t)S * V : 0, next, steps * S);
}

mx_status_t mx_session_copy_slot(mx_session_t *s, int src, int dst, int n) {
  if (s->graph.slots < 2 || src < 0 || dst < 0 || src >= s->graph.slots || dst >= s->graph.slots || src == dst || n < 1 ||
      n > s->graph.capacity)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "copy of %d rows from slot %d to %d of %d", n, src, dst, s->graph.slots);
  int32_t from = src, to = dst, back = -1;
  mx_tensor_t in[2] = {mx_tensor_host(MX_I32, 0, NULL, &from), mx_tensor_host(MX_I32, 0, NULL, &to)};
  char fn[48];
  mx_llama_fn_name(MX_FN_COPY_SLOT, window_for(s, n - 1), fn, sizeof fn);
  mx_status_t st = call(s, fn, in, 2, NULL, 0, &back, 1); /* a slot, not a token: below any vocabulary */
  if (!st && back != dst) st = mx_status_make(MX_STAGE_INTERNAL, NULL, "%s answered slot %d for %d", fn, back, dst);
  return st;
}

mx_status_t mx_session_decode_slots(mx_session_t *s, const int32_t *tokens, const int32_t *pos, float *logits,
                                    int32_t *next) {
  return decode_call(s, tokens, pos, 1, NULL, logits, next);
}

int mx_session_decode_steps(const mx_session_t *s) { return s->graph.decode_steps; }

bool mx_session_device_cuts(const mx_session_t *s) { return s->graph.device_cuts; }

mx_status_t mx_session_decode_slots_steps(mx_session_t *s, const int32_t *tokens, const int32_t *pos, const mx_device_draw_t *draw,
                                          int32_t *next) {
  if (s->graph.decode_steps < 2) return mx_status_make(MX_STAGE_INTERNAL, NULL, "the module has no multi-step decode");
  return decode_call(s, tokens, pos, s->graph.decode_steps, draw, NULL, next);
}

mx_status_t mx_session_decode(mx_session_t *s, int32_t token, int pos, float *logits, int32_t *next) {
  if (s->graph.slots != 1)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "single-sequence decode on a %d-slot session", s->graph.slots);
  int32_t p = pos;
  return mx_session_decode_slots(s, &token, &p, logits, next);
}

mx_status_t mx_session_score(mx_session_t *s, const int32_t *ids, int n, float *out) {
  int S = s->graph.score_len; /* resolved by the graph (MX_LLAMA_SCORE_CAPACITY) */
  if (S <= 0 || n < 1 || n > S)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "score of %d tokens with score length %d", n, S);
  int32_t *padded = calloc((size_t)S, sizeof *padded);
  float *all = malloc(sizeof(float) * (size_t)S * (size_t)mx_model_config(s->model)->vocab);
  mx_status_t st = (!padded || !all) ? mx_status_oom() : NULL;
  if (!st) {
    memcpy(padded, ids, sizeof *ids * (size_t)n);
    int64_t shape = S;
    mx_tensor_t in[1] = {mx_tensor_host(MX_I32, 1, &shape, padded)};
    char fn[48];
    mx_llama_fn_name(MX_FN_SCORE, S, fn, sizeof fn);
    size_t V = (size_t)mx_model_config(s->model)->vocab;
    st = call(s, fn, in, 1, all, (size_t)S * V, NULL, 0);
    if (!st) memcpy(out, all, sizeof(float) * (size_t)n * V);
  }
  free(padded);
  free(all);
  return st;
}

mx_status_t mx_session_device_stats(mx_session_t *s, mx_alloc_stats_t *out) { return mx_worker_stats(s->worker, out); }
