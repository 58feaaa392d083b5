/* __cudakernels__: the package's one MEX gateway. It owns the shared state (the CUDA context made
 * by kernels/runtime/ck_device.c, the tracked device allocations, the settings of gw_settings.h)
 * and dispatches commands through the table below, which describes each one: its usage and how
 * many arguments and outputs it takes. The dispatcher checks those counts before the command
 * runs, and __cudakernels__ () or __cudakernels__ ("help") lists the table.
 *
 * Each command starts on the selected device; one that takes gpu_arrays runs on theirs, which
 * must be one device. The .m wrappers in inst/ validate for the user; the checks here keep a
 * direct call from crashing.
 * Every failure is raised only after the C layer has released what it allocated. */
#include <stdio.h>
#include <string.h>

#include "gateway.h"

typedef struct {
  const char *name;
  command_fn *fn;
  const char *args;       /* what follows the name in a call: "" for nothing, "[, X]" if optional */
  const char *returns;    /* what it gives back */
  int min_args, max_args; /* arguments after the name */
  int max_outputs;
} command;

static command_fn cmd_help;

/* Devices are numbered from 1 here, as Octave users write them; DEVICES share a product's columns
 * or a shortest-path call's rows ([] or absent: the default). A product and a shortest-path call
 * are one command each, whatever the semiring, wherever the operands live, with or without
 * pages; "time" times either on random device operands; "last_plan" says how the last one ran. */
static const command commands[] = {
    {"help", cmd_help, "", "the command list: printed, or a struct array", 0, 0, 1},
    {"available", cmd_available, "", "logical", 0, 0, 1},
    {"info", cmd_info, "", "a 1-by-N struct array, one per device", 0, 0, 1},
    {"device_count", cmd_device_count, "", "visible devices (0: none, no error)", 0, 0, 1},
    {"device_select", cmd_device_select, "[, I]", "the selected device before; selects I", 0, 1, 1},
    {"settings", cmd_settings, "[, NAME, VALUE, ... | , S]",
     "every setting before, a struct; sets those given (gw_settings.h)", 0, GW_SETTINGS_MAX_ARGS,
     1},
    {"kernels", cmd_kernels, "OP", "cellstr of OP's kernel names", 1, 1, 1},
    {"product", cmd_product, "SEMIRING, WHERE, A, B, KERNEL [, DEVICES [, SIZE [, IA, IB]]]",
     "C [, K]: host arrays, or (WHERE \"device\") gpu_array ids", 5, 9, 2},
    {"apsp", cmd_apsp, "SEMIRING, WHERE, W, KERNEL, VERBOSE [, DEVICES [, DIMS]]",
     "D [, P (int32)]: host arrays (n-by-n pages), or (WHERE \"device\") gpu_array ids", 5, 7, 2},
    {"closure", cmd_closure, "WHERE, G, REFLEXIVE",
     "R: the transitive closure of logical G, host or (WHERE \"device\") a gpu_array id", 3, 3, 1},
    {"time", cmd_time, "OP, SEMIRING, CLASS, KERNEL, SIZE, WARMUP, REPS [, FLAG ...] [, CALLS]",
     "times in ms per call, on random device operands", 7, 10, 1},
    {"last_plan", cmd_last_plan, "", "the last product or shortest-path call's plan, a struct", 0,
     0, 1},
    {"minplus_ceiling", cmd_minplus_ceiling, "CLASS [, SEMIRING [, PATH]]",
     "register-only pair updates per second (or.and's PATH: \"tensor\" or \"lop3\")", 1, 3, 1},
    {"sum", cmd_sum, "X, BEFORE, LEN, AFTER, MODE, KERNEL", "Y (BEFORE*AFTER-by-1)", 6, 6, 1},
    {"sum_time", cmd_sum_time, "X, BEFORE, LEN, AFTER, MODE, KERNEL, WARMUP, REPS",
     "times in ms [, Y]", 8, 8, 2},
    {"sum_dev", cmd_sum_dev, "ID, BEFORE, LEN, AFTER, MODE, KERNEL", "ID of Y", 6, 6, 1},
    {"copy_bandwidth", cmd_copy_bandwidth, "BYTES, REPS", "device copy rate, bytes moved per s", 2,
     2, 1},
    {"cublas", cmd_cublas, "", "the cuBLAS library loaded, \"\" if none", 0, 0, 1},
    {"sync", cmd_sync, "", "nothing; waits for the device to finish", 0, 0, 0},
    {"array_put", cmd_array_put, "X [, DEVICE]", "ID of a device copy of X", 1, 2, 1},
    {"array_get", cmd_array_get, "ID, DIMS", "the array, shaped DIMS", 2, 2, 1},
    {"array_free", cmd_array_free, "ID", "nothing (unknown IDs are ignored)", 1, 1, 0},
    {"array_info", cmd_array_info, "ID", "class name [, numel [, device]]", 1, 1, 3},
    {"array_convert", cmd_array_convert, "ID, CLASS", "ID of a converted copy", 2, 2, 1},
    {"path_dev", cmd_path_dev, "IDP, N, S, T [, Q]", "lengths, vertices of the paths", 4, 5, 2},
    {"reset", cmd_reset, "", "nothing; frees everything, resets every device and setting", 0, 0, 0},
    {"memory", cmd_memory, "", "[bytes held, live allocations]", 0, 0, 1},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

/* One command's usage line, e.g. __cudakernels__ ("kernels", OP) -> cellstr of OP's kernel names */
static void usage_line(const command *c, char *buf, size_t size) {
  const char *sep = !*c->args ? "" : c->args[0] == '[' ? " " : ", ";
  snprintf(buf, size, "__cudakernels__ (\"%s\"%s%s) -> %s", c->name, sep, c->args, c->returns);
}

/* "help": the table, printed (no output asked for) or as a struct array of name, usage,
 * min_args, max_args and max_outputs. */
static void cmd_help(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nrhs, (void)prhs;
  static const char *fields[] = {"name", "usage", "min_args", "max_args", "max_outputs"};
  mxArray *s = nlhs > 0 ? mxCreateStructMatrix(COMMAND_COUNT, 1, 5, fields) : NULL;
  if (!s) mexPrintf("__cudakernels__ commands (arguments after the name, -> what it returns):\n");
  for (int i = 0; i < COMMAND_COUNT; i++) {
    const command *c = &commands[i];
    char line[256];
    usage_line(c, line, sizeof line);
    if (!s) {
      mexPrintf("  %s\n", line);
      continue;
    }
    mxSetField(s, i, "name", mxCreateString(c->name));
    mxSetField(s, i, "usage", mxCreateString(line));
    mxSetField(s, i, "min_args", mxCreateDoubleScalar(c->min_args));
    mxSetField(s, i, "max_args", mxCreateDoubleScalar(c->max_args));
    mxSetField(s, i, "max_outputs", mxCreateDoubleScalar(c->max_outputs));
  }
  if (s) plhs[0] = s;
}

/* The counts of c's table entry, or the invalid-input error naming the command and its usage. */
static void check_counts(const command *c, int nlhs, int nrhs) {
  char what[96] = "";
  if (nrhs < c->min_args || nrhs > c->max_args)
    snprintf(what, sizeof what, "%d argument%s after the name", nrhs, nrhs == 1 ? "" : "s");
  else if (nlhs > (c->max_outputs > 1 ? c->max_outputs : 1)) /* one: "ans", even for nothing */
    snprintf(what, sizeof what, "%d outputs", nlhs);
  if (!*what) return;
  char line[256], msg[400];
  usage_line(c, line, sizeof line);
  snprintf(msg, sizeof msg, "\"%s\" called with %s; usage: %s", c->name, what, line);
  gw_fail_invalid(msg);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  /* Stay loaded: unloading a library that holds a CUDA context and the statically linked runtime
   * would leave the runtime's exit handlers pointing at unmapped code. */
  if (!mexIsLocked()) mexLock();
  char name[32] = "help";
  if (nrhs > 0) gw_string(prhs[0], name, sizeof name, "COMMAND");
  for (int i = 0; i < COMMAND_COUNT; i++)
    if (!strcmp(name, commands[i].name)) {
      const int args = nrhs > 0 ? nrhs - 1 : 0;
      check_counts(&commands[i], nlhs, args);
      ck_call_begin();
      commands[i].fn(nlhs, plhs, args, nrhs > 0 ? prhs + 1 : prhs);
      return;
    }
  char msg[96];
  snprintf(msg, sizeof msg, "unknown command \"%s\" (__cudakernels__ (\"help\") lists them)", name);
  gw_fail_invalid(msg);
}
