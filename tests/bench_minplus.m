## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{results} =} bench_minplus ()
## @deftypefnx {} {@var{results} =} bench_minplus (@var{name}, @var{value}, @dots{})
## Benchmark every min-plus kernel version against this GPU's compute ceiling.
##
## For each class, kernel and size @var{n} it measures the device time of one
## @var{n}-by-@var{n}-by-@var{n} product (CUDA events around the whole product,
## padding pre-pass included, after a warm-up; the median of several runs), the
## rate in Tpair/s (@var{n}^3 pair updates per second), its share of the
## register-only ceiling measured in the same run, and the end-to-end time of
## @code{gpu_minplus} from Octave with host arrays (transfers included).
##
## Options: @qcode{"sizes"} (default @code{[1024 4096 8192]}), @qcode{"classes"}
## (default @code{@{"single", "double"@}}), @qcode{"kernels"} (default: every GPU
## kernel), @qcode{"budget"} (seconds of timed runs per measurement, default 2),
## @qcode{"csv"} (a file to write the rows to).  Prints a table as it goes and
## returns a struct array, one element per row.
## @end deftypefn

function results = bench_minplus (varargin)
  opt = struct ("sizes", [1024 4096 8192], "classes", {{"single", "double"}}, ...
                "kernels", {setdiff(gpu_kernels("minplus"), {"cpu"}, "stable")}, ...
                "budget", 2, "csv", "");
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  endfor
  info = gpu_info ();
  printf ("# min-plus benchmark on %s (%d SMs, CUDA driver %s, runtime %s)\n", info.name, ...
          info.multiprocessors, info.driver_version, info.runtime_version);
  ceiling = struct ();
  for c = 1:numel (opt.classes)
    cls = opt.classes{c};
    ceiling.(cls) = __cudakernels__ ("minplus_ceiling", cls);
    printf ("# register-only ceiling, %s: %.2f Tpair/s\n", cls, ceiling.(cls) / 1e12);
  endfor
  printf ("%-7s %-10s %6s %11s %9s %8s %11s %8s\n", "class", "kernel", "n", "kernel ms", ...
          "Tpair/s", "%ceil", "end2end ms", "e2e/krn");
  results = struct ([]);
  for c = 1:numel (opt.classes)
    cls = opt.classes{c};
    for k = 1:numel (opt.kernels)
      for n = opt.sizes
        r = measure (cls, opt.kernels{k}, n, opt.budget);
        r.ceiling_tpairs = ceiling.(cls) / 1e12;
        r.fraction_of_ceiling = r.tpairs / r.ceiling_tpairs;
        printf ("%-7s %-10s %6d %11.3f %9.3f %7.1f%% %11.1f %8.2f\n", cls, r.kernel, n, ...
                r.kernel_ms, r.tpairs, 100 * r.fraction_of_ceiling, r.end_to_end_ms, ...
                r.end_to_end_ms / r.kernel_ms);
        fflush (stdout);
        results = [results, r];
      endfor
    endfor
  endfor
  if (! isempty (opt.csv))
    write_csv (opt.csv, results);
  endif
endfunction

function r = measure (cls, kernel, n, budget)
  first = __cudakernels__ ("minplus_time", cls, kernel, n, n, n, 1, 1);   # after one warm-up
  reps = min (max (floor (budget * 1e3 / first), 3), 25);
  t = __cudakernels__ ("minplus_time", cls, kernel, n, n, n, 0, reps);
  r.class = cls;
  r.kernel = kernel;
  r.n = n;
  r.reps = reps;
  r.kernel_ms = median (t);
  r.kernel_spread = (max (t) - min (t)) / r.kernel_ms;
  r.tpairs = n^3 / (r.kernel_ms * 1e-3) / 1e12;
  A = cast (randi (1000, n) - 1, cls);
  B = cast (randi (1000, n) - 1, cls);
  gpu_minplus (A, B, "kernel", kernel);   # warm-up
  e2e_reps = min (max (floor (budget * 1e3 / (2 * r.kernel_ms)), 1), 5);
  e = zeros (1, e2e_reps);
  for i = 1:e2e_reps
    t0 = tic ();
    C = gpu_minplus (A, B, "kernel", kernel);
    e(i) = toc (t0) * 1e3;
  endfor
  r.end_to_end_ms = median (e);
endfunction

function write_csv (file, results)
  fid = fopen (file, "w");
  fprintf (fid, "class,kernel,n,reps,kernel_ms,spread,tpairs,ceiling_tpairs,fraction,end_to_end_ms\n");
  for r = results
    fprintf (fid, "%s,%s,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f\n", r.class, r.kernel, r.n, r.reps, ...
             r.kernel_ms, r.kernel_spread, r.tpairs, r.ceiling_tpairs, r.fraction_of_ceiling, ...
             r.end_to_end_ms);
  endfor
  fclose (fid);
endfunction
