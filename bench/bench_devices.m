## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} bench_devices ()
## @deftypefnx {} {} bench_devices (@var{name}, @var{value}, @dots{})
## One GPU against several in the same run (doc/multigpu.md, issue 19): the
## wall time of whole calls (the call and a device sync, median of
## @qcode{"reps"}) of @code{gpu_minplus} and @code{gpu_matmul} with
## @qcode{"devices"} 1 and with @qcode{"devices"} @var{spread} (default every
## visible GPU; on a one-GPU machine @code{[1 1]}, two workers on one GPU,
## which measures what the spread costs, not what it gains):
##
## @enumerate
## @item The same run's anchor: gpu_minplus's kernel rate at n = 8192 in
## each class, on device 1.
## @item Square products of size @qcode{"sizes"} (default 16384 and 32768)
## in each class, on gpu_arrays living on device 1 (the result lives there
## too) and on host arrays: times, rates, and the speed-up.
## @item matmul single (cuBLAS) at @qcode{"matmul"} (default 16384), alike.
## @item The default's threshold: host-array single products of
## @qcode{"sweep"} sizes, one device against the spread.
## @item gpu_apsp single at @qcode{"apsp"} (default 16384 and 32768) on a
## gpu_array on device 1, without and with @var{P}.
## @item gpu_apsp on pages: each row of @qcode{"pages"} (default
## @code{[64 4096; 256 256; 512 64]}, vertices and pages) in each class, on
## gpu_arrays on device 1 and on host arrays, without and with @var{P}.
## @end enumerate
##
## Operands are integers 0..999 of the class; every spread result is checked
## against the one-device result (exactly for min-plus and paths).  Options:
## @qcode{"classes"} (default @code{@{"single", "int16"@}}), @qcode{"sizes"},
## @qcode{"matmul"}, @qcode{"sweep"}, @qcode{"apsp"}, @qcode{"pages"}, @qcode{"reps"} (default 3),
## @qcode{"spread"}, @qcode{"csv"}.
## @end deftypefn

function bench_devices (varargin)
  o = struct ("classes", {{"single", "int16"}}, "sizes", [16384 32768], "matmul", 16384, ...
              "sweep", [1024 2048 4096 8192], "apsp", [16384 32768],
              "pages", [64 4096; 256 256; 512 64], "reps", 3, "spread", [], "csv", "");
  for i = 1:2:numel (varargin)
    o.(varargin{i}) = varargin{i+1};
  endfor
  if (isempty (o.spread))
    o.spread = 1:gpu_device_count ();
    if (numel (o.spread) == 1)
      o.spread = [1 1];
    endif
  endif
  info = gpu_info ();
  printf ("# %d GPU(s): %s\n", numel (info), strjoin ({info.name}, ", "));
  printf ("# spread over devices [%s]%s\n", num2str (o.spread),
          merge (numel (unique (o.spread)) < numel (o.spread),
                 " (workers sharing a GPU: the cost of the spread, not its gain)", ""));
  narrow = __cudakernels__ ("settings", "minplus_narrow", "off");   # every class its own rate
  restore = onCleanup (@() __cudakernels__ ("settings", narrow));
  for c = o.classes
    t = median (__cudakernels__ ("time", "product", "min.+", c{1}, "warptile", [8192 8192 8192], 1, 5));
    printf ("# anchor: gpu_minplus %s n = 8192 kernel on device 1: %.2f Tpair/s\n", c{1},
            8192^3 / (t * 1e-3) / 1e12);
  endfor
  printf ("\n%-8s %-7s %-7s %6s %11s %11s %9s %9s %8s\n", "op", "class", "input", "n",
          "1 GPU ms", "spread ms", "1 GPU T/s", "spread T/s", "speed-up");
  rows = {};
  for c = o.classes
    for n = o.sizes
      rows = [rows; measure(@gpu_minplus, "minplus", c{1}, n, o)];
    endfor
  endfor
  for n = o.matmul
    rows = [rows; measure(@gpu_matmul, "matmul", "single", n, o)];
  endfor
  printf ("\n# the default's threshold: host-array single min-plus\n");
  for n = o.sweep
    rows = [rows; measure(@gpu_minplus, "minplus", "single", n, o, {"host"})];
  endfor
  printf ("\n# gpu_apsp single on a gpu_array (op apsp: D alone; apsp+P: D and P)\n");
  for n = o.apsp
    rows = [rows; measure_apsp(n, o)];
  endfor
  if (! isempty (o.pages))
    printf ("\n# gpu_apsp on pages (n: vertices x pages; op pages: D alone, pages+P: D and P)\n");
  endif
  for c = o.classes
    for r = 1:size (o.pages, 1)
      rows = [rows; measure_pages(o.pages(r, 1), o.pages(r, 2), c{1}, o)];
    endfor
  endfor
  if (! isempty (o.csv))
    fid = fopen (o.csv, "w");
    fprintf (fid, "op,class,input,n,devices,ms_one,ms_spread,speedup\n");
    for r = 1:size (rows, 1)
      fprintf (fid, "%s,%s,%s,%s,%s,%.4f,%.4f,%.4f\n", rows{r, 1:3}, size_name (rows{r, 4}),
               num2str (o.spread), rows{r, 5:7});
    endfor
    fclose (fid);
  endif
endfunction

function rows = measure (op, name, cls, n, o, inputs)
  if (nargin < 6)
    inputs = {"device", "host"};
  endif
  rows = {};
  A = operand (n, cls);
  B = operand (n, cls);
  work = n^3 * merge (strcmp (name, "matmul"), 2, 1);
  for in = inputs
    if (strcmp (in{1}, "device"))
      X = gpu_array (A, "device", 1);
      Y = gpu_array (B, "device", 1);
    else
      X = A; Y = B;
    endif
    [t1, R] = timed (@(d) op (X, Y, "devices", d), 1, o.reps);
    [ts, S] = timed (@(d) op (X, Y, "devices", d), o.spread, o.reps);
    if (strcmp (name, "minplus"))
      assert (isequal (S, R), "%s %s n = %d: the spread result differs", name, cls, n);
    else
      assert (S, R, 1e-4 * max (abs (R(:))));
    endif
    clear X Y R S
    rows(end+1, :) = report (name, cls, in{1}, n, work, t1, ts);
  endfor
endfunction

function row = report (name, cls, input, n, work, t1, ts)
  printf ("%-8s %-7s %-7s %6s %11.2f %11.2f %9.2f %9.2f %7.2fx\n", name, cls, input,
          size_name (n), 1e3 * t1, 1e3 * ts, work / t1 / 1e12, work / ts / 1e12, t1 / ts);
  row = {name, cls, input, n, 1e3 * t1, 1e3 * ts, t1 / ts};
endfunction

## n, or vertices x pages
function s = size_name (n)
  s = strjoin (arrayfun (@num2str, n, "UniformOutput", false), "x");
endfunction

## gpu_apsp on a gpu_array of random weights 0..999 on device 1: D and P must
## be one device's bit for bit.
function rows = measure_apsp (n, o)
  rows = {};
  W = gpu_array (operand (n, "single"), "device", 1);
  for paths = [false true]
    [t1, R] = timed (@(d) apsp_call (W, d, paths), 1, o.reps);
    [ts, S] = timed (@(d) apsp_call (W, d, paths), o.spread, o.reps);
    assert (isequal (S, R), "gpu_apsp n = %d: the spread result differs", n);
    clear R S
    rows(end+1, :) = report (merge (paths, "apsp+P", "apsp"), "single", "device", n, n^3, t1, ts);
  endfor
endfunction

## gpu_apsp on p pages of n vertices, weights 0..999 of the class, on a
## gpu_array on device 1 and from host arrays: D and P must be one device's
## bit for bit.
function rows = measure_pages (n, p, cls, o)
  rows = {};
  W = floor (rand (n, n, p, "single") * 1000);
  if (! strcmp (cls, "single"))
    W = cast (W, cls);
  endif
  for in = {"device", "host"}
    if (strcmp (in{1}, "device"))
      X = gpu_array (W, "device", 1);
    else
      X = W;
    endif
    for paths = [false true]
      [t1, R] = timed (@(d) apsp_call (X, d, paths), 1, o.reps);
      [ts, S] = timed (@(d) apsp_call (X, d, paths), o.spread, o.reps);
      assert (isequal (S, R), "gpu_apsp %d x %d %s: the spread result differs", n, p, cls);
      clear R S
      rows(end+1, :) = report (merge (paths, "pages+P", "pages"), cls, in{1}, [n p], p * n^3,
                               t1, ts);
    endfor
    clear X
  endfor
endfunction

function r = apsp_call (W, devices, paths)
  if (paths)
    [D, P] = gpu_apsp (W, "devices", devices);
    r = {D, P};
  else
    r = {gpu_apsp(W, "devices", devices)};
  endif
endfunction

## Integers 0..999 of the class, made without a double copy of the matrix.
function X = operand (n, cls)
  X = floor (rand (n, n, "single") * 1000);
  if (! strcmp (cls, "single"))
    X = cast (X, cls);
  endif
endfunction

## Median wall time of whole calls f (devices) (the result ready on its
## device), and the last result gathered (a cell of them: each).
function [t, C] = timed (f, devices, reps)
  C = f (devices);   # warm-up: contexts, handles, pools
  clear C
  times = zeros (1, reps);
  for r = 1:reps
    __cudakernels__ ("sync");
    t0 = tic ();
    C = f (devices);
    __cudakernels__ ("sync");
    times(r) = toc (t0);
    if (r < reps)
      clear C
    endif
  endfor
  t = median (times);
  if (iscell (C))
    C = cellfun (@host, C, "UniformOutput", false);
  else
    C = host (C);
  endif
endfunction

function X = host (X)
  if (isa (X, "gpu_array"))
    X = gather (X);
  endif
endfunction
