/* A call's plan: one value saying what a call does. Its operation's planner (plan.c) makes it
 * before anything runs; the executors carry it out and add what only the data can tell (the
 * fields under "found"); the gateway keeps the last one (__cudakernels__ ("last_plan")).
 * Included by ck.h, after the types it uses. */
#ifndef CK_PLAN_H
#define CK_PLAN_H

/* The operations that plan. */
typedef enum { CK_OP_NONE = 0, CK_OP_PRODUCT, CK_OP_APSP } ck_op;

/* The arithmetic product (the matmul family) where a plan or a call names a semiring: one past
 * the table's semirings, which the semiring products take. */
#define CK_PLUS_TIMES ((int)CK_NUM_SEMIRINGS)

/* Where a call's operands live. */
typedef enum {
  CK_ON_HOST = 0, /* host arrays */
  CK_ON_DEVICE,   /* device arrays (gpu_arrays) on the current device */
  CK_ON_RANDOM    /* a timing's own random device operands */
} ck_where;

/* How a call on host arrays moves them. */
typedef enum {
  CK_MOVE_NONE = 0, /* device operands: nothing to move */
  CK_MOVE_CPU,      /* the CPU kernel, on the host arrays */
  CK_MOVE_PANELS,   /* A whole on the device, B and C in column panels, the copies beside kernels */
  CK_MOVE_SLICES,   /* larger than the device: slices of rows, k and columns, merged over k */
  CK_MOVE_WHOLE,    /* everything uploaded, one device call, downloaded */
  CK_MOVE_PAGES     /* pages larger than the device at once: each page as a 2-D host product */
} ck_move;

/* The words a product's arithmetic ran on (found). */
typedef enum {
  CK_WORDS_NONE = 0, /* nothing ran on the device */
  CK_WORDS_CLASS,    /* the class's own arithmetic (single, double; every class on v0 to v2) */
  CK_WORDS_U32,      /* DPX on 32-bit words */
  CK_WORDS_U16X2,    /* DPX on two 16-bit sums packed in a word */
  CK_WORDS_WIDE,     /* sums no word holds: v2's wide accumulation */
  CK_WORDS_BITS,     /* or.and bit-packed, the plain kernel (kernels/boolean) */
  CK_WORDS_LOP3,     /* or.and bit-packed, OR of ANDs of 32-bit words */
  CK_WORDS_B1MMA     /* or.and bit-packed on the 1-bit tensor cores (AND and POPC) */
} ck_words;

/* How an integer product on DPX words learned the shifts into its words (found). */
typedef enum {
  CK_SHIFTS_NONE = 0,
  CK_SHIFTS_KNOWN,   /* the class's bounds (8-bit classes) */
  CK_SHIFTS_GUESSED, /* 0, checked while the product ran, and it held */
  CK_SHIFTS_MISSED,  /* 0 missed: the product ran again from the operands' ranges */
  CK_SHIFTS_RANGES   /* the ranges found first (the class's last guess had missed) */
} ck_shifts;

typedef struct ck_narrow_a ck_narrow_a; /* minplus_narrow.cu */

struct ck_plan {
  /* the call */
  ck_op op;
  int semiring; /* a ck_semiring, or CK_PLUS_TIMES */
  ck_dtype t;
  int kernel; /* the family's kernel id (ck_minplus_kernel, ck_matmul_kernel, ck_apsp_kernel) */
  ck_where where;
  size_t m, k, n; /* a product's (one page's); shortest paths: n */
  size_t pages;   /* pages of C; 0: a 2-D product */
  int witness;    /* K (products) or P (shortest paths) asked for */
  /* decided before anything runs */
  ck_devices devices; /* that share the work: C's columns, or a shortest-path call's rows */
  ck_move move;
  size_t panel;    /* CK_MOVE_PANELS: columns per panel */
  size_t slice[3]; /* CK_MOVE_SLICES: rows, k and columns of a slice */
  int narrow;      /* single and double min.+ on warptile: their values are looked at, once, for
                      the integer paths (minplus_narrow.cu) */
  int pages_mode;  /* CK_PAGES_AUTO, _LOOP or _BATCHED */
  int looks_ahead; /* shortest paths: one share runs each next round's strips beside the
                      current round's product (apsp_rounds.cu), where the rounds run */
  size_t rounds;   /* shortest paths: pivot blocks */
  int graph_tiles; /* shortest paths: a graph that one device holds whole (a 2-D call on one
                      device, or a page) runs by tiles in one launch where its work values allow
                      (apsp_graph_tiled.cu, with P apsp_graph_paths.cu); the rounds otherwise */
  /* found while it ran: the first device product's, where a call makes several (panels,
   * slices, pages, devices' shares, a timing's runs) */
  ck_dtype work; /* the class the arithmetic ran in: t, or int16 / int32 when narrowed; shortest
                     paths: the work type (apsp.cuh) */
  ck_words words;
  ck_shifts shifts;
  int raw;                           /* integer operands read as they are, with no packed copy */
  int split;                         /* split-K: slices of k (1: none) */
  int clusters;                      /* ... folded in thread-block clusters of this many */
  int tile[3];                       /* the warp-tiled kernel's block tile: BM, BN, BK (paths:
                                        the tiled pages kernel's, or a graph's by tiles, where
                                        one ran) */
  size_t batched_runs, single_pages; /* paged: runs in one launch, pages one by one */
  /* executor state, not part of the value (never kept): a host-array call's look at A and its
   * narrowed copies, made once and used by every panel; whether a device product has noted
   * its findings (later ones leave them) */
  ck_narrow_a *narrow_a;
  int noted;
};

#endif
