/* max.+'s integer classes on DPX words (minplus_dpx_run.cuh): Hopper's max-add, on the same
 * shifted words as min.+. */
#include "minplus_dpx_run.cuh"

MP_INSTANTIATE_WORD_RUNNERS(sr_max_plus)
