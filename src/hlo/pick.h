/* The token a decode step picks on the device from its logits [S, V] (f32, one row per slot): the
 * argmax, the seeded Gumbel-max draw of base/gumbel.h, and the cuts (top-k, top-p, min-p) that
 * narrow the draw to the candidates the host sampler keeps (engine/sampler.c). Graph pieces shared by
 * every function that picks (hlo/llama.c) and by the tests that hold them to the host's picks. */
#ifndef MX_HLO_PICK_H
#define MX_HLO_PICK_H

#include <stdbool.h>
#include <stdint.h>

#include "hlo/builder.h"

typedef struct {
  mx_hlo_t *h;
  int64_t vocab;    /* V */
  bool fence_iotas; /* several picks in one function: each iota behind a barrier (see pick.c) */
} mx_pick_t;

/* Per row, the lowest index of the largest logit, as torch.argmax picks: [R] i32. */
mx_hval_t mx_pick_argmax(const mx_pick_t *p, mx_hval_t logits);

/* logits + temperature * g, g the Gumbel noise of (key, pos, id) per slot (temperature f32 [S], key and
 * pos i32 [S]): its argmax is the seeded draw from softmax(logits / temperature); temperature 0 keeps
 * the logits exactly. */
mx_hval_t mx_pick_gumbel_scores(const mx_pick_t *p, mx_hval_t logits, mx_hval_t temperature, mx_hval_t key, mx_hval_t pos);

/* The per-slot cuts of a draw: top_k i32 [S] (0 or >= V: off), top_p f32 [S] (1: off), min_p f32 [S]
 * (0: off), over softmax(logits / temperature). */
typedef struct {
  mx_hval_t top_k, top_p, min_p;
} mx_pick_cuts_t;

/* Which tokens survive the cuts: [S, V] i1, the host sampler's candidates (the shortest prefix of the
 * order logit descending, ties by the lower id, that top-k and top-p each ask for, and the tokens of
 * weight >= min_p of the largest). A slot at temperature 0 or with every cut off keeps every token. */
mx_hval_t mx_pick_candidates(const mx_pick_t *p, mx_hval_t logits, mx_hval_t temperature, const mx_pick_cuts_t *cuts);

/* The draw of a step: the argmax of the Gumbel scores over the candidates (every token when cuts is
 * NULL): [S] i32. */
mx_hval_t mx_pick_draw(const mx_pick_t *p, mx_hval_t logits, mx_hval_t temperature, mx_hval_t key, mx_hval_t pos,
                       const mx_pick_cuts_t *cuts);

#endif
