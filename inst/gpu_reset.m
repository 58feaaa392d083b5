## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} gpu_reset ()
## Free every device array and reset the GPUs.
##
## All memory the package holds on every GPU is released (gpu_arrays, pinned
## staging buffers, the cuBLAS handles) and each GPU the package has used is
## reset, which also clears a sticky error left by a failed kernel.  The
## selected GPU (@code{gpu_device}) stays selected.  Existing gpu_array
## variables become stale: using one raises @code{cudakernels:stalearray}.
## The package's settings for tests and benchmarks
## (@code{__cudakernels__ ("settings")}) return to their defaults.
## @seealso{gpu_array, gpu_info, gpu_device}
## @end deftypefn

function gpu_reset ()
  if (nargin != 0)
    print_usage ();
  endif
  ck_call ("gpu_reset", "reset");
endfunction

%!error <called with too many inputs> gpu_reset (1)

## every setting back to its default, whatever it was
%!test
%! __cudakernels__ ("settings", "minplus_narrow", "always", "pages_mode", "loop",
%!                  "apsp_graph", "rounds", "spread_copies", true, "test_alloc_limit", 1e6,
%!                  "test_cancel_after", 3);
%! gpu_reset ();
%! assert (__cudakernels__ ("settings"),
%!         struct ("minplus_narrow", "auto", "pages_mode", "auto", "apsp_graph", "auto",
%!                 "spread_copies", false, "test_alloc_limit", 0, "test_cancel_after", -1,
%!                 "test_texture_limit", 0));
