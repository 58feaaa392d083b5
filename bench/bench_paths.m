## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{r} =} bench_paths ()
## @deftypefnx {} {@var{r} =} bench_paths (@var{name}, @var{value}, @dots{})
## gpu_apsp on every path problem against the rate of its own semiring's
## product.  For each semiring and class: whole calls from Octave on gpu_arrays
## (a sync before and after each, tic and toc; the survey and conversions
## included), D alone and with P, the median of the repetitions, as n^3 pair
## updates a second; beside it the product of the same semiring and class at
## 8192 timed between CUDA events in the same run (gpu_mxm's plan, "time").
##
## The graphs: half the edges missing, weights random fractions in [0, 1000)
## for single and double (so they run in their own class, or on int32 ranks)
## and integers 0..999 for the integer classes and for the "few" rows of max.min
## and min.max in single and double (16-bit keys); for max.+ the weights negated
## (no positive cycle), for max.* mapped into (0, 1).  The product beside each
## row runs on data of the same kind.
##
## Options: @qcode{"sizes"} (default 16384), @qcode{"semirings"} (default all
## five), @qcode{"classes"} (default single, double, int32, int16),
## @qcode{"reps"} (default 3), @qcode{"product_n"} (default 8192),
## @qcode{"cpu_n"} (default 2048: the "cpu" kernel once on a graph of that size,
## for scale; 0: not run).  Prints a row per semiring, class and size and
## returns a struct array of them.
## @end deftypefn

function r = bench_paths (varargin)
  o = struct ("sizes", 16384, "semirings", {{"min.+", "max.+", "max.min", "min.max", "max.*"}},
              "classes", {{"single", "double", "int32", "int16"}}, "reps", 3, "product_n", 8192,
              "cpu_n", 2048);
  for i = 1:2:numel (varargin)
    o.(varargin{i}) = varargin{i+1};
  endfor
  printf ("gpu_apsp's path problems on %s: whole calls on gpu_arrays (n^3 pairs / s)\n",
          gpu_info ()(1).name);
  printf ("%-8s %-7s %-4s %6s %6s %10s %10s %8s %9s %8s %8s %9s\n", "semiring", "class",
          "data", "n", "work", "D ms", "D+P ms", "D Tpair", "product", "share", "P cost",
          "cpu Gpair");
  r = struct ("semiring", {}, "class", {}, "data", {}, "n", {}, "ms", {}, "product", {},
              "cpu", {});
  for sr = o.semirings
    for cls = o.classes
      if (! takes (sr{1}, cls{1}))
        continue;
      endif
      for data = kinds (sr{1}, cls{1})
        r = [r, measure(sr{1}, cls{1}, data{1}, o)];
      endfor
    endfor
  endfor
endfunction

## The kinds of weights a row is timed on: "many" distinct values (fractions for single and
## double), and for the comparing semirings in single and double also "few" (integers
## 0..999), which they run on 16-bit keys.
function k = kinds (sr, cls)
  k = {"many"};
  if (any (strcmp (sr, {"max.min", "min.max"})) && any (strcmp (cls, {"single", "double"})))
    k{end+1} = "few";
  endif
endfunction

## One semiring, class and kind of data at each size: its rows.
function r = measure (sr, cls, data, o)
  r = struct ("semiring", {}, "class", {}, "data", {}, "n", {}, "ms", {}, "product", {},
              "cpu", {});
  rate = product_rate (sr, cls, data, o.product_n);
  cpu = cpu_rate (sr, cls, data, o.cpu_n);
  for n = o.sizes
    G = gpu_array (graph (n, cls, sr, data));
    t = zeros (2, o.reps);
    timed (G, sr, false);   # warm-up
    for rep = 1:o.reps
      for p = 1:2
        t(p, rep) = timed (G, sr, p == 2);
      endfor
    endfor
    plan = __cudakernels__ ("last_plan");
    clear G;
    ms = 1e3 * median (t, 2);
    tpair = n ^ 3 / (ms(1) * 1e-3) / 1e12;
    printf ("%-8s %-7s %-4s %6d %6s %10.1f %10.1f %8.2f %9.2f %7.1f%% %8.2f %9.2f\n",
            sr, cls, data, n, plan.work, ms(1), ms(2), tpair, rate,
            100 * tpair / rate, ms(2) / ms(1), cpu);
    r(end+1) = struct ("semiring", sr, "class", cls, "data", data, "n", n, "ms", ms,
                       "product", rate, "cpu", cpu);
  endfor
endfunction

## The path problems' classes (gpu_apsp's rules): max.* floating point, max.+ signed.
function yes = takes (sr, cls)
  yes = (! (strcmp (sr, "max.*") && ! any (strcmp (cls, {"single", "double"})))
         && ! (strcmp (sr, "max.+") && cls(1) == "u"));
endfunction

## The semiring's product of the class at n, between CUDA events, in Tpair/s.
## On data of the same kind: integers 0..999 ("few"), fractions, or for the comparing
## semirings in double integers of 0..2^20 - 1 (many distinct values: int32 ranks).
function rate = product_rate (sr, cls, data, n)
  flags = {};
  if (strcmp (data, "many") && any (strcmp (cls, {"single", "double"})))
    flags = {"fractions"};
    if (any (strcmp (sr, {"max.min", "min.max"})) && strcmp (cls, "double"))
      flags = {"wide"};
    endif
  endif
  __cudakernels__ ("time", "product", sr, cls, "warptile", [n n n], 1, 1, flags{:});
  t = __cudakernels__ ("time", "product", sr, cls, "warptile", [n n n], 0, 3, flags{:});
  rate = n ^ 3 / (median (t) * 1e-3) / 1e12;
endfunction

## The "cpu" kernel's D and P on a graph of n vertices, once, in Gpair/s (NaN: not run).
function rate = cpu_rate (sr, cls, data, n)
  rate = NaN;
  if (n > 0)
    W = graph (n, cls, sr, data);
    t0 = tic ();
    [D, P] = gpu_apsp (W, "semiring", sr, "kernel", "cpu");
    rate = n ^ 3 / toc (t0) / 1e9;
  endif
endfunction

function W = graph (n, cls, sr, data)
  if (strcmp (data, "many") && any (strcmp (cls, {"single", "double"})))
    W = rand (n, cls) * 1000;
  else
    W = randi ([0 999], n);
  endif
  none = rand (n) > 0.5;
  switch (sr)
    case "max.+"
      W = -W; W(none) = -Inf;
    case "max.*"
      W = (W + 1) / 1001; W(none) = 0;   # (0, 1): no cycle multiplies above 1
    case "max.min"
      W(none) = -Inf;
    otherwise
      W(none) = Inf;
  endswitch
  W = cast (W, cls);   # integers: +-Inf saturate to intmax and intmin, "no edge"
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
