/* __cudakernels__: the package's one MEX gateway. It owns the shared state (the CUDA context made
 * by kernels/runtime/ck_device.c, the tracked device allocations) and dispatches commands:
 *
 *   __cudakernels__ ("available")                       -> logical
 *   __cudakernels__ ("info")                            -> 1-by-N struct array, one per device
 *   __cudakernels__ ("device_count")                    -> visible devices (0: none, no error)
 *   __cudakernels__ ("device_select" [, I])             -> selected device (1-based) before;
 *                                                          device I selected
 *   __cudakernels__ ("kernels", OP)                     -> cellstr of kernel names for OP
 *   __cudakernels__ ("minplus", A, B, KERNEL [, DEVICES]) -> C, and K (the argmin) if asked for;
 *                                                          DEVICES (1-based) share the columns of
 *                                                          C, [] or absent: the default
 *   __cudakernels__ ("minplus_time", CLASS, KERNEL, M, K, N, WARMUP, REPS [, "arg"]
 *                    [, "fractions" | "wide"] [, CALLS]) -> times in ms (per call, CALLS back to
 *                                                          back between the events)
 *   __cudakernels__ ("minplus_narrow" [, MODE])         -> the narrowing mode before ("auto",
 *                                                          "off", "always"), set to MODE
 *   __cudakernels__ ("minplus_path")                    -> class the last device product ran in
 *   __cudakernels__ ("minplus_ceiling", CLASS)          -> register-only pair updates per second
 *   __cudakernels__ ("sum", X, BEFORE, LEN, AFTER, MODE, KERNEL) -> Y (BEFORE*AFTER-by-1)
 *   __cudakernels__ ("sum_time", X, BEFORE, LEN, AFTER, MODE, KERNEL, WARMUP, REPS) -> [times, Y]
 *   __cudakernels__ ("copy_bandwidth", BYTES, REPS)     -> device copy rate, bytes moved per s
 *   __cudakernels__ ("matmul", A, B, KERNEL [, DEVICES]) -> C = A * B
 *   __cudakernels__ ("matmul_time", CLASS, KERNEL, M, K, N, WARMUP, REPS [, CALLS]) -> times
 *   __cudakernels__ ("cublas")                          -> the cuBLAS library loaded, "" if none
 *   __cudakernels__ ("sync")                            -> waits for the device to finish
 *   __cudakernels__ ("array_put", X [, DEVICE])         -> ID of a device copy of X (on DEVICE,
 *                                                          1-based; default the selected one)
 *   __cudakernels__ ("array_get", ID, DIMS)             -> the array, shaped DIMS
 *   __cudakernels__ ("array_free", ID)                  -> (unknown IDs are ignored)
 *   __cudakernels__ ("array_info", ID)                  -> [class name, numel, device (1-based)]
 *   __cudakernels__ ("array_convert", ID, CLASS)        -> ID of a converted copy
 *   __cudakernels__ ("minplus_dev", IDA, IDB, M, K, N, KERNEL [, DEVICES]) -> ID of C (and K)
 *   __cudakernels__ ("matmul_dev", IDA, IDB, M, K, N, KERNEL [, DEVICES])  -> ID of C
 *   __cudakernels__ ("spread_copies" [, TF])            -> (for tests) whether gpu_array operands
 *                                                          are copied to every device of a spread
 *                                                          product or shortest-path call, their
 *                                                          own too; set to TF
 *   __cudakernels__ ("minplus_pages", A, B, KERNEL, M, K, N, IA, IB) -> C (m x n*pages), and K
 *   __cudakernels__ ("matmul_pages", A, B, KERNEL, M, K, N, IA, IB)  -> C (m x n*pages)
 *   __cudakernels__ ("minplus_pages_dev", IDA, IDB, M, K, N, KERNEL, IA, IB) -> ID of C, of K
 *   __cudakernels__ ("matmul_pages_dev", IDA, IDB, M, K, N, KERNEL, IA, IB)  -> ID of C
 *   __cudakernels__ ("pages_mode" [, MODE])             -> how pages run before ("auto", "loop",
 *                                                          "batched"), set to MODE; and the
 *                                                          batched runs and single pages so far
 *   __cudakernels__ ("pages_time", OP, CLASS, KERNEL, M, K, N, P, WARMUP, REPS) -> times in ms
 *   __cudakernels__ ("sum_dev", ID, BEFORE, LEN, AFTER, MODE, KERNEL) -> ID of Y
 *   __cudakernels__ ("apsp", W, KERNEL, VERBOSE [, DEVICES]) -> D, and P (int32) if asked for;
 *                                                          DEVICES (1-based) share the rows
 *   __cudakernels__ ("apsp_dev", IDW, N, VERBOSE [, DEVICES]) -> ID of D, and of P if asked for
 *   __cudakernels__ ("apsp_time", CLASS, N, WARMUP, REPS [, "paths"]) -> times in ms
 *   __cudakernels__ ("apsp_path")                       -> work type of the last device call
 *   __cudakernels__ ("path_dev", IDP, N, S, T)          -> [lengths, vertices of the paths]
 *   __cudakernels__ ("test_cancel_after", POLLS)        -> (for tests) a Ctrl-C after POLLS looks
 *   __cudakernels__ ("reset")                           -> frees everything, resets every device
 *   __cudakernels__ ("memory")                          -> [bytes held, live allocations]
 *   __cudakernels__ ("test_alloc_limit", BYTES)         -> (for tests) cap device allocations
 *   __cudakernels__ ("test_texture_limit", ELEMENTS)    -> (for tests) the limit before; cap the
 *                                                          "texture" matmul kernel's operands
 *
 * Each command starts on the selected device; one that takes gpu_arrays runs on theirs, which
 * must be one device. The .m wrappers in inst/ validate for the user; the checks here keep a
 * direct call from crashing.
 * Every failure is raised only after the C layer has released what it allocated. */
#include <stdio.h>
#include <string.h>

#include "gateway.h"

static const struct {
  const char *name;
  command_fn *fn;
} commands[] = {
    {"available", cmd_available},
    {"info", cmd_info},
    {"device_count", cmd_device_count},
    {"device_select", cmd_device_select},
    {"spread_copies", cmd_spread_copies},
    {"kernels", cmd_kernels},
    {"minplus", cmd_minplus},
    {"minplus_time", cmd_minplus_time},
    {"minplus_ceiling", cmd_minplus_ceiling},
    {"minplus_narrow", cmd_minplus_narrow},
    {"minplus_path", cmd_minplus_path},
    {"pages_mode", cmd_pages_mode},
    {"pages_time", cmd_pages_time},
    {"sum", cmd_sum},
    {"sum_time", cmd_sum_time},
    {"copy_bandwidth", cmd_copy_bandwidth},
    {"matmul", cmd_matmul},
    {"matmul_time", cmd_matmul_time},
    {"cublas", cmd_cublas},
    {"sync", cmd_sync},
    {"array_put", cmd_array_put},
    {"array_get", cmd_array_get},
    {"array_free", cmd_array_free},
    {"array_info", cmd_array_info},
    {"array_convert", cmd_array_convert},
    {"minplus_dev", cmd_minplus_dev},
    {"matmul_dev", cmd_matmul_dev},
    {"minplus_pages", cmd_minplus_pages},
    {"matmul_pages", cmd_matmul_pages},
    {"minplus_pages_dev", cmd_minplus_pages_dev},
    {"matmul_pages_dev", cmd_matmul_pages_dev},
    {"sum_dev", cmd_sum_dev},
    {"apsp", cmd_apsp},
    {"apsp_dev", cmd_apsp_dev},
    {"apsp_time", cmd_apsp_time},
    {"apsp_path", cmd_apsp_path},
    {"path_dev", cmd_path_dev},
    {"test_cancel_after", cmd_test_cancel_after},
    {"reset", cmd_reset},
    {"memory", cmd_memory},
    {"test_alloc_limit", cmd_test_alloc_limit},
    {"test_texture_limit", cmd_test_texture_limit},
};

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  /* Stay loaded: unloading a library that holds a CUDA context and the statically linked runtime
   * would leave the runtime's exit handlers pointing at unmapped code. */
  if (!mexIsLocked()) mexLock();
  if (nrhs < 1) gw_fail_invalid("usage: __cudakernels__ (COMMAND, ...)");
  char name[32];
  gw_string(prhs[0], name, sizeof name, "COMMAND");
  ck_call_begin();
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(name, commands[i].name)) {
      commands[i].fn(nlhs, plhs, nrhs - 1, prhs + 1);
      return;
    }
  char msg[96];
  snprintf(msg, sizeof msg, "unknown command \"%s\"", name);
  gw_fail_invalid(msg);
}
