## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} first_example ()
## The example @code{make run} shows: two-edge shortest paths of a small
## graph by one min-plus product.  With a GPU it runs there; without one it
## says so and shows the same result from the CPU reference
## (@qcode{"kernel", "cpu"}), so a first run on any machine ends with a result.
## @end deftypefn

function first_example ()
  D = [0 3 Inf 7; 8 0 2 Inf; 5 Inf 0 1; 2 Inf Inf 0]
  if (gpu_available ())
    gpu_info ();
    disp ("two-edge shortest paths, gpu_minplus (D):");
    disp (gpu_minplus (D));
  else
    disp ("No GPU found: no NVIDIA GPU and driver are visible to this process (gpu_available () is false).");
    disp ("The same product on the CPU reference, gpu_minplus (D, \"kernel\", \"cpu\"):");
    disp (gpu_minplus (D, "kernel", "cpu"));
  endif
endfunction

%!test
%! ## the example runs on any machine and shows the two-edge distances
%! out = evalc ("first_example ()");
%! assert (! isempty (strfind (out, "two-edge shortest paths")) || ! isempty (strfind (out, "CPU reference")));
%! assert (! isempty (strfind (out, "No GPU found")), ! gpu_available ());
%! assert (gpu_minplus ([0 3 Inf 7; 8 0 2 Inf; 5 Inf 0 1; 2 Inf Inf 0], "kernel", "cpu"),
%!         [0 3 5 7; 7 0 2 3; 3 8 0 1; 2 5 Inf 0]);
