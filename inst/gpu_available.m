## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{tf} =} gpu_available ()
## Return true if a CUDA GPU can be used by the cudakernels package.
##
## It is false when there is no NVIDIA GPU, no NVIDIA driver, or a driver too
## old for the CUDA runtime the package was built with.  It never raises an
## error, so it is safe in conditions such as @code{%!testif ; gpu_available ()}.
##
## @seealso{gpu_info, gpu_device_count, gpu_minplus}
## @end deftypefn

function tf = gpu_available ()
  if (nargin != 0)
    print_usage ();
  endif
  tf = __cudakernels__ ("available");
endfunction

%!test
%! tf = gpu_available ();
%! assert (islogical (tf) && isscalar (tf));
%! assert (gpu_available (), tf);   # a second call gives the same answer

%!error <called with too many inputs> gpu_available (1)

%!demo
%! if (gpu_available ())
%!   printf ("a GPU is available: %s\n", gpu_info ()(1).name);
%! else
%!   printf ("no GPU: gpu_* functions raise cudakernels:nodevice\n");
%! endif
