## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} gpu_reset ()
## Free every device array and reset the GPU.
##
## All memory the package holds on the device is released (gpu_arrays, pinned
## staging buffers, the cuBLAS handle) and the device is reset, which also
## clears a sticky error left by a failed kernel.  Existing gpu_array
## variables become stale: using one raises @code{cudakernels:stalearray}.
## @seealso{gpu_array, gpu_info}
## @end deftypefn

function gpu_reset ()
  if (nargin != 0)
    print_usage ();
  endif
  ck_call ("gpu_reset", "reset");
endfunction

%!error <called with too many inputs> gpu_reset (1)
