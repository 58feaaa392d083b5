/* The end-to-end floor of any MEX gateway on this host: return an n-by-n single that was never
 * written (mode 0) or was zeroed (mode 1). Octave copies a MEX function's outputs into its own
 * arrays, so this costs what handing any result of that size back to Octave costs, whatever
 * computed it (doc/minplus.md, "End to end").
 *   mkoctfile --mex bench/mex_return_floor.c -o /tmp/mex_return_floor.mex
 *   addpath /tmp; tic; C = mex_return_floor (8192, 0); toc */
#include <string.h>

#include "mex.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
  (void)nlhs;
  if (nrhs != 2) mexErrMsgIdAndTxt("cudakernels:invalidinput", "usage: mex_return_floor (n, mode)");
  mwSize n = (mwSize)mxGetScalar(prhs[0]);
  mxArray *C = mxCreateUninitNumericMatrix(n, n, mxSINGLE_CLASS, mxREAL);
  if (mxGetScalar(prhs[1]) != 0) memset(mxGetData(C), 0, (size_t)n * n * sizeof(float));
  plhs[0] = C;
}
