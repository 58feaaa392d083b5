/* max.min's integer classes on words (minplus_dpx_run.cuh): two compares per pair (per two pairs
 * on 16-bit halves), on values shifted by the class's minimum. */
#include "minplus_dpx_run.cuh"

MP_INSTANTIATE_WORD_RUNNERS(sr_max_min)
