/* The "settings" command over gw_settings (gw_settings.h): each setting's name, kind and field,
 * its checks, and the push of a new set of values down to the C layer. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gateway.h"

/* The defaults that gw_settings.h documents, which are also the C layer's at load. */
#define DEFAULTS                                                                 \
  {                                                                              \
    .minplus_narrow = CK_NARROW_AUTO, .pages_mode = CK_PAGES_AUTO,               \
    .apsp_graph = CK_APSP_GRAPH_AUTO, .spread_copies = 0, .test_alloc_limit = 0, \
    .test_cancel_after = -1, .test_texture_limit = 0                             \
  }
static const gw_settings defaults = DEFAULTS;
gw_settings gw_setting = DEFAULTS;

typedef enum { KIND_MODE, KIND_FLAG, KIND_BYTES, KIND_POLLS } setting_kind;

typedef struct {
  const char *name;
  setting_kind kind;
  size_t offset;            /* of its field in gw_settings */
  const char *const *modes; /* KIND_MODE: the names, in the C layer's order */
  const char *bad;          /* the error for a value it does not take */
} setting;

static const char *const narrow_modes[] = {"auto", "off", "always", NULL};
static const char *const pages_modes[] = {"auto", "loop", "batched", NULL};
static const char *const graph_modes[] = {"auto", "rounds", NULL};
_Static_assert(CK_NARROW_AUTO == 0 && CK_NARROW_OFF == 1 && CK_NARROW_ALWAYS == 2 &&
                   CK_PAGES_AUTO == 0 && CK_PAGES_LOOP == 1 && CK_PAGES_BATCHED == 2 &&
                   CK_APSP_GRAPH_AUTO == 0 && CK_APSP_GRAPH_ROUNDS == 1,
               "a mode's index among the names is its C value");

static const setting settings[] = {
    {"minplus_narrow", KIND_MODE, offsetof(gw_settings, minplus_narrow), narrow_modes,
     "the narrowing mode (minplus_narrow) is \"auto\", \"off\" or \"always\""},
    {"pages_mode", KIND_MODE, offsetof(gw_settings, pages_mode), pages_modes,
     "the pages mode (pages_mode) is \"auto\", \"loop\" or \"batched\""},
    {"apsp_graph", KIND_MODE, offsetof(gw_settings, apsp_graph), graph_modes,
     "how a graph's distances run (apsp_graph) is \"auto\" or \"rounds\""},
    {"spread_copies", KIND_FLAG, offsetof(gw_settings, spread_copies), NULL,
     "spread_copies is true or false"},
    {"test_alloc_limit", KIND_BYTES, offsetof(gw_settings, test_alloc_limit), NULL,
     "test_alloc_limit is a number of bytes, a non-negative integer (0: no limit)"},
    {"test_cancel_after", KIND_POLLS, offsetof(gw_settings, test_cancel_after), NULL,
     "test_cancel_after is a number of polls, an integer from -1 (-1: never)"},
    {"test_texture_limit", KIND_BYTES, offsetof(gw_settings, test_texture_limit), NULL,
     "test_texture_limit is a number of elements, a non-negative integer (0: the device's own)"},
};
enum { SETTING_COUNT = sizeof settings / sizeof settings[0] };
_Static_assert(2 * SETTING_COUNT == GW_SETTINGS_MAX_ARGS, "a NAME, VALUE pair for each setting");

static void *field(gw_settings *s, const setting *d) { return (char *)s + d->offset; }

static void fail(const char *what) {
  char msg[256];
  snprintf(msg, sizeof msg, "settings: %s", what);
  gw_fail_invalid(msg);
}

/* The setting called `name`, or the error that lists them all. */
static const setting *find(const char *name) {
  for (int i = 0; i < SETTING_COUNT; i++)
    if (!strcmp(name, settings[i].name)) return &settings[i];
  char msg[200];
  int len = snprintf(msg, sizeof msg, "unknown setting \"%s\": the settings are", name);
  for (int i = 0; i < SETTING_COUNT && len > 0 && (size_t)len < sizeof msg; i++)
    len += snprintf(msg + len, sizeof msg - (size_t)len, "%s %s", i ? "," : "", settings[i].name);
  fail(msg);
  return NULL;
}

/* A real numeric scalar holding an integer from lo on (the bound keeps it exact in a double). */
static int integer_from(const mxArray *v, double lo, double *out) {
  if (!mxIsNumeric(v) || mxIsComplex(v) || mxGetNumberOfElements(v) != 1) return 0;
  *out = mxGetScalar(v);
  return *out >= lo && *out <= 9.0e15 && *out == floor(*out);
}

/* VALUE of setting d into s, or d's error. */
static void parse(const setting *d, const mxArray *v, gw_settings *s) {
  double x = 0;
  switch (d->kind) {
  case KIND_MODE: {
    char name[16];
    if (mxIsChar(v) && mxGetNumberOfDimensions(v) == 2 && mxGetM(v) <= 1 &&
        mxGetString(v, name, sizeof name) == 0)
      for (int i = 0; d->modes[i]; i++)
        if (!strcmp(name, d->modes[i])) {
          *(int *)field(s, d) = i;
          return;
        }
    break;
  }
  case KIND_FLAG:
    if (mxIsLogicalScalar(v)) {
      *(int *)field(s, d) = mxIsLogicalScalarTrue(v);
      return;
    }
    if (integer_from(v, 0, &x) && x <= 1) {
      *(int *)field(s, d) = x != 0;
      return;
    }
    break;
  case KIND_BYTES:
    if (integer_from(v, 0, &x)) {
      *(size_t *)field(s, d) = (size_t)x;
      return;
    }
    break;
  case KIND_POLLS:
    if (integer_from(v, -1, &x)) {
      *(long *)field(s, d) = (long)x;
      return;
    }
    break;
  }
  fail(d->bad);
}

static mxArray *value_of(const setting *d, const gw_settings *s) {
  const void *f = (const char *)s + d->offset;
  switch (d->kind) {
  case KIND_MODE: return mxCreateString(d->modes[*(const int *)f]);
  case KIND_FLAG: return mxCreateLogicalScalar(*(const int *)f != 0);
  case KIND_BYTES: return mxCreateDoubleScalar((double)*(const size_t *)f);
  case KIND_POLLS: return mxCreateDoubleScalar((double)*(const long *)f);
  }
  return NULL;
}

static mxArray *as_struct(const gw_settings *s) {
  const char *names[SETTING_COUNT];
  for (int i = 0; i < SETTING_COUNT; i++) names[i] = settings[i].name;
  mxArray *out = mxCreateStructMatrix(1, 1, SETTING_COUNT, names);
  for (int i = 0; i < SETTING_COUNT; i++) mxSetFieldByNumber(out, 0, i, value_of(&settings[i], s));
  return out;
}

/* Make s the current settings; the C layer holds its own copy of these five. */
static void apply(const gw_settings *s) {
  gw_setting = *s;
  (void)ck_minplus_set_narrow(s->minplus_narrow);
  (void)ck_pages_set_mode(s->pages_mode);
  (void)ck_apsp_set_graph_mode(s->apsp_graph);
  ck_dev_set_limit(s->test_alloc_limit);
  (void)ck_matmul_set_texture_limit(s->test_texture_limit);
}

void gw_settings_reset(void) { apply(&defaults); }

/* "settings" [, NAME, VALUE, ... | S]: every setting before the call, as a struct; the values
 * given set, all of them or (on an error) none. */
void cmd_settings(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  static const char usage[] = "the arguments are NAME, VALUE pairs or one struct (as it returns)";
  gw_settings next = gw_setting;
  if (nrhs == 1) {
    const mxArray *s = prhs[0];
    if (!mxIsStruct(s) || mxGetNumberOfElements(s) != 1) fail(usage);
    for (int i = 0; i < mxGetNumberOfFields(s); i++)
      parse(find(mxGetFieldNameByNumber(s, i)), mxGetFieldByNumber(s, 0, i), &next);
  } else {
    if (nrhs % 2) fail(usage);
    for (int i = 0; i < nrhs; i += 2) {
      char name[32];
      gw_string(prhs[i], name, sizeof name, "settings: NAME");
      parse(find(name), prhs[i + 1], &next);
    }
  }
  plhs[0] = as_struct(&gw_setting);
  apply(&next);
}
