## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{results} =} bench_minplus ()
## @deftypefnx {} {@var{results} =} bench_minplus (@var{name}, @var{value}, @dots{})
## Benchmark the min-plus kernel versions against this GPU's compute ceiling.
##
## For each class, kernel and shape @var{m}-by-@var{k}-by-@var{n} it measures
## the device time of one product (CUDA events around the whole product, the
## padding or packing passes included, after a warm-up; the median of several
## runs), the rate in Tpair/s (@var{m}@var{k}@var{n} pair updates per second),
## its share of the register-only ceiling for the class (for integer-valued
## single and double data run on an integer path, that path's) measured in the same run
## (for integers: the DPX instruction their fastest path uses), the cost of the
## witness K (the time of @code{[C, K]} over that of C alone), and the
## end-to-end time of @code{gpu_minplus} from Octave with host arrays (transfers
## included) over the kernel time.
##
## Options: @qcode{"sizes"} (square shapes, default @code{[1024 4096 8192]}),
## @qcode{"shapes"} (more rows @code{[m k n]}), @qcode{"classes"} (default
## @code{@{"single", "double"@}}), @qcode{"kernels"} (default: every GPU kernel),
## @qcode{"witness"} (time K too, default true), @qcode{"e2e"} (time from Octave,
## default true), @qcode{"octave"} (a size at which to time the fastest
## pure-Octave formulation, single, against @code{gpu_minplus}; default 0: not
## run), @qcode{"budget"} (seconds of timed runs per measurement, default 2),
## @qcode{"csv"} (a file to write the rows to), @qcode{"data"} (the random
## inputs: @qcode{"ints"}, integers 0..999, the default; @qcode{"fractions"},
## the same plus 0.5; @qcode{"wide"}, integers 0..2^20-1; or a cell of them),
## @qcode{"narrow"} (@qcode{"auto"}, the default, or @qcode{"off"}: whether
## integer-valued single and double data may run on the integer paths, see
## @code{gpu_minplus}).  Each row says the data and the path that ran (the class
## the product was computed in).  Prints a table as it goes and returns a struct
## array, one element per row.
## @end deftypefn

function results = bench_minplus (varargin)
  opt = struct ("sizes", [1024 4096 8192], "shapes", zeros (0, 3), ...
                "classes", {{"single", "double"}}, ...
                "kernels", {setdiff(gpu_kernels("minplus"), {"cpu"}, "stable")}, ...
                "witness", true, "e2e", true, "octave", 0, "budget", 2, "csv", "",
                "data", "ints", "narrow", "auto");
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  endfor
  shapes = [repmat(opt.sizes(:), 1, 3); opt.shapes];
  data = cellstr (opt.data);
  old_mode = __cudakernels__ ("settings", "minplus_narrow", opt.narrow);
  unwind_protect
    results = run_all (opt, shapes, data);
  unwind_protect_cleanup
    __cudakernels__ ("settings", old_mode);
  end_unwind_protect
  if (! isempty (opt.csv))
    write_csv (opt.csv, results);
  endif
  if (opt.octave > 0)
    versus_octave (opt.octave);
  endif
endfunction

function results = run_all (opt, shapes, data)
  info = gpu_info ();
  info = info([info.selected]);   # the GPU that one-device work runs on
  printf ("# min-plus benchmark on %s (%d SMs, CUDA driver %s, runtime %s)\n", info.name, ...
          info.multiprocessors, info.driver_version, info.runtime_version);
  ceiling = struct ();
  for c = 1:numel (opt.classes)
    cls = opt.classes{c};
    ceiling.(cls) = __cudakernels__ ("minplus_ceiling", cls);
    printf ("# register-only ceiling, %s: %.2f Tpair/s\n", cls, ceiling.(cls) / 1e12);
  endfor
  printf ("%-7s %-10s %-9s %-6s %17s %11s %9s %7s %7s %11s %8s\n", "class", "kernel", "data", ...
          "path", "m x k x n", "kernel ms", "Tpair/s", "%ceil", "K cost", "end2end ms", "e2e/krn");
  results = struct ([]);
  for c = 1:numel (opt.classes)
    cls = opt.classes{c};
    for k = 1:numel (opt.kernels)
      for s = 1:rows (shapes)
        for d = 1:numel (data)
          r = measure (cls, opt.kernels{k}, shapes(s, :), data{d}, opt);
          if (! isfield (ceiling, r.path))   # narrowed: the ceiling of the path that ran
            ceiling.(r.path) = __cudakernels__ ("minplus_ceiling", r.path);
          endif
          r.ceiling_tpairs = ceiling.(r.path) / 1e12;
          r.fraction_of_ceiling = r.tpairs / r.ceiling_tpairs;
          printf ("%-7s %-10s %-9s %-6s %17s %11.3f %9.3f %6.1f%% %7.2f %11.1f %8.2f\n", cls, ...
                  r.kernel, r.data, r.path, sprintf ("%dx%dx%d", r.m, r.k, r.n), r.kernel_ms, ...
                  r.tpairs, 100 * r.fraction_of_ceiling, r.witness_cost, r.end_to_end_ms, ...
                  r.end_to_end_ms / r.kernel_ms);
          fflush (stdout);
          results = [results, r];
        endfor
      endfor
    endfor
  endfor
endfunction

function t = kernel_times (cls, kernel, mkn, budget, varargin)
  first = __cudakernels__ ("time", "product", "min.+", cls, kernel, [mkn(1) mkn(2) mkn(3)], 1, 1, varargin{:});
  reps = min (max (floor (budget * 1e3 / first), 3), 25);
  t = __cudakernels__ ("time", "product", "min.+", cls, kernel, [mkn(1) mkn(2) mkn(3)], 0, reps, varargin{:});
endfunction

function r = measure (cls, kernel, mkn, data, opt)
  flags = {};
  if (! strcmp (data, "ints"))
    flags = {data};
  endif
  t = kernel_times (cls, kernel, mkn, opt.budget, flags{:});
  r.class = cls;
  r.kernel = kernel;
  r.data = data;
  r.path = __cudakernels__ ("last_plan").work;
  r.m = mkn(1); r.k = mkn(2); r.n = mkn(3);
  r.reps = numel (t);
  r.kernel_ms = median (t);
  r.kernel_spread = (max (t) - min (t)) / r.kernel_ms;
  r.tpairs = prod (mkn) / (r.kernel_ms * 1e-3) / 1e12;
  r.witness_cost = NaN;
  if (opt.witness)
    r.witness_cost = median (kernel_times (cls, kernel, mkn, opt.budget, "witness", flags{:})) / r.kernel_ms;
  endif
  r.end_to_end_ms = NaN;
  if (opt.e2e)
    top = ifelse_wide (data);
    A = cast (randi (top, mkn(1), mkn(2)) - 1 + 0.5 * strcmp (data, "fractions"), cls);
    B = cast (randi (top, mkn(2), mkn(3)) - 1 + 0.5 * strcmp (data, "fractions"), cls);
    gpu_minplus (A, B, "kernel", kernel);   # warm-up
    e = zeros (1, min (max (floor (opt.budget * 1e3 / (2 * r.kernel_ms)), 1), 5));
    for i = 1:numel (e)
      t0 = tic ();
      C = gpu_minplus (A, B, "kernel", kernel);
      e(i) = toc (t0) * 1e3;
    endfor
    r.end_to_end_ms = median (e);
  endif
endfunction

## The largest value of the data kind, plus one, as minplus_time draws it.
function top = ifelse_wide (data)
  top = 1000;
  if (strcmp (data, "wide"))
    top = 2^20;
  endif
endfunction

## The fastest pure-Octave formulation we know: one rank-1 min-plus update per k
## (the 3-D broadcast A + permute (B, [3 1 2]) needs n^3 elements of memory).
function versus_octave (n)
  A = single (randi (1000, n) - 1); B = single (randi (1000, n) - 1);
  t0 = tic ();
  R = Inf (n, "single");
  for p = 1:n
    R = min (R, A(:, p) + B(p, :));
  endfor
  t_oct = toc (t0);
  gpu_minplus (A, B);
  e = zeros (1, 3);
  for i = 1:3
    t0 = tic (); C = gpu_minplus (A, B); e(i) = toc (t0);
  endfor
  printf ("# pure Octave (rank-1 updates), single n = %d: %.2f s; gpu_minplus end to end: %.2f ms; %.0fx; equal: %d\n", ...
          n, t_oct, 1e3 * median (e), t_oct / median (e), isequal (C, R));
endfunction

function write_csv (file, results)
  fid = fopen (file, "w");
  fprintf (fid, "class,kernel,data,path,m,k,n,reps,kernel_ms,spread,tpairs,ceiling_tpairs,fraction,witness_cost,end_to_end_ms\n");
  for r = results
    fprintf (fid, "%s,%s,%s,%s,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%.2f\n", r.class, r.kernel, r.data, r.path, ...
             r.m, r.k, r.n, r.reps, r.kernel_ms, r.kernel_spread, r.tpairs, r.ceiling_tpairs, ...
             r.fraction_of_ceiling, r.witness_cost, r.end_to_end_ms);
  endfor
  fclose (fid);
endfunction
