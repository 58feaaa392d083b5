/* The gateway's settings: every switch that tests and benchmarks turn, in one struct, read and set
 * by one command (gw_settings.c):
 *
 *   s = __cudakernels__ ("settings")                       -> every setting, a struct
 *   old = __cudakernels__ ("settings", NAME, VALUE, ...)   -> sets some, returns them all before
 *   old = __cudakernels__ ("settings", S)                  -> the same from a struct (e.g. old)
 *
 * A call sets all of its values or, on an unknown name or a bad value, none (the error is
 * cudakernels:invalidinput). "reset" (gpu_reset) returns every setting to its default. The values
 * live here and in the C layer's statics; the gateway is the only one to change them, and pushes
 * each change down through the function named below. */
#ifndef CK_GW_SETTINGS_H
#define CK_GW_SETTINGS_H

#include <stddef.h>

typedef struct {
  /* minplus_narrow, a string, default "auto": whether integer-valued single and double min-plus
   * products (and shortest paths) run on the integer paths: "auto" those large enough for the look
   * at the values to pay, "off" none (benchmarks of a class's own path), "always" every one
   * (tests). Drives ck_minplus_set_narrow (CK_NARROW_AUTO, _OFF, _ALWAYS). */
  int minplus_narrow;
  /* pages_mode, a string, default "auto": how paged products run: "auto" one launch per run of
   * pages where that gains, "loop" page by page, "batched" one launch wherever the kernel can.
   * Drives ck_pages_set_mode (CK_PAGES_AUTO, _LOOP, _BATCHED). */
  int pages_mode;
  /* apsp_graph, a string, default "auto": how a graph's distances alone run (one graph, one
   * device): "auto" by tiles in one launch where that is faster, "rounds" on the rounds
   * (benchmarks and tests of the rounds). Drives ck_apsp_set_graph_mode (CK_APSP_GRAPH_AUTO,
   * _ROUNDS). */
  int apsp_graph;
  /* spread_copies, logical, default false (tests): the gpu_array operands of work spread over
   * devices (products, shortest paths) are copied to every worker's device, their own too.
   * gw_devices copies it into ck_devices.copy_always. */
  int spread_copies;
  /* test_alloc_limit, bytes (a non-negative integer), default 0 (no limit) (tests): device
   * allocations past this many bytes in all fail as out of memory. Drives ck_dev_set_limit. */
  size_t test_alloc_limit;
  /* test_cancel_after, an integer from -1, default -1 (never) (tests): the next shortest-path call
   * stops as Ctrl-C would after this many polls. gw_apsp.c's poll counts it down and sets it back
   * to -1 when it fires. */
  long test_cancel_after;
  /* test_texture_limit, elements (a non-negative integer), default 0 (the device's own) (tests):
   * the "texture" matmul kernel refuses operands of more elements than this. Drives
   * ck_matmul_set_texture_limit. */
  size_t test_texture_limit;
} gw_settings;

/* A NAME, VALUE pair for each setting: the most arguments "settings" takes. */
#define GW_SETTINGS_MAX_ARGS 14

/* The current values; gw_apsp.c counts test_cancel_after down in place. */
extern gw_settings gw_setting;

/* Every setting to its default, pushed to the C layer ("reset"). */
void gw_settings_reset(void);

#endif
