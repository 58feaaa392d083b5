## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} bench_pages ()
## @deftypefnx {} {} bench_pages (@var{name}, @var{value}, @dots{})
## Paged products and small calls (doc/minplus.md, issue 18), every figure a
## kernel-side time with CUDA events on random device operands (integers
## 0..999):
##
## @enumerate
## @item The same run's anchors: gpu_minplus at n = 8192 in each class.
## @item Paged min-plus, each batch in one launch per call
## (@qcode{"batched"}) and page by page (@qcode{"loop"}): rate in pair
## updates per second and its share of the class's n = 8192 rate.
## @item Paged matmul single: the paged warptile kernel against cuBLAS's
## strided batched product (@code{cublasSgemmStridedBatched}).
## @item Small 2-D calls: microseconds per call with events around one call,
## and around 100 calls back to back, beside cuBLAS at the same shapes.
## @end enumerate
##
## Options: @qcode{"batches"} (rows m k n p, default 64^3 x 4096 and
## 256^3 x 256), @qcode{"classes"} (default @code{@{"single", "int16"@}}),
## @qcode{"shapes"} (rows m k n of the small calls), @qcode{"csv"} (a file
## for the paged rows).
## @end deftypefn

function bench_pages (varargin)
  o = struct ("batches", [64 64 64 4096; 256 256 256 256], "classes", {{"single", "int16"}}, ...
              "shapes", [64 64 64; 256 256 256; 1024 1024 1024; 256 8192 256], "csv", "");
  for i = 1:2:numel (varargin)
    o.(varargin{i}) = varargin{i+1};
  endfor
  old = __cudakernels__ ("settings", "minplus_narrow", "off");   # every class its own rate
  restore = onCleanup (@() __cudakernels__ ("settings", old));
  anchor = struct ();
  for c = o.classes
    t = median (__cudakernels__ ("time", "product", "min.+", c{1}, "warptile", [8192 8192 8192], 1, 5));
    anchor.(c{1}) = 8192^3 / (t * 1e-3);
    printf ("# anchor: gpu_minplus %s n = 8192: %.3f ms, %.2f Tpair/s\n", c{1}, t, anchor.(c{1}) / 1e12);
  endfor

  printf ("\n%-7s %-9s %5s %5s %5s %6s %10s %9s %8s\n", "class", "mode", "m", "k", "n", "pages", ...
          "ms", "Tpair/s", "%8192");
  rows = {};
  for c = o.classes
    for b = o.batches'
      for mode = {"batched", "loop"}
        __cudakernels__ ("settings", "pages_mode", mode{1});
        t = median (__cudakernels__ ("time", "product", "min.+", c{1}, "warptile", [b(1) b(2) b(3) b(4)], 3, 15));
        rate = prod (b) / (t * 1e-3);
        share = 100 * rate / anchor.(c{1});
        printf ("%-7s %-9s %5d %5d %5d %6d %10.4f %9.2f %7.1f%%\n", c{1}, mode{1}, b, t, rate / 1e12, share);
        rows(end+1, :) = {"minplus", c{1}, mode{1}, b(1), b(2), b(3), b(4), t, rate, share};
      endfor
    endfor
  endfor

  cublas = ! isempty (__cudakernels__ ("cublas"));
  printf ("\n%-22s %5s %5s %5s %6s %10s %9s %9s\n", "matmul single", "m", "k", "n", "pages", "ms", ...
          "TFLOP/s", "/cuBLAS");
  __cudakernels__ ("settings", "pages_mode", "auto");
  for b = o.batches'
    tc = NaN;
    flops = 2 * prod (b);
    if (cublas)
      tc = median (__cudakernels__ ("time", "product", "+.*", "single", "cublas", [b(1) b(2) b(3) b(4)], 3, 15));
      printf ("%-22s %5d %5d %5d %6d %10.4f %9.2f\n", "cublas strided batched", b, tc, flops / (tc * 1e9));
      rows(end+1, :) = {"matmul", "single", "cublas", b(1), b(2), b(3), b(4), tc, flops / (tc * 1e-3), NaN};
    endif
    t = median (__cudakernels__ ("time", "product", "+.*", "single", "warptile", [b(1) b(2) b(3) b(4)], 3, 15));
    printf ("%-22s %5d %5d %5d %6d %10.4f %9.2f %8.1f%%\n", "warptile paged", b, t, flops / (t * 1e9), 100 * tc / t);
    rows(end+1, :) = {"matmul", "single", "warptile", b(1), b(2), b(3), b(4), t, flops / (t * 1e-3), 100 * tc / t};
  endfor

  printf ("\nsmall 2-D calls, us per call: one call between events / 100 calls back to back\n");
  printf ("%-18s %-18s %-18s %-18s %-18s\n", "m x k x n", "min-plus single", "min-plus int16", ...
          "matmul warptile", "cuBLAS sgemm");
  for s = o.shapes'
    cell_of = @(f) sprintf ("%7.1f / %7.1f", 1e3 * median (f (1)), 1e3 * median (f (100)));
    mp = @(cls) cell_of (@(calls) __cudakernels__ ("time", "product", "min.+", cls, "warptile", [s(1) s(2) s(3)], 3, 15, calls));
    mm = @(kernel) cell_of (@(calls) __cudakernels__ ("time", "product", "+.*", "single", kernel, [s(1) s(2) s(3)], 3, 15, calls));
    blas = "-";
    if (cublas)
      blas = mm ("cublas");
    endif
    printf ("%-18s %-18s %-18s %-18s %-18s\n", sprintf ("%d x %d x %d", s), mp ("single"), mp ("int16"), ...
            mm ("warptile"), blas);
  endfor

  if (! isempty (o.csv))
    fid = fopen (o.csv, "w");
    fprintf (fid, "op,class,mode,m,k,n,pages,ms,rate,share_pct\n");
    for r = 1:size (rows, 1)
      fprintf (fid, "%s,%s,%s,%d,%d,%d,%d,%.5f,%.4g,%.2f\n", rows{r, :});
    endfor
    fclose (fid);
  endif
endfunction
