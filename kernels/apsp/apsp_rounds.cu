/* The rounds of blocked Floyd-Warshall (apsp.cuh) over one device's slab of the work matrix or
 * several devices' slabs: the buffers of each slab, the pivot strip's exchange between devices,
 * and the pacing that lets Ctrl-C and a negative cycle stop a call within a round or two.
 *
 * One host thread queues every device's work on that device's default stream, round by round:
 *   1. the owner's pivot phase, then an event;
 *   2. each other device waits for that event and copies the strip into its own buffer, on its
 *      own stream (peer to peer where the GPUs allow it, through the host otherwise, both by the
 *      driver), then an event;
 *   3. every device's slab phase, from the strip (the owner's own, or its copy);
 *   4. the owner's stream waits for the copies before anything it queues next: the next round
 *      rewrites the rows (or the histories) the strip was read from.
 * A device's copy and its slab phase follow its previous slab phase on its stream, so one buffer
 * per device is enough. Streams of one device (tests: a device listed twice) are one stream.
 *
 * One device looks a round ahead instead (ap_round_ahead): the pivot phase and the column strip
 * of round r + 1 run on streams of their own while round r's product finishes. */
#include <limits.h>
#include <time.h>

#include <new>

#include "apsp.cuh"

/* Consecutive 16-byte-aligned pieces of one device block. */
struct ap_carve {
  char *p;
  void *take(size_t bytes) {
    char *q = p;
    p += (bytes + 15) / 16 * 16;
    return q;
  }
};

/* Snapshot buffers of one level for a slab of `rows` rows of np, B deep; `words`: the warptile
 * level of 16-bit work, whose A operands are 32-bit words. */
template <class T, class TW> struct ap_snap_mem {
  ap_snap<T, TW> s;
  void *block;
  ck_status alloc(size_t np, size_t rows, size_t B) {
    const bool words = sizeof(TW) != sizeof(T);
    const size_t pv = B * B, rs = B * np, cs = rows * B;
    size_t bytes = sizeof(T) * (pv + rs + 2 * cs) + (words ? sizeof(TW) * (pv + 2 * cs) : 0) +
                   16 * 16;
    CK_TRY(ck_dev_alloc(&block, bytes));
    ap_carve c = {(char *)block};
    s.pv = (T *)c.take(sizeof(T) * pv);
    s.rs = (T *)c.take(sizeof(T) * rs);
    s.cs = (T *)c.take(sizeof(T) * cs);
    s.cs2 = (T *)c.take(sizeof(T) * cs);
    s.pva = words ? (TW *)c.take(sizeof(TW) * pv) : (TW *)s.pv;
    s.csa = words ? (TW *)c.take(sizeof(TW) * cs) : (TW *)s.cs;
    s.cs2a = words ? (TW *)c.take(sizeof(TW) * cs) : (TW *)s.cs2;
    return CK_OK;
  }
};

/* The histories of a round with paths (apsp.cuh) for a slab of `rows` rows of np: pr and rs one
 * after the other, the strip the other devices copy. */
template <class T, class TW> struct ap_hist_mem {
  ap_hist<T, TW> h;
  void *block;
  ck_status alloc(size_t np, size_t rows) {
    const size_t B = AP_BLOCK, pv = B * B, strip = B * np, cs = rows * B;
    const bool words = sizeof(TW) != sizeof(T);
    const size_t bytes = sizeof(T) * (2 * pv + 2 * strip + cs) + sizeof(int) * (pv + cs) +
                         (words ? sizeof(TW) * cs : 0) + 9 * 16;
    CK_TRY(ck_dev_alloc(&block, bytes));
    ap_carve c = {(char *)block};
    h.pr = (T *)c.take(sizeof(T) * pv); /* whole 16-byte pieces: rs follows pr directly */
    h.rs = (T *)c.take(sizeof(T) * strip);
    h.pc = (T *)c.take(sizeof(T) * pv);
    h.cs = (T *)c.take(sizeof(T) * cs);
    h.npc = (int *)c.take(sizeof(int) * pv);
    h.ncs = (int *)c.take(sizeof(int) * cs);
    h.csa = words ? (TW *)c.take(sizeof(TW) * cs) : (TW *)h.cs;
    h.rst = (T *)c.take(sizeof(T) * strip);
    return CK_OK;
  }
};

/* What one slab's device holds for the rounds besides the slab. */
template <class T, class SR> struct ap_slab_run {
  typedef typename ap_word<T>::S TW;
  ap_matrix<T, SR> m;
  ap_snap_mem<T, TW> big[2];  /* the second: ap_round_ahead's next round */
  T *scratch;                 /* the closure's second pivot block (apsp_block.cu) */
  ap_hist_mem<T, TW> hist[2]; /* the second: ap_round_ahead's next round */
  T *copy;                    /* the owner's strip, when another device owns the pivot */
  cudaEvent_t pivot, copied;  /* this device's pivot phase done; its copy of the strip done */
  cudaEvent_t done[AP_IN_FLIGHT];
  int *neg_host; /* pinned: the negative-cycle flag of the round each event follows */
  /* ap_round_ahead: its streams (`ahead2` runs the column strip, and the next pivot's columns,
   * beside `ahead`), events after a round's strips (on `ahead`) and after the rest of its
   * product (on stream 0), and where `ahead2`'s work starts and ends (fork, join) */
  bool looks_ahead;
  cudaStream_t ahead, ahead2;
  cudaEvent_t strips_done, rest_done, fork, join;

  bool paths() const { return m.N != NULL; }
  const T *strip(size_t k0) const { /* where this device's strip lies when it owns pivot k0 */
    return paths() ? hist[0].h.pr : m.X + (k0 - m.r0) * m.np;
  }
  static size_t strip_elems(size_t np, bool paths) {
    return (size_t)AP_BLOCK * (np + (paths ? AP_BLOCK : 0));
  }
};

static double ap_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* What ap_round_ahead needs besides one round's buffers: the high-priority streams (the next
 * round's pivot phase is a chain of small launches; at the default priority each waited for the
 * product's blocks queued before it), four events and the next round's histories or snapshot. */
template <class T, class SR> static ck_status ap_ahead_alloc(ap_slab_run<T, SR> &r) {
  int least = 0, greatest = 0;
  CK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest), "asking for stream priorities");
  CK_CUDA(cudaStreamCreateWithPriority(&r.ahead, cudaStreamNonBlocking, greatest),
          "creating a stream");
  CK_CUDA(cudaStreamCreateWithPriority(&r.ahead2, cudaStreamNonBlocking, greatest),
          "creating a stream");
  for (cudaEvent_t *e : {&r.strips_done, &r.rest_done, &r.fork, &r.join})
    CK_CUDA(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "creating events");
  if (r.paths()) return r.hist[1].alloc(r.m.np, r.m.rows);
  return r.big[1].alloc(r.m.np, r.m.rows, AP_BLOCK);
}

/* ap_ahead_alloc, or where the device has no memory for the second round's buffers, the rounds
 * one by one (looks_ahead off): a call that fitted without looking ahead still runs. The failed
 * allocation's error is cleared only where no earlier error waits to be reported. */
template <class T, class SR> static ck_status ap_ahead_or_not(ap_slab_run<T, SR> &r) {
  const bool clean = cudaPeekAtLastError() == cudaSuccess;
  const ck_status st = ap_ahead_alloc(r);
  if (st != CK_ERR_OUTOFMEMORY || !clean) return st;
  (void)cudaGetLastError();
  ck_dev_free(r.hist[1].block);
  ck_dev_free(r.big[1].block);
  r.hist[1].block = r.big[1].block = NULL;
  r.looks_ahead = false;
  return CK_OK;
}

template <class T, class SR>
static ck_status ap_slab_alloc(ap_slab_run<T, SR> &r, int count, bool ahead, int *neg_host) {
  const size_t np = r.m.np, rows = r.m.rows;
  CK_TRY(ck_device_use(r.m.dev));
  r.neg_host = neg_host;
  for (int i = 0; i < AP_IN_FLIGHT; i++) r.neg_host[i] = INT_MAX;
  if (r.paths()) CK_TRY(r.hist[0].alloc(np, rows));
  else {
    CK_TRY(r.big[0].alloc(np, rows, AP_BLOCK));
    CK_TRY(ck_dev_alloc((void **)&r.scratch, sizeof(T) * AP_BLOCK * AP_BLOCK));
  }
  r.looks_ahead = ahead;
  if (r.looks_ahead) CK_TRY(ap_ahead_or_not(r));
  if (count > 1) {
    CK_TRY(
        ck_dev_alloc((void **)&r.copy, sizeof(T) * ap_slab_run<T, SR>::strip_elems(np, r.paths())));
    CK_CUDA(cudaEventCreateWithFlags(&r.pivot, cudaEventDisableTiming), "creating events");
    CK_CUDA(cudaEventCreateWithFlags(&r.copied, cudaEventDisableTiming), "creating events");
  }
  for (int i = 0; i < AP_IN_FLIGHT; i++)
    CK_CUDA(cudaEventCreateWithFlags(&r.done[i], cudaEventDisableTiming), "creating events");
  return CK_OK;
}

/* Waits for everything queued on the slab's device (its errors are the result), then frees what
 * the rounds took. */
template <class T, class SR> static ck_status ap_slab_free(ap_slab_run<T, SR> &r) {
  ck_status st = ck_device_use(r.m.dev);
  if (st == CK_OK) /* nothing of this call runs after its buffers go */
    st = ck_cuda_check(cudaDeviceSynchronize(), "running shortest paths");
  ck_dev_free(r.big[0].block);
  ck_dev_free(r.big[1].block);
  ck_dev_free(r.scratch);
  ck_dev_free(r.hist[0].block);
  ck_dev_free(r.hist[1].block);
  ck_dev_free(r.copy);
  if (r.ahead) cudaStreamDestroy(r.ahead);
  if (r.ahead2) cudaStreamDestroy(r.ahead2);
  cudaEvent_t ev[6 + AP_IN_FLIGHT] = {r.pivot,     r.copied, r.strips_done,
                                      r.rest_done, r.fork,   r.join};
  for (int i = 0; i < AP_IN_FLIGHT; i++) ev[6 + i] = r.done[i];
  for (cudaEvent_t e : ev)
    if (e) cudaEventDestroy(e);
  return st;
}

/* Before queueing round `round`: wait for round round - AP_IN_FLIGHT on every device, then look at
 * what it found (*stop: a negative cycle, which the caller reads from the devices), and at
 * Ctrl-C and the clock. */
template <class T, class SR>
static ck_status ap_pace(ap_slab_run<T, SR> *runs, int count, ck_apsp_args *a, size_t round,
                         size_t rounds, double &last, bool &stop) {
  stop = false;
  if (round < AP_IN_FLIGHT) return CK_OK;
  const int slot = (int)(round % AP_IN_FLIGHT);
  for (int i = 0; i < count; i++) {
    CK_CUDA(cudaEventSynchronize(runs[i].done[slot]), "running shortest paths");
    if (runs[i].neg_host[slot] != INT_MAX) stop = true;
  }
  if (stop) return CK_OK;
  const size_t done = round - AP_IN_FLIGHT + 1;
  if (a->cancelled && a->cancelled(a->ctx))
    return ck_fail(CK_ERR_INTERRUPTED, "shortest paths: interrupted after %zu of %zu rounds", done,
                   rounds);
  if (a->progress && ap_now() - last >= 1.0) {
    a->progress(a->ctx, done, rounds);
    last = ap_now();
  }
  return CK_OK;
}

/* After queueing round `round` on the current device: its launches' errors, then the flag and the
 * event ap_pace waits for. */
template <class T, class SR> static ck_status ap_mark(ap_slab_run<T, SR> &r, size_t round) {
  const int slot = (int)(round % AP_IN_FLIGHT);
  CK_CUDA(cudaGetLastError(), "launching a round of shortest paths");
  CK_CUDA(cudaMemcpyAsync(&r.neg_host[slot], r.m.neg, sizeof(int), cudaMemcpyDeviceToHost, 0),
          "reading the negative-cycle flag");
  CK_CUDA(cudaEventRecord(r.done[slot], 0), "recording a round");
  return CK_OK;
}

/* Steps 1 and 2 of a round (the file's head): the owner's pivot phase and the copies. */
template <class T, class SR>
static ck_status ap_pivot_and_copies(ap_slab_run<T, SR> *runs, int count, int owner, size_t k0) {
  ap_slab_run<T, SR> &o = runs[owner];
  CK_TRY(ck_device_use(o.m.dev));
  if (o.paths()) ap_round_pivot_hist<T, SR>(o.m, k0, o.hist[0].h);
  else ap_round_pivot<T, SR>(o.m, k0, o.scratch, o.big[0].s);
  if (count == 1) return CK_OK;
  CK_CUDA(cudaGetLastError(), "launching a round of shortest paths");
  CK_CUDA(cudaEventRecord(o.pivot, 0), "recording a pivot phase");
  const T *strip = o.strip(k0);
  const size_t bytes = sizeof(T) * ap_slab_run<T, SR>::strip_elems(o.m.np, o.paths());
  for (int i = 0; i < count; i++) {
    if (i == owner) continue;
    ap_slab_run<T, SR> &r = runs[i];
    CK_TRY(ck_device_use(r.m.dev));
    CK_CUDA(cudaStreamWaitEvent(0, o.pivot, 0), "ordering devices");
    CK_CUDA(cudaMemcpyPeerAsync(r.copy, r.m.dev, strip, o.m.dev, bytes, 0),
            "copying a pivot strip between devices");
    CK_CUDA(cudaEventRecord(r.copied, 0), "recording a copy");
  }
  return CK_OK;
}

/* Steps 3 and 4: every slab's phase, then the owner waits for the copies. */
template <class T, class SR>
static ck_status ap_slabs(ap_slab_run<T, SR> *runs, int count, int owner, size_t k0, size_t round) {
  ap_slab_run<T, SR> &o = runs[owner];
  for (int i = 0; i < count; i++) {
    ap_slab_run<T, SR> &r = runs[i];
    CK_TRY(ck_device_use(r.m.dev));
    const T *strip = i != owner ? r.copy : o.strip(k0);
    if (r.paths()) {
      ap_round_cols_hist<T, SR>(r.m, k0, strip, r.hist[0].h);
      ap_rest_hist<T, SR>(r.m, k0, strip + (size_t)AP_BLOCK * AP_BLOCK, r.hist[0].h, AP_REST_ALL);
    } else {
      ap_round_cols<T, SR>(r.m, k0, strip, r.big[0].s);
      ap_rest<T, SR>(r.m, k0, strip, r.big[0].s, AP_REST_ALL);
    }
    CK_TRY(ap_mark(r, round));
  }
  if (count == 1) return CK_OK;
  CK_TRY(ck_device_use(o.m.dev));
  for (int i = 0; i < count; i++)
    if (i != owner) CK_CUDA(cudaStreamWaitEvent(0, runs[i].copied, 0), "ordering devices");
  return CK_OK;
}

/* Round k0's pivot phase and column strip (with paths: its histories) on the look-ahead streams,
 * into the buffers of `slot`, then the event that round's rest waits for. Both strips need only
 * the closed pivot block, so the column strip runs on `ahead2` beside the row strip. */
template <class T, class SR>
static ck_status ap_strips_ahead(ap_slab_run<T, SR> &r, size_t k0, int slot) {
  typedef typename ap_word<T>::S TW;
  ap_matrix<T, SR> side = r.m, side2 = r.m;
  side.st = r.ahead, side2.st = r.ahead2;
  if (r.paths()) ap_close_block_hist<T, SR>(side, k0, r.hist[slot].h);
  else {
    ap_close_block<T, SR>(side, k0, r.scratch);
    const ap_snap_at all = {r.m.np,   k0 - r.m.r0,          k0, r.m.np, r.m.rows,
                            AP_BLOCK, AP_PV | AP_RS | AP_CS};
    ap_take_snapshot<T, TW>(r.m.X, all, r.big[slot].s, r.ahead);
  }
  CK_CUDA(cudaEventRecord(r.fork, r.ahead), "recording a round");
  CK_CUDA(cudaStreamWaitEvent(r.ahead2, r.fork, 0), "ordering streams");
  if (r.paths()) {
    const auto &h = r.hist[slot].h;
    ap_cols_hist<T, SR>(side2, k0, h.pr, h);
    ap_rows_hist<T, SR>(side, k0, h);
    ap_rows_transposed<T, SR>(side, h.pr, h);
  } else {
    ap_col_strip<T, SR>(side2, k0, r.strip(k0), r.big[slot].s);
    ap_row_strip<T, SR>(side, k0, r.big[slot].s);
  }
  CK_CUDA(cudaEventRecord(r.join, r.ahead2), "recording a round");
  CK_CUDA(cudaStreamWaitEvent(r.ahead, r.join, 0), "ordering streams");
  CK_CUDA(cudaEventRecord(r.strips_done, r.ahead), "recording a round");
  return CK_OK;
}

/* Part of round k0's rest on matrix m (its stream), from the buffers of `slot`. */
template <class T, class SR>
static void ap_rest_ahead(const ap_slab_run<T, SR> &r, const ap_matrix<T, SR> &m, size_t k0,
                          int slot, ap_rest_part part) {
  if (r.paths()) ap_rest_hist<T, SR>(m, k0, r.hist[slot].h.rs, r.hist[slot].h, part);
  else ap_rest<T, SR>(m, k0, r.strip(k0), r.big[slot].s, part);
}

/* A round on one device, looking one ahead: the pivot phase and column strip of round r + 1 (with
 * paths, its histories) need only the next pivot's rows and columns of round r's product. So
 * those and then the next strips run on the high-priority stream `ahead`, and the rest of round
 * r's product beside them on stream 0: the two touch disjoint parts of X (and N), and the rounds'
 * snapshots (histories) alternate between two buffers. Round r's rest waits for round r's strips
 * (strips_done); round r + 1's next rows and columns for round r's rest (rest_done). */
template <class T, class SR>
static ck_status ap_round_ahead(ap_slab_run<T, SR> &r, size_t round, size_t rounds) {
  const size_t B = AP_BLOCK, k0 = round * B;
  const int slot = (int)(round % 2), next = slot ^ 1;
  ap_matrix<T, SR> side = r.m;
  side.st = r.ahead;
  if (round == 0) { /* after what stream 0 holds: the work matrix's conversion */
    CK_CUDA(cudaEventRecord(r.rest_done, 0), "recording a round");
    CK_CUDA(cudaStreamWaitEvent(r.ahead, r.rest_done, 0), "ordering streams");
    CK_TRY(ap_strips_ahead(r, k0, slot));
  }
  /* both waits before either event is recorded again */
  CK_CUDA(cudaStreamWaitEvent(0, r.strips_done, 0), "ordering streams");
  if (round + 1 == rounds) {
    ap_rest_ahead(r, r.m, k0, slot, AP_REST_ALL);
    return ap_mark(r, round);
  }
  if (round > 0) CK_CUDA(cudaStreamWaitEvent(r.ahead, r.rest_done, 0), "ordering streams");
  /* the next pivot's rows and columns side by side (they are disjoint) */
  ap_matrix<T, SR> side2 = r.m;
  side2.st = r.ahead2;
  CK_CUDA(cudaEventRecord(r.fork, r.ahead), "recording a round");
  CK_CUDA(cudaStreamWaitEvent(r.ahead2, r.fork, 0), "ordering streams");
  ap_rest_ahead(r, side2, k0, slot, AP_REST_NEXT_COLS);
  ap_rest_ahead(r, side, k0, slot, AP_REST_NEXT_ROWS);
  CK_CUDA(cudaEventRecord(r.join, r.ahead2), "recording a round");
  CK_CUDA(cudaStreamWaitEvent(r.ahead, r.join, 0), "ordering streams");
  CK_TRY(ap_strips_ahead(r, k0 + B, next));
  ap_rest_ahead(r, r.m, k0, slot, AP_REST_OTHERS);
  CK_CUDA(cudaEventRecord(r.rest_done, 0), "recording a round");
  return ap_mark(r, round);
}

/* Direct access between every pair of the slabs' devices, where the GPUs allow it. */
static void ap_peers(const int *devs, int count) {
  for (int i = 0; i < count; i++)
    for (int j = 0; j < count; j++)
      if (devs[i] != devs[j] && ck_device_use(devs[i]) == CK_OK) ck_device_peer(devs[j]);
}

template <class T, class SR>
ck_status ap_rounds(const ap_matrix<T, SR> *slabs, int count, ck_apsp_args *a) {
  ap_slab_run<T, SR> *runs = new (std::nothrow) ap_slab_run<T, SR>[count](); /* zeroed */
  int *neg_host = NULL, devs[CK_SPREAD_WORKERS];
  if (!runs) return ck_fail(CK_ERR_OUTOFMEMORY, "shortest paths: no host memory");
  ck_status st = ck_host_words(&neg_host, (size_t)AP_IN_FLIGHT * count);
  /* the plan's (plan.c): one share, more than one round */
  const bool ahead = a->plan->looks_ahead;
  for (int i = 0; i < count; i++) {
    runs[i].m = slabs[i];
    devs[i] = slabs[i].dev;
    if (st == CK_OK) st = ap_slab_alloc(runs[i], count, ahead, neg_host + AP_IN_FLIGHT * i);
  }
  if (st == CK_OK && ahead && !runs[0].looks_ahead) a->plan->looks_ahead = 0; /* no memory */
  if (st == CK_OK && count > 1) ap_peers(devs, count);
  const size_t rounds = slabs[0].np / AP_BLOCK;
  double last = ap_now();
  bool stop = false;
  int owner = 0;
  for (size_t round = 0; st == CK_OK && round < rounds; round++) {
    const size_t k0 = round * AP_BLOCK;
    st = ap_pace(runs, count, a, round, rounds, last, stop);
    if (st != CK_OK || stop) break;
    if (runs[0].looks_ahead) {
      st = ap_round_ahead(runs[0], round, rounds);
      continue;
    }
    while (!runs[owner].m.owns(k0)) owner++;
    st = ap_pivot_and_copies(runs, count, owner, k0);
    if (st == CK_OK) st = ap_slabs(runs, count, owner, k0, round);
  }
  for (int i = 0; i < count; i++) {
    const ck_status f = ap_slab_free(runs[i]);
    if (st == CK_OK) st = f;
  }
  delete[] runs;
  return st;
}

#define AP_ROUNDS_INSTANCE(T, SR) \
  template ck_status ap_rounds<T, SR>(const ap_matrix<T, SR> *, int, ck_apsp_args *);
AP_INSTANTIATE_SR(AP_ROUNDS_INSTANCE)
