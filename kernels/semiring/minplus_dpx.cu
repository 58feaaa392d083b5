/* min.+'s integer classes on DPX words (minplus_dpx_run.cuh): gpu_minplus, gpu_apsp's products
 * and the narrowed single and double data (minplus_narrow.cu). */
#include "minplus_dpx_run.cuh"

MP_INSTANTIATE_WORD_RUNNERS(sr_min_plus)
