## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{results} =} bench_mxm ()
## @deftypefnx {} {@var{results} =} bench_mxm (@var{name}, @var{value}, @dots{})
## Benchmark @code{gpu_mxm}'s semirings against this GPU's ceilings, measured
## in the same run.
##
## For each semiring and class it measures the device time of one n-by-n-by-n
## product of the default kernel (CUDA events around the whole product, packing
## and padding included, after a warm-up; the median of several runs), its rate
## in Tpair/s (n^3 pair updates per second), its share of the register-only
## ceiling of the semiring and class (@code{__cudakernels__ ("minplus_ceiling",
## class, semiring)}), the cost of the witness K (the time of @code{[C, K]}
## over that of C alone), the class and the words the arithmetic ran on (the
## plan's @code{work} and @code{words}), and the rate of min.+ of the same
## class in the same run (in the class's own arithmetic: integer-valued single and
## double data are not narrowed to the integer paths here).  max.min and min.max in
## double have a second row, kernel @qcode{"ranks"}: the product as it runs by
## default, on its values' ranks in an integer class where the plan ranks, the
## ranking included.
## Paged rows time 64^3 x 4096 and 256^3 x 256 pages and give their share of
## the semiring's n = 8192 rate.  or.and runs at its own size (default 32768)
## on the tensor-core and LOP3 paths, beside both ceilings, and the whole call
## from Octave on logical gpu_arrays.
##
## Options: @qcode{"semirings"} (default every one), @qcode{"classes"} (default
## @code{@{"single", "double", "int32", "int16", "uint8"@}}; each semiring takes
## those it can), @qcode{"n"} (default 8192), @qcode{"orand_n"} (default
## 32768), @qcode{"witness"} (default true), @qcode{"pages"} (default true),
## @qcode{"budget"} (seconds of timed runs per measurement, default 2),
## @qcode{"csv"} (a file for the rows).  Prints a table as it goes and returns
## a struct array, one element per row.
## @end deftypefn

function results = bench_mxm (varargin)
  opt = struct ("semirings", {{"min.+", "max.+", "max.min", "min.max", "max.*", "or.and"}}, ...
                "classes", {{"single", "double", "int32", "int16", "uint8"}}, "n", 8192, ...
                "orand_n", 32768, "witness", true, "pages", true, "budget", 2, "csv", "");
  for i = 1:2:numel (varargin)
    opt.(varargin{i}) = varargin{i+1};
  endfor
  ## min.+ beside the others in its class's own arithmetic: integer-valued single and double
  ## would otherwise run it on the integer paths (gpu_minplus), which the others do not have
  old_mode = __cudakernels__ ("settings", "minplus_narrow", "off");
  cleanup = onCleanup (@() __cudakernels__ ("settings", old_mode));
  info = gpu_info ();
  info = info([info.selected]);
  printf ("# gpu_mxm benchmark on %s (%d SMs, CUDA driver %s, runtime %s)\n", info.name, ...
          info.multiprocessors, info.driver_version, info.runtime_version);
  printf ("%-8s %-7s %-13s %-8s %19s %10s %9s %9s %7s %7s %9s\n", "semiring", "class", ...
          "work/words", "kernel", "m x k x n [x p]", "ms", "Tpair/s", "ceiling", "%ceil", ...
          "K cost", "/min.+");
  results = struct ([]);
  minplus = struct ();
  for s = 1:numel (opt.semirings)
    sr = opt.semirings{s};
    if (strcmp (sr, "or.and"))
      results = [results, orand_rows(opt)];
      continue;
    endif
    for c = 1:numel (opt.classes)
      cls = opt.classes{c};
      if (strcmp (sr, "max.*") && ! any (strcmp (cls, {"single", "double"})))
        continue;
      endif
      if (! isfield (minplus, cls))
        minplus.(cls) = median (times ("min.+", cls, "warptile", opt.n([1 1 1]), opt.budget));
      endif
      ceiling = __cudakernels__ ("minplus_ceiling", cls, sr) / 1e12;
      r = measure (sr, cls, "warptile", opt.n([1 1 1]), ceiling, opt);
      r.of_minplus = minplus.(cls) / r.ms;
      results = [results, show(r)];
      if (any (strcmp (sr, {"max.min", "min.max"})) && strcmp (cls, "double"))
        for data = {{}, {"wide"}}
          results = [results, show(ranked (sr, cls, ceiling, minplus.(cls), opt, data{1}{:}))];
        endfor
      endif
      if (opt.pages)
        for shape = [64 64 64 4096; 256 256 256 256]'
          p = measure (sr, cls, "warptile", shape', ceiling, setfield (opt, "witness", false));
          p.of_minplus = p.tpairs / r.tpairs;   # paged rows: share of the semiring's 2-D rate
          results = [results, show(p)];
        endfor
      endif
    endfor
  endfor
  if (! isempty (opt.csv))
    write_csv (opt.csv, results);
  endif
endfunction

function t = times (sr, cls, kernel, size, budget, varargin)
  first = __cudakernels__ ("time", "product", sr, cls, kernel, size, 1, 1, varargin{:});
  reps = min (max (floor (budget * 1e3 / first), 3), 25);
  t = __cudakernels__ ("time", "product", sr, cls, kernel, size, 0, reps, varargin{:});
endfunction

function r = measure (sr, cls, kernel, size, ceiling, opt, varargin)
  t = times (sr, cls, kernel, size, opt.budget, varargin{:});
  plan = __cudakernels__ ("last_plan");
  r = struct ("semiring", sr, "class", cls, "words", [plan.work "/" plan.words], "kernel", kernel, ...
              "size", sprintf ("%dx", size)(1:end-1), "ms", median (t), "reps", numel (t), ...
              "tpairs", prod (size) / (median (t) * 1e-3) / 1e12, "ceiling", ceiling, ...
              "witness_cost", NaN, "of_minplus", NaN, "e2e_ms", NaN);
  if (opt.witness)
    r.witness_cost = median (times (sr, cls, kernel, size, opt.budget, "witness", varargin{:})) ...
                     / r.ms;
  endif
endfunction

## max.min and min.max in double as gpu_mxm runs them by default at this size: on their
## values' ranks where the plan ranks (kernel "ranks"; work/words: the ranks' class), ranking
## included in the time; the share is of the double probe.  The data: 1000 distinct values
## (uint16 ranks), or with "wide" 2^20 (int32 ranks).
function r = ranked (sr, cls, ceiling, minplus_ms, opt, varargin)
  old = __cudakernels__ ("settings", "minplus_narrow", "auto");
  unwind_protect
    r = measure (sr, cls, "warptile", opt.n([1 1 1]), ceiling, opt, varargin{:});
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
  r.kernel = strjoin ([{"ranks"}, varargin], "/");
  r.of_minplus = minplus_ms / r.ms;
endfunction

function r = show (r)
  printf ("%-8s %-7s %-13s %-8s %19s %10.3f %9.3f %9.2f %6.1f%% %7.2f %9.3f\n", r.semiring, ...
          r.class, r.words, r.kernel, r.size, r.ms, r.tpairs, r.ceiling, ...
          100 * r.tpairs / r.ceiling, r.witness_cost, r.of_minplus);
  fflush (stdout);
endfunction

## or.and: both paths at orand_n against both ceilings, then the whole call from
## Octave on logical gpu_arrays (packing and unpacking included).
function rows = orand_rows (opt)
  n = opt.orand_n;
  tensor = __cudakernels__ ("minplus_ceiling", "logical", "or.and", "tensor") / 1e12;
  lop3 = __cudakernels__ ("minplus_ceiling", "logical", "or.and", "lop3") / 1e12;
  printf ("# or.and ceilings: 1-bit tensor cores %.0f Tpair/s, LOP3 %.0f Tpair/s\n", tensor, lop3);
  rows = struct ([]);
  for kernel = {"warptile", "regblock"}
    ceiling = merge (strcmp (kernel{1}, "warptile"), tensor, lop3);
    r = show (measure ("or.and", "logical", kernel{1}, [n n n], ceiling, opt));
    rows = [rows, r];
  endfor
  A = gpu_array (rand (n, n, "single") < 0.5);
  B = gpu_array (rand (n, n, "single") < 0.5);
  C = gpu_mxm (A, B, "or.and");   # warm-up
  __cudakernels__ ("sync");
  e = zeros (1, 3);
  for i = 1:numel (e)
    t0 = tic ();
    C = gpu_mxm (A, B, "or.and");
    __cudakernels__ ("sync");
    e(i) = toc (t0);
  endfor
  r = rows(1);
  r.kernel = "call";
  r.e2e_ms = 1e3 * median (e);
  r.ms = r.e2e_ms;
  r.tpairs = n^3 / median (e) / 1e12;
  r.witness_cost = NaN;
  printf ("# or.and whole call on logical gpu_arrays, n = %d: %.2f ms, %.0f Tpair/s\n", n, ...
          r.e2e_ms, r.tpairs);
  rows = [rows, r];
endfunction

function write_csv (file, results)
  fid = fopen (file, "w");
  fprintf (fid, "semiring,class,words,kernel,size,ms,reps,tpairs,ceiling_tpairs,fraction,witness_cost,of_minplus\n");
  for r = results
    fprintf (fid, "%s,%s,%s,%s,%s,%.4f,%d,%.4f,%.4f,%.4f,%.3f,%.4f\n", r.semiring, r.class, ...
             r.words, r.kernel, r.size, r.ms, r.reps, r.tpairs, r.ceiling, r.tpairs / r.ceiling, ...
             r.witness_cost, r.of_minplus);
  endfor
  fclose (fid);
endfunction
