/* The planners: for a product call (ck_plan_product) and a shortest-path call (ck_plan_apsp),
 * everything that can be decided before anything runs (ck_plan.h): the devices that share the
 * work, how host arrays move (panels, slices, whole, page by page), whether single and double
 * values are looked at for the integer paths, how pages run, whether the rounds look ahead.
 * The executors (call.c, and the families below it) carry the plan out; what only the data tells
 * (the class the arithmetic ran in, the words, the shifts, the split) they note into it. The
 * numbers behind each decision are in plan_policy.h; the switches tests set (narrowing, pages
 * mode) live here, as the planner's inputs. */
#include <stdio.h>
#include <string.h>

#include "ck_internal.h"
#include "plan_policy.h"

static int narrow_mode = CK_NARROW_AUTO;
static int pages_mode = CK_PAGES_AUTO;
static int graph_mode = CK_APSP_GRAPH_AUTO;
static ck_plan last_plan;            /* the gateway thread's last call */
static _Thread_local ck_plan *bound; /* the plan this thread carries out */

int ck_minplus_set_narrow(int mode) {
  const int old = narrow_mode;
  if (mode >= CK_NARROW_AUTO && mode <= CK_NARROW_ALWAYS) narrow_mode = mode;
  return old;
}

int ck_pages_set_mode(int mode) {
  const int old = pages_mode;
  if (mode >= CK_PAGES_AUTO && mode <= CK_PAGES_BATCHED) pages_mode = mode;
  return old;
}

int ck_apsp_set_graph_mode(int mode) {
  const int old = graph_mode;
  if (mode >= CK_APSP_GRAPH_AUTO && mode <= CK_APSP_GRAPH_ROUNDS) graph_mode = mode;
  return old;
}

/* ---- names, for the gateway's struct ---- */
#define NAME_OF(names, v) \
  ((int)(v) >= 0 && (size_t)(v) < sizeof names / sizeof names[0] ? names[v] : "?")

const char *ck_op_name(ck_op op) {
  static const char *const names[] = {"none", "product", "apsp"};
  return NAME_OF(names, op);
}

const char *ck_where_name(ck_where w) {
  static const char *const names[] = {"host", "device", "random"};
  return NAME_OF(names, w);
}

const char *ck_move_name(ck_move m) {
  static const char *const names[] = {"none", "cpu", "panels", "slices", "whole", "pages"};
  return NAME_OF(names, m);
}

const char *ck_words_name(ck_words w) {
  static const char *const names[] = {"none", "class", "u32",  "u16x2",
                                      "wide", "bits",  "lop3", "b1mma"};
  return NAME_OF(names, w);
}

const char *ck_shifts_name(ck_shifts s) {
  static const char *const names[] = {"none", "known", "guessed", "missed", "ranges"};
  return NAME_OF(names, s);
}

const char *ck_pages_mode_name(int mode) {
  static const char *const names[] = {"auto", "loop", "batched"};
  return NAME_OF(names, mode);
}

const char *ck_plan_semiring_name(int semiring) {
  return semiring == CK_PLUS_TIMES ? "+.*" : ck_semiring_name((ck_semiring)semiring);
}

/* ---- the plan a thread carries out, and the last one ---- */

ck_plan *ck_plan_bind(ck_plan *pl) {
  ck_plan *old = bound;
  bound = pl;
  return old;
}

ck_plan *ck_plan_bound(void) { return bound; }

void ck_plan_keep(const ck_plan *pl) {
  last_plan = *pl;
  last_plan.narrow_a = NULL;
  last_plan.noted = 0;
}

void ck_last_plan(ck_plan *out) { *out = last_plan; }

void ck_plan_forget(void) { memset(&last_plan, 0, sizeof last_plan); }

/* A worker's or a page's results into the call's plan: the found fields of the first one that
 * ran, and the pages' counts. */
void ck_plan_merge(ck_plan *into, const ck_plan *from) {
  if (into->words == CK_WORDS_NONE && from->words != CK_WORDS_NONE) {
    into->work = from->work;
    into->words = from->words;
    into->shifts = from->shifts;
    into->raw = from->raw;
    into->split = from->split;
    into->clusters = from->clusters;
    memcpy(into->tile, from->tile, sizeof into->tile);
  }
  if (into->move == CK_MOVE_NONE || into->move == CK_MOVE_PAGES) {
    if (into->move == CK_MOVE_NONE) into->move = from->move;
    into->panel = from->panel;
    memcpy(into->slice, from->slice, sizeof into->slice);
  }
  into->batched_runs += from->batched_runs;
  into->single_pages += from->single_pages;
}

/* ---- products ---- */

static void current_alone(ck_devices *d) {
  memset(d, 0, sizeof *d);
  d->count = 1;
  d->devices[0] = ck_device_current();
}

/* Every visible device, up to CK_SPREAD_WORKERS. */
static void every_device(ck_devices *d) {
  const int devices = ck_device_count();
  memset(d, 0, sizeof *d);
  d->count = devices < CK_SPREAD_WORKERS ? devices : CK_SPREAD_WORKERS;
  for (int i = 0; i < d->count; i++) d->devices[i] = i;
}

/* The devices asked for (count 0: the default, where `spread` says whether it is every device),
 * with the asked copy_always; checked. */
static ck_status plan_devices(const ck_devices *asked, int spread, ck_devices *d) {
  if (asked && asked->count > 0) *d = *asked;
  else if (spread && ck_device_count() >= 2) every_device(d);
  else current_alone(d);
  d->copy_always = asked ? asked->copy_always : 0;
  return ck_devices_check(d);
}

static size_t round_up_sz(size_t x, size_t to) { return (x + to - 1) / to * to; }

/* Device bytes one slice (mb x kb by kb x nb) needs: its operands, two output slices with their
 * witness (the pipeline's double buffer, or a slice of k and the running result), and the
 * kernels' padded or repacked copies (at most 4 bytes or the element size per padded element),
 * plus a little room for the allocator's rounding. */
static size_t slice_bytes(size_t es, int witness, size_t mb, size_t kb, size_t nb) {
  const size_t w = es > 4 ? es : 4;
  const size_t mp = round_up_sz(mb, CK_PANEL_TILE), np = round_up_sz(nb, CK_PANEL_TILE),
               kp = round_up_sz(kb, 16);
  return es * (mb * kb + kb * nb) + 2 * mb * nb * (es + (witness ? sizeof(double) : 0)) +
         w * (mp * kp + kp * np + mp * np) + ((size_t)64 << 10);
}

/* Slices that fit the device: halving columns of B first (contiguous), then rows of A, then k
 * (which needs a merge). */
static ck_status plan_slices(ck_plan *pl) {
  const size_t es = ck_dtype_size(pl->t);
  size_t budget = ck_dev_budget();
  budget -= budget / CK_SLICE_BUDGET_KEEP;
  size_t mb = pl->m, kb = pl->k, nb = pl->n;
  while (slice_bytes(es, pl->witness, mb, kb, nb) > budget) {
    size_t *d = nb > 256   ? &nb
                : mb > 256 ? &mb
                : kb > 256 ? &kb
                : nb > 1   ? &nb
                : mb > 1   ? &mb
                : kb > 1   ? &kb
                           : NULL;
    if (!d)
      return ck_fail(CK_ERR_OUTOFMEMORY,
                     "min-plus: even a 1x1x1 slice needs more than the %zu bytes of device "
                     "memory free",
                     budget);
    *d = (*d + 1) / 2;
  }
  pl->slice[0] = mb;
  pl->slice[1] = kb;
  pl->slice[2] = nb;
  return CK_OK;
}

/* A 2-D semiring product on host arrays, on the current device: all of it with C in pipelined
 * panels where it fits, else slices. */
static ck_status plan_host_2d(ck_plan *pl) {
  CK_TRY(plan_slices(pl));
  if (pl->slice[0] < pl->m || pl->slice[1] < pl->k || pl->slice[2] < pl->n) {
    pl->move = CK_MOVE_SLICES;
    return CK_OK;
  }
  const size_t per_col = pl->m * (ck_dtype_size(pl->t) + (pl->witness ? sizeof(double) : 0));
  size_t nb = per_col * pl->n <= 2 * CK_PANEL_BYTES ? pl->n
                                                    : (CK_PANEL_BYTES + per_col - 1) / per_col;
  if (pl->narrow && pl->semiring != CK_SR_MIN_PLUS) nb = pl->n; /* ranks are of all of B */
  nb = round_up_sz(nb, CK_PANEL_TILE);
  pl->move = CK_MOVE_PANELS;
  pl->panel = nb < pl->n ? nb : pl->n;
  memset(pl->slice, 0, sizeof pl->slice);
  return CK_OK;
}

/* How a 2-D call (or a share of one) on host arrays moves on the current device: the arithmetic
 * product whole, a semiring product in panels or slices. */
static ck_status plan_host_move(ck_plan *pl) {
  if (pl->semiring == CK_PLUS_TIMES) {
    pl->move = CK_MOVE_WHOLE;
    return CK_OK;
  }
  return pl->m && pl->n ? plan_host_2d(pl) : CK_OK;
}

/* The CPU kernels take host arrays and no devices. */
static ck_status check_cpu_kernel(ck_where where, const ck_devices *devices) {
  if (where != CK_ON_HOST)
    return ck_fail(CK_ERR_INVALID, "the cpu kernel takes host arrays, not device arrays");
  if (devices && devices->count > 0)
    return ck_fail(CK_ERR_INVALID, "the cpu kernel runs on the CPU: DEVICES does not apply");
  return CK_OK;
}

/* Whether a rank of the comparing semirings' products pays (minplus_rank.cu): its sort costs per
 * operand value, what it saves per pair; both must be large enough. Single gains only where it
 * has few distinct values, which cannot be known before the sort: never in "auto". */
static int plan_ranks(const ck_plan *pl) {
  if (narrow_mode == CK_NARROW_ALWAYS) return 1;
  const double pairs = (double)pl->m * (double)pl->k * (double)pl->n;
  const double values = (double)pl->k * (double)(pl->m + pl->n);
  return pl->t == CK_DOUBLE && pairs >= CK_RANK_MIN_PAIRS && pairs >= CK_RANK_MIN_DEPTH * values;
}

/* Whether the call's single or double values are looked at on warptile (one page of a paged call:
 * the batched kernels do not look), by the mode, in "auto" where the product is large enough for
 * the look to pay: min.+ for the integer paths (minplus_narrow.cu), max.min and min.max for their
 * ranks (minplus_rank.cu). */
static int plan_narrow(const ck_plan *pl) {
  if (pl->kernel != CK_MINPLUS_WARPTILE || !ck_dtype_is_float(pl->t) || pl->m * pl->n == 0 ||
      pl->k == 0 || narrow_mode == CK_NARROW_OFF)
    return 0;
  if (pl->semiring == CK_SR_MAX_MIN || pl->semiring == CK_SR_MIN_MAX) return plan_ranks(pl);
  if (pl->semiring != CK_SR_MIN_PLUS) return 0;
  if (narrow_mode == CK_NARROW_ALWAYS) return 1;
  const double pairs = (double)pl->m * (double)pl->k * (double)pl->n;
  return pairs >= (pl->t == CK_SINGLE ? CK_NARROW_MIN_PAIRS_SINGLE : CK_NARROW_MIN_PAIRS_DOUBLE);
}

static ck_status check_product(const ck_call *c) {
  const ck_product *p = &c->p;
  if (c->semiring == CK_PLUS_TIMES) {
    if (!ck_dtype_is_float(p->t))
      return ck_fail(CK_ERR_INVALID, "matmul supports single and double, not %s",
                     ck_dtype_name(p->t));
    if (p->kernel < 0 || p->kernel >= CK_MATMUL_NUM)
      return ck_fail(CK_ERR_INVALID, "unknown matmul kernel %d", p->kernel);
    return CK_OK;
  }
  if (c->semiring < 0 || c->semiring >= CK_NUM_SEMIRINGS)
    return ck_fail(CK_ERR_INVALID, "unknown semiring %d", c->semiring);
  CK_TRY(ck_semiring_check((ck_semiring)c->semiring, p->t));
  if (p->kernel < 0 || p->kernel > CK_MINPLUS_CPU)
    return ck_fail(CK_ERR_INVALID, "unknown min-plus kernel %d", p->kernel);
  return p->kernel == CK_MINPLUS_CPU ? check_cpu_kernel(c->where, c->devices) : CK_OK;
}

/* The call itself, before any decision. */
static void describe(const ck_call *c, ck_op op, ck_plan *pl) {
  memset(pl, 0, sizeof *pl);
  pl->op = op;
  pl->semiring = c->semiring;
  pl->t = c->p.t;
  pl->kernel = c->p.kernel;
  pl->where = c->where;
  pl->m = c->p.m;
  pl->k = c->p.k;
  pl->n = c->p.n;
  pl->pages = c->pages ? c->pages->count : 0;
  pl->witness = c->p.K != NULL || c->witness;
  pl->work = c->p.t;
  pl->pages_mode = pages_mode;
}

ck_status ck_plan_product(const ck_call *c, ck_plan *pl) {
  describe(c, CK_OP_PRODUCT, pl);
  CK_TRY(check_product(c));
  const int semiring = c->semiring != CK_PLUS_TIMES;
  if (semiring && c->p.kernel == CK_MINPLUS_CPU) {
    pl->move = CK_MOVE_CPU;
    return CK_OK;
  }
  CK_TRY(ck_device_init());
  pl->narrow = plan_narrow(pl);
  if (c->pages) { /* one device: the current one, or the one asked for */
    if (c->devices && c->devices->count > 1)
      return ck_fail(CK_ERR_INVALID, "paged products run on one device");
    CK_TRY(plan_devices(c->devices, 0, &pl->devices));
    if (c->where == CK_ON_HOST) pl->move = CK_MOVE_WHOLE; /* CK_MOVE_PAGES where it cannot */
    return CK_OK;
  }
  const double pairs = (double)c->p.m * (double)c->p.k * (double)c->p.n;
  const int spread = c->where == CK_ON_HOST && pairs >= CK_SPREAD_MIN_PAIRS;
  CK_TRY(plan_devices(c->devices, spread, &pl->devices));
  if (c->where != CK_ON_HOST) return CK_OK;
  /* elsewhere, each device's share is planned on its device, by ck_plan_share (spread.c) */
  const int here = pl->devices.count == 1 && pl->devices.devices[0] == ck_device_current();
  return !semiring || here ? plan_host_move(pl) : CK_OK;
}

/* A share of a host-array call run on its own (a device's columns, a page), planned on the
 * current device with the call's decisions. */
ck_status ck_plan_share(const ck_plan *call, const ck_product *share, ck_plan *pl) {
  *pl = *call;
  pl->m = share->m;
  pl->k = share->k;
  pl->n = share->n;
  pl->pages = 0;
  pl->narrow_a = NULL;
  pl->noted = 0;
  pl->batched_runs = pl->single_pages = 0;
  pl->words = CK_WORDS_NONE;
  current_alone(&pl->devices);
  if (call->where != CK_ON_HOST || call->move == CK_MOVE_CPU) return CK_OK;
  return plan_host_move(pl);
}

/* ---- shortest paths ---- */

ck_status ck_apsp_check_class(ck_dtype t) {
  if ((int)t >= 0 && t < CK_NUM_DTYPES && (CK_PRODUCT_CLASSES >> t & 1u)) return CK_OK;
  return ck_fail(CK_ERR_INVALID,
                 "shortest paths take double, single and integers up to 32 bits, not %s",
                 ck_dtype_name(t));
}

/* The path problems the semiring and class pose (ck.h: the contract): or.and is not one (its
 * closure is gpu_closure's); max.* takes the classes of its product; max.+ on an unsigned class
 * would have no value below every weight to mean "no edge". The GPU rounds and the CPU reference
 * take them all (apsp.cu: how each runs on the rounds). */
/* What each path problem is called, the weights it refuses, and its unbounded paths (a diagonal
 * better than the empty path) with their error: the words of the CPU reference and the GPU's. */
typedef struct {
  const char *paths, *refused, *cycle, *self;
  ck_status unbounded;
} apsp_kind;
static const apsp_kind apsp_kinds[CK_NUM_SEMIRINGS] = {
    [CK_SR_MIN_PLUS] = {"shortest", "NaN or -Inf (no edge is +Inf)", "negative cycle",
                        "negative weight", CK_ERR_NEGCYCLE},
    [CK_SR_MAX_PLUS] = {"longest", "NaN or +Inf (no edge is -Inf)", "positive cycle",
                        "positive weight", CK_ERR_POSCYCLE},
    [CK_SR_MAX_MIN] = {"widest", "NaN (no edge is -Inf)", "", "", CK_OK},
    [CK_SR_MIN_MAX] = {"minimax", "NaN (no edge is +Inf)", "", "", CK_OK},
    [CK_SR_MAX_TIMES] = {"most reliable", "NaN or negative (no edge is 0 or -Inf)",
                         "cycle whose product exceeds 1", "weight above 1", CK_ERR_POSCYCLE},
};

const char *ck_apsp_paths(ck_semiring s) { return apsp_kinds[s].paths; }

const char *ck_apsp_refused(ck_semiring s) { return apsp_kinds[s].refused; }

ck_status ck_apsp_unbounded(ck_apsp_args *a, size_t i, int self) {
  const apsp_kind *k = &apsp_kinds[a->semiring];
  char graph[48] = "the graph";
  if (a->page) snprintf(graph, sizeof graph, "the graph of page %zu", a->page);
  a->cycle_vertex = i + 1;
  if (self)
    return ck_fail(k->unbounded, "%s has a %s: vertex %zu has a %s to itself", graph, k->cycle,
                   i + 1, k->self);
  return ck_fail(k->unbounded, "%s has a %s through vertex %zu", graph, k->cycle, i + 1);
}

ck_status ck_apsp_check(ck_semiring s, ck_dtype t) {
  if (s == CK_SR_OR_AND)
    return ck_fail(CK_ERR_INVALID, "paths take min.+, max.+, max.min, min.max or max.*, not %s",
                   ck_plan_semiring_name((int)s));
  CK_TRY(ck_semiring_check(s, t));
  CK_TRY(ck_apsp_check_class(t));
  if (s == CK_SR_MAX_PLUS && (t == CK_UINT8 || t == CK_UINT16 || t == CK_UINT32))
    return ck_fail(CK_ERR_INVALID,
                   "longest paths (max.+) take signed classes: in %s no value lies below every "
                   "weight to mean \"no edge\"",
                   ck_dtype_name(t));
  return CK_OK;
}

ck_status ck_plan_apsp(const ck_apsp_args *a, ck_where where, ck_plan *pl) {
  const ck_call c = {(int)a->semiring,
                     where,
                     {a->t, a->kernel, NULL, NULL, NULL, NULL, a->n, a->n, a->n, NULL, a->semiring},
                     NULL,
                     a->devices,
                     a->P != NULL};
  describe(&c, CK_OP_APSP, pl);
  pl->pages = a->pages;
  CK_TRY(ck_apsp_check(a->semiring, a->t));
  if (a->kernel == CK_APSP_CPU) {
    CK_TRY(check_cpu_kernel(where, a->devices));
    pl->move = CK_MOVE_CPU;
    return CK_OK;
  }
  if (a->kernel != CK_APSP_GPU)
    return ck_fail(CK_ERR_INVALID, "unknown shortest-path kernel %d", a->kernel);
  CK_TRY(ck_device_init());
  /* pages of up to ck_apsp_tiles_n () vertices are shared whole among the devices
   * (apsp_pages.c), by default host arrays of as much work as a product that spreads; a graph,
   * and larger pages, by rows, by default from CK_APSP_SPREAD_MIN_N vertices */
  const int whole = a->pages > 1 && a->n <= ck_apsp_tiles_n();
  const double n = (double)a->n, pairs = (double)a->pages * n * n * n;
  const int spread = whole ? where == CK_ON_HOST && pairs >= CK_SPREAD_MIN_PAIRS
                           : a->n >= CK_APSP_SPREAD_MIN_N;
  CK_TRY(plan_devices(a->devices, spread, &pl->devices));
  const size_t B = ck_apsp_block(), blocks = (a->n + B - 1) / B, most = whole ? a->pages : blocks;
  if (most < (size_t)pl->devices.count) pl->devices.count = most ? (int)most : 1;
  pl->move = where == CK_ON_HOST ? CK_MOVE_WHOLE : CK_MOVE_NONE;
  pl->rounds = blocks;
  pl->looks_ahead = pl->devices.count == 1 && blocks > 1;
  pl->narrow = narrow_mode != CK_NARROW_OFF && ck_dtype_is_float(a->t);
  /* a graph by tiles in one launch, where one device holds it whole: on one device, or pages
   * shared whole (the executor runs the rounds where the work values take 8 bytes:
   * ap_graph_tiles); pages with P from their own size (plan_policy.h) */
  const size_t past = ck_apsp_batch_n() + 1,
               least = a->P && a->pages && past > CK_APSP_PAGES_PATHS_TILES_MIN_N
                           ? CK_APSP_PAGES_PATHS_TILES_MIN_N
                           : past;
  pl->graph_tiles = graph_mode == CK_APSP_GRAPH_AUTO && (whole || pl->devices.count == 1) &&
                    a->n >= least && a->n <= CK_APSP_GRAPH_TILES_MAX_N;
  return CK_OK;
}

/* ---- what the executors find, noted into the plan the thread carries out ---- */

int ck_plan_narrow_default(const ck_product *p) {
  ck_plan pl;
  memset(&pl, 0, sizeof pl);
  pl.semiring = (int)p->semiring;
  pl.t = p->t;
  pl.kernel = p->kernel;
  pl.m = p->m;
  pl.k = p->k;
  pl.n = p->n;
  return plan_narrow(&pl);
}

int ck_plan_pages_mode(const ck_plan *pl) { return pl ? pl->pages_mode : pages_mode; }

/* Notes go to the bound plan until its first device product is done (ck_plan_noted). */
static ck_plan *open_plan(void) { return bound && !bound->noted ? bound : NULL; }

void ck_plan_noted(ck_plan *pl) {
  if (pl) pl->noted = 1;
}

ck_status ck_plan_run_bound(ck_product_fn *run, const ck_product *p) {
  if (!p->plan) return run(p);
  ck_plan *const before = ck_plan_bind(p->plan);
  const ck_status s = run(p);
  if (before != p->plan) ck_plan_noted(p->plan);
  ck_plan_bind(before);
  return s;
}

void ck_plan_note_class(ck_dtype work) {
  ck_plan *const bound = open_plan();
  if (!bound) return;
  bound->work = work;
  bound->words = CK_WORDS_CLASS;
  bound->shifts = CK_SHIFTS_NONE;
  bound->raw = 0;
  bound->split = bound->clusters = 1;
  memset(bound->tile, 0, sizeof bound->tile);
}

void ck_plan_note_path(ck_words words, ck_shifts shifts, int raw) {
  ck_plan *const bound = open_plan();
  if (!bound) return;
  bound->words = words;
  bound->shifts = shifts;
  bound->raw = raw;
}

void ck_plan_note_tiles(int bm, int bn, int bk, int split, int clusters) {
  ck_plan *const bound = open_plan();
  if (!bound) return;
  bound->tile[0] = bm;
  bound->tile[1] = bn;
  bound->tile[2] = bk;
  bound->split = split;
  bound->clusters = clusters;
}

void ck_plan_note_shifts(ck_shifts shifts) {
  ck_plan *const bound = open_plan();
  if (bound) bound->shifts = shifts;
}
