## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{r} =} bench_closure ()
## @deftypefnx {} {@var{r} =} bench_closure (@var{name}, @var{value}, @dots{})
## gpu_closure as a user calls it: whole calls from Octave (a sync before and
## after each, tic and toc), on a logical gpu_array and on a logical host
## array (its upload and download included), the median of the repetitions,
## as n^3 pairs a second.  The graphs are random with about 3 edges a vertex,
## so that paths are long and the closure is nearly full.  The device time of
## the closure alone is dev/closure's (doc/apsp.md).
##
## Options: @qcode{"sizes"} (default 16384, 32768 and 65536), @qcode{"reps"}
## (default 3).  Prints a row per size and returns a struct array of them.
## @end deftypefn

function r = bench_closure (varargin)
  o = struct ("sizes", [16384 32768 65536], "reps", 3);
  for i = 1:2:numel (varargin)
    o.(varargin{i}) = varargin{i+1};
  endfor
  printf ("gpu_closure on %s: whole calls from Octave, ms (n^3 pairs / s)\n",
          gpu_info ()(1).name);
  printf ("%6s %12s %10s %12s %10s\n", "n", "gpu_array", "Tpair/s", "host array", "Tpair/s");
  r = struct ("n", {}, "device_ms", {}, "host_ms", {});
  for n = o.sizes
    G = sparse_graph (n);
    D = gpu_array (G);
    t = zeros (2, o.reps);
    gpu_closure (D);   # warm-up
    for rep = 1:o.reps
      t(1, rep) = timed (@() gpu_closure (D));
      t(2, rep) = timed (@() gpu_closure (G));
    endfor
    clear D;
    ms = 1e3 * median (t, 2);
    rate = n ^ 3 ./ (ms * 1e-3) / 1e12;
    printf ("%6d %12.1f %10.0f %12.1f %10.0f\n", n, ms(1), rate(1), ms(2), rate(2));
    r(end+1) = struct ("n", n, "device_ms", ms(1), "host_ms", ms(2));
  endfor
endfunction

## A logical n-by-n graph of about 3 edges a vertex, built in pieces to spare host memory.
function G = sparse_graph (n)
  G = false (n);
  e = 3 * n;
  G(sub2ind ([n n], randi (n, e, 1), randi (n, e, 1))) = true;
endfunction

function t = timed (f)
  __cudakernels__ ("sync");
  t0 = tic ();
  R = f ();
  __cudakernels__ ("sync");
  t = toc (t0);
endfunction
