## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} gpu_info ()
## @deftypefnx {} {@var{info} =} gpu_info ()
## Describe the GPU used by the cudakernels package.
##
## With no output, print a summary.  Otherwise return a struct with the fields
##
## @table @code
## @item name
## the device's name, e.g. @qcode{"NVIDIA H100 80GB HBM3"}
## @item device
## the CUDA device index in use (0)
## @item compute_capability
## e.g. @qcode{"9.0"}
## @item multiprocessors, clock_mhz, l2_bytes
## the streaming multiprocessors, their maximum clock and the L2 cache size
## @item total_memory, free_memory
## the device memory in bytes, and how much of it is free now
## @item package_memory
## the bytes of device memory this package holds now: its gpu_arrays (0 when
## there are none; nothing is kept between other calls)
## @item gpu_arrays
## the number of live gpu_arrays
## @item driver_version, runtime_version
## the CUDA driver's and the package's CUDA runtime's versions, e.g. @qcode{"13.0"}
## @end table
##
## Without a usable GPU it raises an error with identifier
## @code{cudakernels:nodevice}.
##
## @seealso{gpu_available}
## @end deftypefn

function info = gpu_info ()
  if (nargin != 0)
    print_usage ();
  endif
  s = ck_call ("gpu_info", "info");
  if (nargout > 0)
    info = s;
    return;
  endif
  gib = 2^30;
  printf ("%s (device %d, compute capability %s)\n", s.name, s.device, s.compute_capability);
  printf ("  %d multiprocessors at up to %d MHz, %.0f MiB L2\n", s.multiprocessors, ...
          s.clock_mhz, s.l2_bytes / 2^20);
  printf ("  memory: %.1f GiB total, %.1f GiB free, %.1f MiB held by cudakernels (%d gpu_arrays)\n", ...
          s.total_memory / gib, s.free_memory / gib, s.package_memory / 2^20, s.gpu_arrays);
  printf ("  CUDA driver %s, runtime %s\n", s.driver_version, s.runtime_version);
endfunction

%!testif ; gpu_available ()
%! s = gpu_info ();
%! assert (ischar (s.name) && ! isempty (s.name));
%! assert (regexp (s.compute_capability, '^\d+\.\d+$'));
%! assert (s.multiprocessors > 0 && s.total_memory > 0);
%! assert (s.free_memory > 0 && s.free_memory <= s.total_memory);
%! G = gpu_array (ones (1000, "single"));
%! s = gpu_info ();
%! assert (s.package_memory, 4e6);
%! assert (s.gpu_arrays, 1);
%! clear G
%! assert (gpu_info ().package_memory, 0);
%! assert (regexp (s.driver_version, '^\d+\.\d+$'));
%! assert (regexp (s.runtime_version, '^\d+\.\d+$'));

%!testif ; gpu_available ()
%! out = evalc ("gpu_info ()");
%! assert (! isempty (strfind (out, gpu_info ().name)));

%!testif ; ! gpu_available ()
%! try
%!   gpu_info ();
%!   error ("test:noerror", "gpu_info raised no error without a GPU");
%! catch err
%!   assert (err.identifier, "cudakernels:nodevice");
%! end_try_catch

%!error <called with too many inputs> gpu_info (1)

%!demo
%! if (gpu_available ())
%!   gpu_info ()
%! endif
