/* The MEX gateway's shared pieces: argument checks and error mapping (gw_util.c), and the
 * commands each file defines, which cudakernels.c dispatches by name. Every command takes the
 * arguments after the command name: cmd(nlhs, plhs, nrhs, prhs), with nrhs and nlhs already
 * checked against the counts in cudakernels.c's table. */
#ifndef CK_GATEWAY_H
#define CK_GATEWAY_H

#include <stddef.h>

#include "mex.h"
#include "ck.h"
#include "gw_settings.h"

#define ID_INVALID "cudakernels:invalidinput"

/* ---- gw_util.c: each raises an identified Octave error instead of returning bad input ---- */
void gw_fail_invalid(const char *msg);
void gw_check(ck_status s); /* the Octave error of a C-layer status; CK_OK returns */
void gw_string(const mxArray *a, char *buf, size_t size, const char *what);
int gw_mode(const mxArray *a, const char *const names[], int count, const char *usage);
double gw_scalar(const mxArray *a, const char *what);
size_t gw_size(const mxArray *a, const char *what); /* a non-negative integer */
/* A vector of `least` to `most` non-negative integers into out (else the error `usage`); its
 * length. */
int gw_sizes(const mxArray *a, int least, int most, size_t *out, const char *usage);
ck_dtype gw_dtype_name(const mxArray *a); /* a class name, e.g. "single" */
mxClassID gw_class_of(ck_dtype t);
mxArray *gw_create_array(mwSize nd, const mwSize *dims, ck_dtype t);
int gw_dtype_of(const mxArray *a);        /* of a real, full array; -1 if none */
ck_dtype gw_host_dtype(const mxArray *x); /* a real, full numeric array */
ck_dtype gw_matrix_dtype(const mxArray *a, const char *what);       /* ... and 2-D */
ck_dtype gw_float_matrix_dtype(const mxArray *a, const char *what); /* ... single or double */
ck_array_id gw_id(const mxArray *a, const char *what);
/* A GPU number as Octave users write it (1-based), checked against the visible devices; 0-based. */
int gw_device_number(double v);
mxArray *gw_id_value(ck_array_id id);
/* WARMUP and REPS of a timing command into tm, with a fresh 1-by-REPS `times` for its results. */
mxArray *gw_timing(const mxArray *warmup, const mxArray *reps, ck_timing *tm);
int gw_calls(const mxArray *a);
/* A device product's results: C (class t, count elements) and, with `witness`, K (double), as
 * new arrays handed to run(ctx, C, K); on failure both are freed and the error raised, else
 * plhs gets their ids. */
typedef ck_status gw_device_run(void *ctx, void *C, double *K);
void gw_device_result(mxArray *plhs[], ck_dtype t, size_t count, int witness, gw_device_run *run,
                      void *ctx);
/* The same for a product on host arrays: C (rows x cols, class t) and K made in Octave's memory. */
void gw_host_result(mxArray *plhs[], ck_dtype t, size_t rows, size_t cols, int witness,
                    gw_device_run *run, void *ctx);

typedef void command_fn(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

/* gw_device.c */
command_fn cmd_available, cmd_info, cmd_device_count, cmd_device_select, cmd_kernels, cmd_cublas,
    cmd_sync, cmd_reset, cmd_memory;
/* gw_device.c: DEVICES as a caller wrote it (1-based; NULL or empty: count 0, the planner's
 * default), with the setting spread_copies */
ck_devices gw_devices(const mxArray *a);
/* gw_products.c */
command_fn cmd_product, cmd_minplus_ceiling;
/* gw_products.c: a SEMIRING argument (a ck_semiring, or CK_PLUS_TIMES), a KERNEL of its family,
 * WHERE ("host" or "device"); each raises the invalid-input error naming what it got */
int gw_semiring(const mxArray *a);
int gw_kernel(const mxArray *a, int semiring);
ck_where gw_where(const mxArray *a);
/* gw_pages.c: the page map IA, IB of a product of p's sizes over operands of numel[0] and
 * numel[1] elements */
ck_pages gw_page_map(const ck_product *p, const mxArray *ia, const mxArray *ib,
                     const size_t numel[2]);
/* gw_time.c, gw_plan.c */
command_fn cmd_time, cmd_last_plan;
/* gw_sum.c */
command_fn cmd_sum, cmd_sum_time, cmd_sum_dev, cmd_copy_bandwidth;
/* gw_apsp.c */
command_fn cmd_apsp, cmd_path_dev;
/* gw_apsp.c: a long call's Ctrl-C poll (and the test_cancel_after setting), for ck_*_args */
int gw_interrupted(void *ctx);
/* gw_closure.c */
command_fn cmd_closure;
/* gw_settings.c */
command_fn cmd_settings;
/* gw_arrays.c */
command_fn cmd_array_put, cmd_array_get, cmd_array_free, cmd_array_info, cmd_array_convert;

#endif
