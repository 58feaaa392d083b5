/* min.max's integer classes on words (minplus_dpx_run.cuh), as max.min's (minplus_dpx_maxmin.cu):
 * a file each, so that the build compiles them in parallel. */
#include "minplus_dpx_run.cuh"

MP_INSTANTIATE_WORD_RUNNERS(sr_min_max)
