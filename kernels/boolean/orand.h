/* The boolean or.and product, bit-packed: C(i,j) = OR_k A(i,k) AND B(k,j), all column-major as
 * Octave stores them, A m-by-k, B k-by-n, C m-by-n, one byte per element (logical: 0 or 1; any
 * nonzero byte of A or B counts as true, C is written 0 or 1). K (optional): K(i,j) the first
 * (smallest, 1-based) k with A(i,k) && B(k,j), 0 where there is none; k == 0 gives C and K all 0.
 * The operands are packed into bits first (orand_pack.cu), 32 values of k to a word, and the
 * product runs on the packed words (kernels/boolean/orand.cuh has the layout). */
#ifndef CK_ORAND_H
#define CK_ORAND_H

#include "ck.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The paths: CK_ORAND_AUTO (tensor cores where the device and the build have them, sm_80 and
 * later; else LOP3), CK_ORAND_TENSOR (mma.sync m16n8k256 .b1 and.popc; where it cannot run,
 * LOP3 runs instead, and ck_orand_last_path says so), CK_ORAND_LOP3 (v |= a & b on 32-bit words
 * from registers), CK_ORAND_SIMPLE (one thread per output over the packed words: plain and
 * obviously correct, the others' check). */
enum { CK_ORAND_AUTO = 0, CK_ORAND_TENSOR, CK_ORAND_LOP3, CK_ORAND_SIMPLE, CK_ORAND_NUM_PATHS };

/* Device arrays: p->A (m*k bytes), p->B (k*n), p->C (m*n), p->K (m*n doubles, or NULL); p->m,
 * p->k, p->n. p->t, p->kernel and p->plan are not read. Allocates and frees its own scratch (the
 * packed operands: about (m + n) * k / 8 bytes). Work is queued on the default stream. */
ck_status ck_orand_device(const ck_product *p, int path);

/* The path the calling thread's last ck_orand_device ran (CK_ORAND_TENSOR, _LOP3 or _SIMPLE;
 * CK_ORAND_AUTO before any, or when that call had nothing to compute). */
int ck_orand_last_path(void);

/* The compute ceiling of a path on this GPU, in pairs (i, j, k) per second: a register-only loop
 * of its instruction with no memory traffic, the median of 7 timed runs after a warm-up.
 * CK_ORAND_TENSOR: mma.sync m16n8k256 .b1 and.popc (32768 pairs per warp instruction);
 * CK_ORAND_LOP3: v |= x & y on 32-bit words (32 pairs per thread instruction). Other paths, or
 * the tensor path where it cannot run: CK_ERR_INVALID. */
ck_status ck_orand_ceiling(int path, double *pairs_per_second);

/* Timing for the dev driver, on p's device operands (as ck_orand_device takes them):
 * tm->warmup untimed calls, then tm->reps calls each timed between CUDA events into
 * tm->times_ms; product_ms (tm->reps entries, or NULL): of each call, the product kernel alone
 * (without packing and the witness). tm->data and tm->calls are not read. */
ck_status ck_orand_time(const ck_product *p, int path, const ck_timing *tm, double *product_ms);

/* The tensor path's kernel variants, for the dev driver's comparison (`dev/boolean --variants`;
 * orand.cuh lists them and their tuning). ck_orand_set_variant: the variant every later tensor
 * product of the process runs (CK_ORAND_VARIANT_AUTO, the default: the fastest that can run,
 * orand_mma.cu); returns the previous one, and with v = -1 or out of range only reads it. A variant that cannot run here (the device, the
 * build's architectures, the sizes) runs as variant 0, and ck_orand_last_variant says so: the
 * variant the calling thread's last tensor product ran (-1 before any). ck_orand_variant_name:
 * its description, NULL past the last. ck_orand_variant_fault: whether a TMA variant's pipeline
 * watchdog fired on the current device since the last call (a barrier wait of over 2 s: the
 * kernel then gives up and its output is wrong, rather than hanging the GPU); synchronizes. */
#define CK_ORAND_VARIANT_AUTO (-2)
int ck_orand_set_variant(int v);
int ck_orand_last_variant(void);
const char *ck_orand_variant_name(int v);
int ck_orand_variant_fault(void);

#ifdef __cplusplus
}
#endif
#endif
