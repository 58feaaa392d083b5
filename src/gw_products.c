/* The gateway's one product command, for every semiring and the arithmetic product, on host arrays
 * and gpu_arrays, 2-D or paged; and the min-plus ceiling. The call is planned and run by the C
 * layer (ck_product_call); this file turns the arguments into a ck_call and the results into
 * arrays.
 *
 *   "product", SEMIRING, WHERE, A, B, KERNEL [, DEVICES [, SIZE [, IA, IB]]] -> C [, K]
 *
 * SEMIRING: a semiring's name or alias (ck_tables.h), or "+.*" ("plus.times"), the arithmetic
 * product. WHERE: "host" (A and B arrays) or "device" (A and B gpu_array ids, SIZE needed).
 * SIZE: [M K N] ([] or absent for 2-D host arrays: theirs). IA, IB: the page map (gw_pages.c);
 * with them host operands come as 2-D matrices, A m x (k * pages of A), B k x (n * pages of B),
 * and C as m x (n * pages). */
#include <stdio.h>
#include <string.h>

#include "gateway.h"
#include "orand.h"

int gw_semiring(const mxArray *a) {
  char name[32];
  gw_string(a, name, sizeof name, "SEMIRING");
  if (!strcmp(name, "+.*") || !strcmp(name, "plus.times")) return CK_PLUS_TIMES;
  const int s = ck_semiring_from_name(name);
  if (s < 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "unknown semiring \"%s\"", name);
    gw_fail_invalid(msg);
  }
  return s;
}

int gw_kernel(const mxArray *a, int semiring) {
  char name[32];
  gw_string(a, name, sizeof name, "KERNEL");
  const int matmul = semiring == CK_PLUS_TIMES;
  const int id = matmul ? ck_matmul_kernel_id(name) : ck_minplus_kernel_id(name);
  if (id < 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown %s kernel \"%s\"", matmul ? "matmul" : "min-plus", name);
    gw_fail_invalid(msg);
  }
  return id;
}

ck_where gw_where(const mxArray *a) {
  static const char *const names[] = {"host", "device"};
  return (ck_where)gw_mode(a, names, 2, "WHERE is \"host\" or \"device\"");
}

/* A host operand's class: single or double for the arithmetic product, any known class for the
 * semirings (the planner checks which the semiring takes). */
static ck_dtype host_class(const mxArray *a, int semiring, const char *what) {
  return semiring == CK_PLUS_TIMES ? gw_float_matrix_dtype(a, what) : gw_matrix_dtype(a, what);
}

typedef struct {
  ck_call c;
  ck_pages pages;
  ck_devices devices;
} product_call;

static ck_status run_call(void *ctx, void *C, double *K) {
  product_call *pc = ctx;
  ck_plan pl;
  pc->c.p.C = C;
  pc->c.p.K = K;
  return ck_product_call(&pc->c, &pl);
}

/* SIZE ([M K N]) into p, or for 2-D host operands (SIZE absent or empty) their own sizes. */
static void read_size(const mxArray *size, ck_product *p, const mxArray *A, const mxArray *B,
                      int host_2d) {
  if (host_2d && (!size || mxIsEmpty(size))) {
    p->m = mxGetM(A);
    p->k = mxGetN(A);
    p->n = mxGetN(B);
    if (mxGetM(B) != p->k) gw_fail_invalid("inner dimensions must agree: columns(A) == rows(B)");
    return;
  }
  size_t dims[3];
  gw_sizes(size, 3, 3, dims, "SIZE must be [M K N], non-negative integers");
  p->m = dims[0], p->k = dims[1], p->n = dims[2];
}

/* A and B where they live: their class and data (host) or device pointers (ids), and their
 * element counts. */
static void operands(const mxArray *prhs[], product_call *pc, size_t numel[2]) {
  ck_product *p = &pc->c.p;
  if (pc->c.where == CK_ON_HOST) {
    p->t = host_class(prhs[0], pc->c.semiring, "A");
    if (host_class(prhs[1], pc->c.semiring, "B") != p->t)
      gw_fail_invalid("A and B must be of the same class");
    p->A = mxGetData(prhs[0]);
    p->B = mxGetData(prhs[1]);
    numel[0] = mxGetNumberOfElements(prhs[0]);
    numel[1] = mxGetNumberOfElements(prhs[1]);
    return;
  }
  ck_dtype tb;
  void *pa, *pb;
  gw_check(ck_array_lookup(gw_id(prhs[0], "A (an id)"), &p->t, &numel[0], &pa));
  gw_check(ck_array_lookup(gw_id(prhs[1], "B (an id)"), &tb, &numel[1], &pb));
  if (tb != p->t) gw_fail_invalid("A and B must be of the same class");
  p->A = pa;
  p->B = pb;
}

/* "product": the arguments after the command name. */
void cmd_product(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  product_call pc;
  memset(&pc, 0, sizeof pc);
  pc.c.semiring = gw_semiring(prhs[0]);
  pc.c.where = gw_where(prhs[1]);
  const int host = pc.c.where == CK_ON_HOST, paged = nrhs > 8;
  if (nrhs == 8) gw_fail_invalid("the page map is IA and IB together");
  size_t numel[2];
  operands(prhs + 2, &pc, numel);
  pc.c.p.kernel = gw_kernel(prhs[4], pc.c.semiring);
  read_size(nrhs > 6 ? prhs[6] : NULL, &pc.c.p, prhs[2], prhs[3], host && !paged);
  if (paged) {
    pc.pages = gw_page_map(&pc.c.p, prhs[7], prhs[8], numel);
    pc.c.pages = &pc.pages;
  } else if (pc.c.p.m * pc.c.p.k != numel[0] || pc.c.p.k * pc.c.p.n != numel[1]) {
    gw_fail_invalid("SIZE does not match the operands");
  }
  pc.devices = gw_devices(nrhs > 5 ? prhs[5] : NULL);
  pc.c.devices = &pc.devices;
  if (nlhs > 1 && pc.c.semiring == CK_PLUS_TIMES)
    gw_fail_invalid("the arithmetic product (+.*) has no witness K");
  const int witness = nlhs > 1;
  const size_t pages = paged ? pc.pages.count : 1;
  if (host) gw_host_result(plhs, pc.c.p.t, pc.c.p.m, pc.c.p.n * pages, witness, run_call, &pc);
  else gw_device_result(plhs, pc.c.p.t, pc.c.p.m * pc.c.p.n * pages, witness, run_call, &pc);
}

/* "minplus_ceiling", CLASS [, SEMIRING [, PATH]]: the semiring's (min.+ by default) probe on
 * CLASS; or.and's PATH "tensor" (the default) or "lop3". */
void cmd_minplus_ceiling(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  static const char *const paths[] = {"tensor", "lop3"};
  const ck_dtype t = gw_dtype_name(prhs[0]);
  const int s = nrhs > 1 ? gw_semiring(prhs[1]) : CK_SR_MIN_PLUS;
  if (s == CK_PLUS_TIMES) gw_fail_invalid("the ceilings are the semirings'; +.* has cuBLAS");
  const int path = nrhs > 2 ? gw_mode(prhs[2], paths, 2, "PATH is \"tensor\" or \"lop3\"") : 0;
  double rate = 0;
  gw_check(ck_semiring_ceiling((ck_semiring)s, t, path ? CK_ORAND_LOP3 : CK_ORAND_TENSOR, &rate));
  plhs[0] = mxCreateDoubleScalar(rate);
}
