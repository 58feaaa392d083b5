/* "last_plan": the plan of the last product or shortest-path call (ck_plan.h) as a struct, for
 * the tests and the benchmarks to say which path ran. */
#include <string.h>

#include "gateway.h"

static const char *kernel_name(const ck_plan *pl) {
  const char *name = pl->op == CK_OP_APSP            ? (pl->kernel == CK_APSP_CPU ? "cpu" : "gpu")
                     : pl->semiring == CK_PLUS_TIMES ? ck_matmul_kernel_name(pl->kernel)
                                                     : ck_minplus_kernel_name(pl->kernel);
  return name ? name : "";
}

static mxArray *row(const double *v, int count) {
  mxArray *a = mxCreateDoubleMatrix(1, (mwSize)count, mxREAL);
  memcpy(mxGetPr(a), v, (size_t)count * sizeof *v);
  return a;
}

static mxArray *devices_of(const ck_devices *d) {
  double v[CK_SPREAD_WORKERS];
  for (int i = 0; i < d->count; i++) v[i] = d->devices[i] + 1; /* as users number them */
  return row(v, d->count);
}

/* The fields, in the order the struct lists them: the call, then what was decided, then what
 * was found (ck_plan.h says what each means). */
static const char *fields[] = {
    "op",          "semiring", "class",        "kernel",      "where",       "m",
    "k",           "n",        "pages",        "witness",     "devices",     "move",
    "panel",       "slice",    "narrow",       "pages_mode",  "looks_ahead", "rounds",
    "graph_tiles", "work",     "words",        "shifts",      "raw",         "split",
    "clusters",    "tile",     "batched_runs", "single_pages"};
enum { FIELD_COUNT = sizeof fields / sizeof fields[0] };

static mxArray *plan_struct(const ck_plan *pl) {
  mxArray *s = mxCreateStructMatrix(1, 1, FIELD_COUNT, fields);
  const int none = pl->op == CK_OP_NONE;
  const double slice[3] = {(double)pl->slice[0], (double)pl->slice[1], (double)pl->slice[2]};
  const double tile[3] = {pl->tile[0], pl->tile[1], pl->tile[2]};
  mxArray *v[FIELD_COUNT] = {mxCreateString(ck_op_name(pl->op)),
                             mxCreateString(none ? "" : ck_plan_semiring_name(pl->semiring)),
                             mxCreateString(none ? "" : ck_dtype_name(pl->t)),
                             mxCreateString(none ? "" : kernel_name(pl)),
                             mxCreateString(ck_where_name(pl->where)),
                             mxCreateDoubleScalar((double)pl->m),
                             mxCreateDoubleScalar((double)pl->k),
                             mxCreateDoubleScalar((double)pl->n),
                             mxCreateDoubleScalar((double)pl->pages),
                             mxCreateLogicalScalar(pl->witness != 0),
                             devices_of(&pl->devices),
                             mxCreateString(ck_move_name(pl->move)),
                             mxCreateDoubleScalar((double)pl->panel),
                             row(slice, 3),
                             mxCreateLogicalScalar(pl->narrow != 0),
                             mxCreateString(ck_pages_mode_name(pl->pages_mode)),
                             mxCreateLogicalScalar(pl->looks_ahead != 0),
                             mxCreateDoubleScalar((double)pl->rounds),
                             mxCreateLogicalScalar(pl->graph_tiles != 0),
                             mxCreateString(none ? "" : ck_dtype_name(pl->work)),
                             mxCreateString(ck_words_name(pl->words)),
                             mxCreateString(ck_shifts_name(pl->shifts)),
                             mxCreateLogicalScalar(pl->raw != 0),
                             mxCreateDoubleScalar(pl->split),
                             mxCreateDoubleScalar(pl->clusters),
                             row(tile, 3),
                             mxCreateDoubleScalar((double)pl->batched_runs),
                             mxCreateDoubleScalar((double)pl->single_pages)};
  for (int i = 0; i < FIELD_COUNT; i++) mxSetFieldByNumber(s, 0, i, v[i]);
  return s;
}

void cmd_last_plan(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs, (void)nrhs, (void)prhs;
  ck_plan pl;
  ck_last_plan(&pl);
  plhs[0] = plan_struct(&pl);
}
