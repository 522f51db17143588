/* Builds small GGUF files in memory for tests and fuzz seeds (header, metadata, tensor infos,
 * aligned data). Not a general writer: just enough to make valid files and then break them. */
#ifndef MX_TESTS_GGUF_WRITER_H
#define MX_TESTS_GGUF_WRITER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint8_t *buf;
  size_t len, cap;
} gw_buf_t;

static inline void gw_put(gw_buf_t *b, const void *p, size_t n) {
  if (b->len + n > b->cap) {
    b->cap = (b->len + n) * 2 + 64;
    b->buf = realloc(b->buf, b->cap);
  }
  memcpy(b->buf + b->len, p, n);
  b->len += n;
}
static inline void gw_u32(gw_buf_t *b, uint32_t v) { gw_put(b, &v, 4); }
static inline void gw_u64(gw_buf_t *b, uint64_t v) { gw_put(b, &v, 8); }
static inline void gw_str(gw_buf_t *b, const char *s) {
  gw_u64(b, strlen(s));
  gw_put(b, s, strlen(s));
}
static inline void gw_kv_u32(gw_buf_t *b, const char *k, uint32_t v) {
  gw_str(b, k);
  gw_u32(b, 4);
  gw_u32(b, v);
}
static inline void gw_kv_f32(gw_buf_t *b, const char *k, float v) {
  gw_str(b, k);
  gw_u32(b, 6);
  gw_put(b, &v, 4);
}
static inline void gw_kv_str(gw_buf_t *b, const char *k, const char *v) {
  gw_str(b, k);
  gw_u32(b, 8);
  gw_str(b, v);
}

#include "base/utf8.h"
#include "format/wtype.h"
#include "tokenizer/internal.h"

/* A complete tiny llama GGUF: 1 layer, dim 64, 2 heads of 32, 1 KV head, ffn 128, vocab 256 + 2,
 * tensors of every supported type, and a byte-level "gpt2" vocabulary of the 256 bytes plus two
 * control tokens. Returns the bytes (caller frees) and their size. */
typedef struct {
  const char *name;
  int rank;
  uint64_t ne[2]; /* ggml order: innermost first */
  uint32_t type;  /* ggml type */
  mx_wtype_t wt;
} gw_tensor_t;

/* The same for another GGUF architecture: "qwen2" adds the Q/K/V biases, "qwen3" the Q/K norms, "gemma3"
 * those and the norms after attention and after the MLP, "gemma2" those norms only; "phi3" fuses Q/K/V
 * into attn_qkv and gate/up into ffn_up, as llama.cpp's converter does. */
static inline uint8_t *gw_tiny_model(const char *arch, size_t *size) {
  enum { DIM = 64, HEADS = 2, KV = 1, HD = 32, FFN = 128, VOCAB = 258 };
  gw_tensor_t ts[16] = {
      {"token_embd.weight", 2, {DIM, VOCAB}, 8, MX_W_Q8_0},    {"output_norm.weight", 1, {DIM, 1}, 0, MX_W_F32},
      {"blk.0.attn_norm.weight", 1, {DIM, 1}, 0, MX_W_F32},    {"blk.0.attn_q.weight", 2, {DIM, HEADS * HD}, 3, MX_W_Q4_1},
      {"blk.0.attn_k.weight", 2, {DIM, KV * HD}, 3, MX_W_Q4_1}, {"blk.0.attn_v.weight", 2, {DIM, KV * HD}, 2, MX_W_Q4_0},
      {"blk.0.attn_output.weight", 2, {HEADS * HD, DIM}, 1, MX_W_F16}, {"blk.0.ffn_norm.weight", 1, {DIM, 1}, 0, MX_W_F32},
      {"blk.0.ffn_gate.weight", 2, {DIM, FFN}, 30, MX_W_BF16}, {"blk.0.ffn_up.weight", 2, {DIM, FFN}, 0, MX_W_F32},
      {"blk.0.ffn_down.weight", 2, {FFN, DIM}, 0, MX_W_F32},
  };
  int nt = 11;
  if (!strcmp(arch, "phi3")) { /* attn_qkv in place of attn_q/k/v, ffn_up twice as tall in place of ffn_gate */
    ts[3] = (gw_tensor_t){"blk.0.attn_qkv.weight", 2, {DIM, (HEADS + 2 * KV) * HD}, 3, MX_W_Q4_1};
    ts[4] = ts[6];
    ts[5] = ts[7];
    ts[6] = (gw_tensor_t){"blk.0.ffn_up.weight", 2, {DIM, 2 * FFN}, 0, MX_W_F32};
    ts[7] = ts[10];
    nt = 8;
  }
  if (!strcmp(arch, "qwen2")) {
    ts[nt++] = (gw_tensor_t){"blk.0.attn_q.bias", 1, {HEADS * HD, 1}, 0, MX_W_F32};
    ts[nt++] = (gw_tensor_t){"blk.0.attn_k.bias", 1, {KV * HD, 1}, 0, MX_W_F32};
    ts[nt++] = (gw_tensor_t){"blk.0.attn_v.bias", 1, {KV * HD, 1}, 0, MX_W_F32};
  } else if (!strcmp(arch, "qwen3") || !strcmp(arch, "gemma3")) {
    ts[nt++] = (gw_tensor_t){"blk.0.attn_q_norm.weight", 1, {HD, 1}, 0, MX_W_F32};
    ts[nt++] = (gw_tensor_t){"blk.0.attn_k_norm.weight", 1, {HD, 1}, 0, MX_W_F32};
  }
  if (!strcmp(arch, "gemma3") || !strcmp(arch, "gemma2")) {
    ts[nt++] = (gw_tensor_t){"blk.0.post_attention_norm.weight", 1, {DIM, 1}, 0, MX_W_F32};
    ts[nt++] = (gw_tensor_t){"blk.0.post_ffw_norm.weight", 1, {DIM, 1}, 0, MX_W_F32};
  }
  char key[64];
#define GW_KEY(suffix) (snprintf(key, sizeof key, "%s." suffix, arch), key)
  gw_buf_t b = {0};
  gw_put(&b, "GGUF", 4);
  gw_u32(&b, 3);
  gw_u64(&b, (uint64_t)nt);
  gw_u64(&b, 15);
  gw_kv_str(&b, "general.architecture", arch);
  gw_kv_u32(&b, GW_KEY("block_count"), 1);
  gw_kv_u32(&b, GW_KEY("embedding_length"), DIM);
  gw_kv_u32(&b, GW_KEY("attention.head_count"), HEADS);
  gw_kv_u32(&b, GW_KEY("attention.head_count_kv"), KV);
  gw_kv_u32(&b, GW_KEY("feed_forward_length"), FFN);
  gw_kv_u32(&b, GW_KEY("context_length"), 128);
  gw_kv_f32(&b, GW_KEY("rope.freq_base"), 10000.0f);
  gw_kv_f32(&b, GW_KEY("attention.layer_norm_rms_epsilon"), 1e-5f);
#undef GW_KEY
  gw_kv_str(&b, "tokenizer.ggml.model", "gpt2");
  gw_kv_str(&b, "tokenizer.ggml.pre", "smollm");
  /* tokens: two control tokens, then the 256 bytes in byte-level spelling */
  gw_str(&b, "tokenizer.ggml.tokens");
  gw_u32(&b, 9);
  gw_u32(&b, 8);
  gw_u64(&b, VOCAB);
  gw_str(&b, "<|im_start|>");
  gw_str(&b, "<|im_end|>");
  for (int i = 0; i < 256; i++) {
    char s[4];
    int n = mx_utf8_encode(mx_bytelevel_char((uint8_t)i), s);
    gw_u64(&b, (uint64_t)n);
    gw_put(&b, s, (size_t)n);
  }
  gw_str(&b, "tokenizer.ggml.token_type");
  gw_u32(&b, 9);
  gw_u32(&b, 5);
  gw_u64(&b, VOCAB);
  for (int i = 0; i < VOCAB; i++) gw_u32(&b, i < 2 ? 3 : 1);
  gw_str(&b, "tokenizer.ggml.merges");
  gw_u32(&b, 9);
  gw_u32(&b, 8);
  gw_u64(&b, 0);
  gw_kv_u32(&b, "tokenizer.ggml.bos_token_id", 0);
  uint64_t off = 0;
  for (int i = 0; i < nt; i++) {
    gw_str(&b, ts[i].name);
    gw_u32(&b, (uint32_t)ts[i].rank);
    for (int d = 0; d < ts[i].rank; d++) gw_u64(&b, ts[i].ne[d]);
    gw_u32(&b, ts[i].type);
    gw_u64(&b, off);
    uint64_t nbytes;
    mx_wtype_nbytes(ts[i].wt, ts[i].ne[0] * (ts[i].rank == 2 ? ts[i].ne[1] : 1), &nbytes);
    off += (nbytes + 31) / 32 * 32;
  }
  while (b.len % 32) gw_put(&b, "", 1);
  size_t data_start = b.len;
  for (uint64_t i = 0; i < off; i++) {
    uint8_t v = (uint8_t)(i * 37u);
    gw_put(&b, &v, 1);
  }
  (void)data_start;
  *size = b.len;
  return b.buf;
}

static inline uint8_t *gw_tiny_llama(size_t *size) { return gw_tiny_model("llama", size); }

/* A Gemma-style SentencePiece vocabulary, tokenizer only (tokenizer.ggml.model "llama", the given
 * architecture, scores -position): four control tokens (<pad> <eos> <bos> <unk>), the 256 byte tokens <0x00>..<0xFF>, then
 * the pieces U+2581, a, b, ab, U+2581a, U+2581ab (their order makes the derived merges' ranks), a run
 * of two spaces and a newline as user-defined tokens, and <start_of_turn> as a control one; BOS 2,
 * added. Returns the bytes (caller frees) and their size. */
static inline uint8_t *gw_spm_vocab(const char *arch, size_t *size) {
  static const char *const pieces[] = {"\xe2\x96\x81", "a", "b", "ab", "\xe2\x96\x81" "a", "\xe2\x96\x81" "ab"};
  enum { N = 4 + 256 + 6 + 3 };
  gw_buf_t b = {0};
  gw_put(&b, "GGUF", 4);
  gw_u32(&b, 3);
  gw_u64(&b, 0);
  gw_u64(&b, 7);
  gw_kv_str(&b, "general.architecture", arch);
  gw_kv_str(&b, "tokenizer.ggml.model", "llama");
  gw_str(&b, "tokenizer.ggml.scores"); /* -position, as Llama 2's file has them for its pieces */
  gw_u32(&b, 9);
  gw_u32(&b, 6);
  gw_u64(&b, N);
  for (int i = 0; i < N; i++) {
    float f = (float)-i;
    gw_put(&b, &f, 4);
  }
  gw_str(&b, "tokenizer.ggml.tokens");
  gw_u32(&b, 9);
  gw_u32(&b, 8);
  gw_u64(&b, N);
  const char *ctl[] = {"<pad>", "<eos>", "<bos>", "<unk>"};
  for (int i = 0; i < 4; i++) gw_str(&b, ctl[i]);
  for (int i = 0; i < 256; i++) {
    char s[8];
    snprintf(s, sizeof s, "<0x%02X>", i);
    gw_str(&b, s);
  }
  for (int i = 0; i < 6; i++) gw_str(&b, pieces[i]);
  gw_str(&b, "  ");
  gw_str(&b, "\n");
  gw_str(&b, "<start_of_turn>");
  gw_str(&b, "tokenizer.ggml.token_type");
  gw_u32(&b, 9);
  gw_u32(&b, 5);
  gw_u64(&b, N);
  for (int i = 0; i < N; i++) gw_u32(&b, i < 4 || i == N - 1 ? 3 : i < 4 + 256 ? 6 : i >= N - 3 ? 4 : 1);
  gw_kv_u32(&b, "tokenizer.ggml.bos_token_id", 2);
  gw_str(&b, "tokenizer.ggml.add_bos_token");
  gw_u32(&b, 7);
  uint8_t yes = 1;
  gw_put(&b, &yes, 1);
  while (b.len % 32) gw_put(&b, "", 1); /* the (empty) data section starts aligned */
  *size = b.len;
  return b.buf;
}

#endif
