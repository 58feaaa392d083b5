## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{r} =} bench_paths ()
## @deftypefnx {} {@var{r} =} bench_paths (@var{name}, @var{value}, @dots{})
## gpu_apsp's other path problems against shortest paths on the GPU: longest
## paths (@qcode{"max.+"}) beside min.+ on the same graphs, negated, whole calls
## from Octave on gpu_arrays (a sync before and after each, tic and toc), D
## alone and with P, the builds alternating within each repetition; the median
## of the repetitions.  The weights are random fractions in [0, 1000) with half
## the edges missing, so single and double run in their own class.
##
## Options: @qcode{"sizes"} (struct: class -> sizes, default single 4096 and
## 8192, double 4096), @qcode{"reps"} (default 3).  Prints a row per class and
## size and returns a struct array of them.
## @end deftypefn

function r = bench_paths (varargin)
  o = struct ("sizes", struct ("single", [4096 8192], "double", 4096), "reps", 3);
  for i = 1:2:numel (varargin)
    o.(varargin{i}) = varargin{i+1};
  endfor
  printf ("gpu_apsp's path problems on %s: whole calls on gpu_arrays, ms\n", gpu_info ()(1).name);
  printf ("%-7s %6s %10s %10s %10s %10s %8s %8s\n", "class", "n", "min.+ D", "min.+ D+P",
          "max.+ D", "max.+ D+P", "D ratio", "D+P");
  r = struct ("class", {}, "n", {}, "ms", {});
  for cls = fieldnames (o.sizes)'
    for n = o.sizes.(cls{1})
      W = rand (n, cls{1}) * 1000;
      W(rand (n) > 0.5) = Inf;
      L = -W;   # the same graph for max.+: no edge -Inf
      G = {gpu_array(W), gpu_array(L)};
      semirings = {"min.+", "max.+"};
      t = zeros (2, 2, o.reps);
      for rep = 1:o.reps
        for s = 1:2
          for p = 1:2
            t(s, p, rep) = timed (G{s}, semirings{s}, p == 2);
          endfor
        endfor
      endfor
      ms = 1e3 * median (t, 3);
      printf ("%-7s %6d %10.1f %10.1f %10.1f %10.1f %8.3f %8.3f\n", cls{1}, n, ms(1, 1), ...
              ms(1, 2), ms(2, 1), ms(2, 2), ms(2, 1) / ms(1, 1), ms(2, 2) / ms(1, 2));
      r(end+1) = struct ("class", cls{1}, "n", n, "ms", ms);
    endfor
  endfor
endfunction

function t = timed (G, sr, paths)
  __cudakernels__ ("sync");
  t0 = tic ();
  if (paths)
    [D, P] = gpu_apsp (G, "semiring", sr);
  else
    D = gpu_apsp (G, "semiring", sr);
  endif
  __cudakernels__ ("sync");
  t = toc (t0);
endfunction
