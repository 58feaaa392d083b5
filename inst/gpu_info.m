## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} gpu_info ()
## @deftypefnx {} {@var{info} =} gpu_info ()
## Describe the GPUs the cudakernels package can use.
##
## With no output, print a summary of each.  Otherwise return a 1-by-N struct
## array, one element per visible GPU in @code{gpu_device}'s order, with the
## fields
##
## @table @code
## @item index
## the GPU's number for @code{gpu_device} and the option @qcode{"devices"} (1,
## 2, @dots{})
## @item selected
## true for the selected GPU (@code{gpu_device (@var{I})}), false for the others
## @item name
## the device's name, e.g. @qcode{"NVIDIA H100 80GB HBM3"}
## @item device
## its CUDA device number (@code{index} - 1)
## @item compute_capability
## e.g. @qcode{"9.0"}
## @item multiprocessors, clock_mhz, l2_bytes
## the streaming multiprocessors, their maximum clock and the L2 cache size
## @item total_memory, free_memory
## the device memory in bytes, and how much of it is free now
## @item package_memory
## the bytes of the device's memory this package holds now: its gpu_arrays
## there (0 when there are none; nothing is kept between other calls)
## @item gpu_arrays
## the number of live gpu_arrays on the device
## @item driver_version, runtime_version
## the CUDA driver's and the package's CUDA runtime's versions, e.g. @qcode{"13.0"}
## @end table
##
## Without a usable GPU it raises an error with identifier
## @code{cudakernels:nodevice}.
##
## @seealso{gpu_available, gpu_device}
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
  for d = s
    printf ("%d: %s (compute capability %s)%s\n", d.index, d.name, d.compute_capability, ...
            ck_pick (d.selected && numel (s) > 1, ", selected", ""));
    printf ("  %d multiprocessors at up to %d MHz, %.0f MiB L2\n", d.multiprocessors, ...
            d.clock_mhz, d.l2_bytes / 2^20);
    printf ("  memory: %.1f GiB total, %.1f GiB free, %.1f MiB held by cudakernels (%d gpu_arrays)\n", ...
            d.total_memory / gib, d.free_memory / gib, d.package_memory / 2^20, d.gpu_arrays);
  endfor
  printf ("CUDA driver %s, runtime %s\n", s(1).driver_version, s(1).runtime_version);
endfunction

%!testif ; gpu_available ()
%! all_gpus = gpu_info ();
%! assert (numel (all_gpus), gpu_device_count ());
%! assert ([all_gpus.index], 1:numel (all_gpus));
%! assert ([all_gpus.device], 0:numel (all_gpus) - 1);
%! assert (nnz ([all_gpus.selected]), 1);
%! s = gpu_info ()(1);
%! assert (ischar (s.name) && ! isempty (s.name));
%! assert (regexp (s.compute_capability, '^\d+\.\d+$'));
%! assert (s.multiprocessors > 0 && s.total_memory > 0);
%! assert (s.free_memory > 0 && s.free_memory <= s.total_memory);
%! G = gpu_array (ones (1000, "single"), "device", 1);
%! s = gpu_info ()(1);
%! assert (s.package_memory, 4e6);
%! assert (s.gpu_arrays, 1);
%! clear G
%! assert ([gpu_info().package_memory], zeros (1, gpu_device_count ()));
%! assert (regexp (s.driver_version, '^\d+\.\d+$'));
%! assert (regexp (s.runtime_version, '^\d+\.\d+$'));

%!testif ; gpu_available ()
%! out = evalc ("gpu_info ()");
%! assert (! isempty (strfind (out, gpu_info ()(1).name)));

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
