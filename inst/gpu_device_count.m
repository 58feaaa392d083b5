## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{n} =} gpu_device_count ()
## Return the number of CUDA GPUs the cudakernels package can use.
##
## It is 0 when there is no NVIDIA GPU, no driver, or a driver too old for the
## package's CUDA runtime, and it never raises an error, so it is safe in
## conditions such as @code{%!testif ; gpu_device_count () >= 2}.  The GPUs are
## those the environment variable @env{CUDA_VISIBLE_DEVICES} leaves visible, up
## to 16.
##
## @seealso{gpu_device, gpu_available, gpu_info}
## @end deftypefn

function n = gpu_device_count ()
  if (nargin != 0)
    print_usage ();
  endif
  n = __cudakernels__ ("device_count");
endfunction

%!test
%! n = gpu_device_count ();
%! assert (isscalar (n) && n == fix (n) && n >= 0);
%! assert (n > 0, gpu_available ());

%!error <called with too many inputs> gpu_device_count (1)

%!demo
%! printf ("%d GPU(s) visible to cudakernels\n", gpu_device_count ());
