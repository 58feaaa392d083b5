## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} gpu_device ()
## @deftypefnx {} {@var{list} =} gpu_device ()
## @deftypefnx {} {@var{d} =} gpu_device (@var{I})
## List the GPUs, or select the one that new work runs on.
##
## @code{gpu_device ()} prints one line per visible GPU: its number @var{I}
## (1, 2, @dots{}), name, memory and compute capability, with the selected one
## marked.  With an output it returns them as the struct array that
## @code{gpu_info} returns (fields @code{index}, @code{name},
## @code{selected}, @code{total_memory}, @code{free_memory},
## @code{compute_capability}, @dots{}).
##
## @code{gpu_device (@var{I})} selects GPU @var{I}: new gpu_arrays are made
## on it, and calls on host arrays that run on one GPU run there.  Existing
## gpu_arrays stay on the GPU they were made on, and calls on them run there,
## whichever is selected.  With an output it returns the selected GPU's entry.
## GPU 1 is selected when the package loads.  Products large enough to gain
## use every GPU unless told otherwise (the option @qcode{"devices"} of
## @code{gpu_minplus} and @code{gpu_matmul}).
##
## The numbers are CUDA's device numbers plus 1, in the order that
## @env{CUDA_VISIBLE_DEVICES} leaves them.  Listing a GPU creates the package's
## CUDA context on it (a few hundred MiB of its memory, as on the first use of
## any GPU).  A number that is not a visible GPU raises
## @code{cudakernels:invalidinput}; without a usable GPU, @code{gpu_device}
## raises @code{cudakernels:nodevice}.
##
## @seealso{gpu_device_count, gpu_info, gpu_array, gpu_reset}
## @end deftypefn

function out = gpu_device (I)
  if (nargin > 1)
    print_usage ();
  endif
  if (nargin == 1)
    I = ck_value ("gpu_device", "the GPU number I", I, "index");   # the gateway: whether it exists
    ck_call ("gpu_device", "device_select", I);
  endif
  s = ck_call ("gpu_device", "info");
  if (nargout > 0)
    if (nargin == 1)
      out = s(I);
    else
      out = s;
    endif
    return;
  endif
  if (nargin == 1)
    return;
  endif
  for d = s
    printf ("%s %d: %s, %.1f GiB (%.1f GiB free), compute capability %s\n",
            ck_pick (d.selected, "*", " "), d.index, d.name, d.total_memory / 2^30,
            d.free_memory / 2^30, d.compute_capability);
  endfor
endfunction

%!testif ; gpu_available ()
%! s = gpu_device ();
%! assert (numel (s), gpu_device_count ());
%! assert ([s.index], 1:numel (s));
%! assert (nnz ([s.selected]), 1);
%! assert (all ([s.total_memory] > 0));

%!testif ; gpu_available ()
%! before = find ([gpu_device().selected]);
%! d = gpu_device (1);
%! assert (d.index, 1);
%! assert (d.selected);
%! G = gpu_array (single (magic (4)));
%! [~, ~, where] = __cudakernels__ ("array_info", device_id (G));
%! assert (where, 1);
%! assert (! isempty (strfind (evalc ("disp (G)"), "on device 1")));
%! H = gpu_array (single (magic (4)), "device", 1);
%! assert (gather (gpu_minplus (G, H)), gpu_minplus (single (magic (4))));
%! gpu_device (before);

%!testif ; gpu_available ()
%! out = evalc ("gpu_device ()");
%! assert (! isempty (strfind (out, gpu_info ()(1).name)));
%! assert (numel (strfind (out, "*")), 1);

%!testif ; gpu_available ()
%! n = gpu_device_count ();
%! for bad = {0, n + 1, 1.5, -1, "a", [1 2]}
%!   try
%!     gpu_device (bad{1});
%!     error ("test:noerror", "gpu_device (%s) raised no error", disp (bad{1}));
%!   catch err
%!     assert (err.identifier, "cudakernels:invalidinput");
%!   end_try_catch
%! endfor
%! assert (nnz ([gpu_device().selected]), 1);   # a refused number changes nothing
%! try
%!   gpu_array (1, "device", n + 1);
%!   error ("test:noerror", "gpu_array on a missing device raised no error");
%! catch err
%!   assert (err.identifier, "cudakernels:invalidinput");
%! end_try_catch

## Two GPUs: arrays stay where they were made, calls run on their device, and
## arrays of two devices in one call are refused.
%!testif ; gpu_device_count () >= 2
%! before = find ([gpu_device().selected]);
%! unwind_protect
%!   A = single (randi (99, 70, 50)); B = single (randi (99, 50, 40));
%!   gpu_device (2);
%!   G2 = gpu_array (A);
%!   gpu_device (1);
%!   G1 = gpu_array (B);
%!   [~, ~, where] = __cudakernels__ ("array_info", device_id (G2));
%!   assert (where, 2);
%!   C = gpu_minplus (G2, B);                  # B goes to device 2
%!   [~, ~, where] = __cudakernels__ ("array_info", device_id (C));
%!   assert (where, 2);
%!   assert (gather (C), gpu_minplus (A, B, "kernel", "cpu"));
%!   try
%!     gpu_minplus (G2, G1);
%!     error ("test:noerror", "arrays of two devices raised no error");
%!   catch err
%!     assert (err.identifier, "cudakernels:invalidinput");
%!     assert (! isempty (strfind (err.message, "one device")));
%!   end_try_catch
%!   assert (gather (gpu_sum (G2)), sum (A));
%!   s = gpu_info ();
%!   assert ([s.gpu_arrays], [1 2 zeros(1, numel (s) - 2)]);
%!   clear G1 G2 C
%!   assert (__ck_released__ ());
%! unwind_protect_cleanup
%!   gpu_device (before);
%! end_unwind_protect

%!testif ; ! gpu_available ()
%! assert (gpu_device_count (), 0);
%! try
%!   gpu_device ();
%!   error ("test:noerror", "gpu_device raised no error without a GPU");
%! catch err
%!   assert (err.identifier, "cudakernels:nodevice");
%! end_try_catch

%!error <called with too many inputs> gpu_device (1, 2)

%!demo
%! if (gpu_available ())
%!   gpu_device ()              # the GPUs, the selected one marked with *
%!   d = gpu_device (1);        # work on the first one
%!   printf ("selected: %s\n", d.name);
%! endif
