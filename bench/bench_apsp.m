## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{r} =} bench_apsp ()
## @deftypefnx {} {@var{r} =} bench_apsp (@var{name}, @var{value}, @dots{})
## Benchmark of gpu_apsp (blocked Floyd--Warshall) on random complete graphs
## (weights 0..999), timed with events around the whole device call (survey,
## conversions, rounds), median of the repetitions.  Each row gives the time,
## the rate in n^3 pair updates per second, its share of the same run's
## n = 8192 gpu_minplus rate of the class (kernel time, @code{minplus_time}),
## and with @var{P} the ratio to @var{D} alone.  Beside it: all pairs by
## repeated squaring (ceil (log2 (n)) products, kernel time) at the sizes in
## @qcode{"squaring"}, and the CPU reference at @qcode{"cpu"}.
##
## Options: @qcode{"sizes"} (struct: class -> sizes), @qcode{"squaring"},
## @qcode{"cpu"}, @qcode{"reps"} (default 2), @qcode{"csv"} (a file for the
## rows), @qcode{"narrowed"} (sizes at which single and double integer weights
## are also timed in the automatic mode, where they run in an integer work
## type, against the same graph in the class).  The other rows run single and
## double in their class.
##
## @qcode{"batched"} (rows [n p]) times p graphs of n vertices in one call
## (pages), D alone and with P, for the classes in @qcode{"batched_classes"}:
## the rate counts p n^3 pair updates, beside the same n = 8192 gpu_minplus
## rate of the class, and the CPU reference on the same pages (host arrays,
## tic and toc) where p n^3 is at most @qcode{"batched_cpu"}.
## @end deftypefn

function r = bench_apsp (varargin)
  o = struct ("sizes", struct ("single", [1024 2048 4096 8192 16384 32768],
                               "double", [8192 16384], "int32", [8192 16384],
                               "int16", [8192 16384]),
              "squaring", [4096 8192], "cpu", 2048, "reps", 2, "csv", "",
              "narrowed", [8192 16384],
              "batched", [16 65536; 32 16384; 64 4096; 128 512; 256 256],
              "batched_classes", {{"single", "int16"}}, "batched_cpu", 2^31);
  for i = 1:2:numel (varargin)
    o.(varargin{i}) = varargin{i+1};
  endfor
  printf ("gpu_apsp, blocked Floyd-Warshall (%s)\n", gpu_info ()(1).name);
  printf ("%-7s %6s %11s %9s %9s %11s %8s\n", "class", "n", "D ms", "Tpair/s",
          "of 8192", "D+P ms", "P cost");
  r = struct ("class", {}, "n", {}, "d_ms", {}, "dp_ms", {}, "rate", {}, "share", {});
  ## single and double in their own class here: their random weights are integers, which
  ## gpu_apsp would otherwise run in an integer work type (the "narrowed" rows at the end)
  old_mode = __cudakernels__ ("settings", "minplus_narrow", "off");
  unwind_protect
    r = rows_and_squaring (o, r);
    r = batched_rows (o, r);
  unwind_protect_cleanup
    __cudakernels__ ("settings", old_mode);
  end_unwind_protect
  if (o.cpu)
    n = o.cpu;
    W = single (randi ([0 999], n));
    t0 = tic (); gpu_apsp (W, "kernel", "cpu"); t = toc (t0);
    G = gpu_apsp (W(1:256, 1:256));   # warm
    __cudakernels__ ("sync");
    t1 = tic (); gpu_apsp (W); t2 = toc (t1);
    printf ("single n = %d: CPU reference %.2f s (%.3f Tpair/s, %d threads), GPU from host arrays %.1f ms\n",
            n, t, n^3 / t / 1e12, nproc (), 1e3 * t2);
  endif
  narrowed (o.narrowed);
  if (! isempty (o.csv))
    f = fopen (o.csv, "w");
    fprintf (f, "class,n,d_ms,dp_ms,tpairs,share_of_minplus_8192\n");
    for i = 1:numel (r)
      fprintf (f, "%s,%d,%.3f,%.3f,%.4f,%.4f\n", r(i).class, r(i).n, r(i).d_ms, r(i).dp_ms,
               r(i).rate / 1e12, r(i).share);
    endfor
    fclose (f);
  endif
endfunction

function r = rows_and_squaring (o, r)
  for cls = fieldnames (o.sizes)'
    c = cls{1};
    mp_ms = median (__cudakernels__ ("time", "product", "min.+", c, "warptile", [8192 8192 8192], 1, 3));
    mp_rate = 8192^3 / (mp_ms / 1e3);
    for n = o.sizes.(c)
      reps = o.reps - (n >= 16384) * (o.reps - 1);   # one run of the largest
      ## D + P warmed up too below 16384: a first call with P at 1024 took 0.79 ms against 0.54
      warm = double (n < 16384);   # the gateway takes a number, not a logical
      d = median (__cudakernels__ ("time", "apsp", "min.+", c, "gpu", n, 1, reps));
      dp = median (__cudakernels__ ("time", "apsp", "min.+", c, "gpu", n, warm, reps, "witness"));
      rate = n^3 / (d / 1e3);
      r(end+1) = struct ("class", c, "n", n, "d_ms", d, "dp_ms", dp, "rate", rate,
                         "share", rate / mp_rate);
      printf ("%-7s %6d %11.1f %9.2f %8.1f%% %11.1f %7.2fx\n", c, n, d, rate / 1e12,
              100 * rate / mp_rate, dp, dp / d);
    endfor
    printf ("%-7s n = 8192 gpu_minplus: %.2f Tpair/s\n", c, mp_rate / 1e12);
  endfor
  for n = o.squaring
    steps = ceil (log2 (n));
    sq = steps * median (__cudakernels__ ("time", "product", "min.+", "single", "warptile", [n n n], 1, 3));
    fw = median (__cudakernels__ ("time", "apsp", "min.+", "single", "gpu", n, 1, 3));
    printf ("single n = %d: squaring %d products %.1f ms, gpu_apsp %.1f ms: %.1fx faster\n",
            n, steps, sq, fw, sq / fw);
  endfor
endfunction

## Many graphs in one call: D and D+P between events, the CPU reference on the same pages.
function r = batched_rows (o, r)
  if (isempty (o.batched))
    return;
  endif
  printf ("%-7s %6s %7s %11s %9s %9s %11s %8s %11s\n", "class", "n", "pages", "D ms",
          "Tpair/s", "of 8192", "D+P ms", "P cost", "cpu ms");
  for cls = o.batched_classes
    c = cls{1};
    mp_ms = median (__cudakernels__ ("time", "product", "min.+", c, "warptile", [8192 8192 8192], 1, 3));
    mp_rate = 8192^3 / (mp_ms / 1e3);
    for row = o.batched'
      [n, p] = deal (row(1), row(2));
      d = median (__cudakernels__ ("time", "apsp", "min.+", c, "gpu", [n p], 1, o.reps + 1));
      work = __cudakernels__ ("last_plan").work;
      dp = median (__cudakernels__ ("time", "apsp", "min.+", c, "gpu", [n p], 1, o.reps + 1, "witness"));
      rate = p * n^3 / (d / 1e3);
      cpu = NaN;
      if (p * n^3 <= o.batched_cpu)
        W = cast (randi ([0 999], n, n, p), c);
        t0 = tic (); gpu_apsp (W, "kernel", "cpu"); cpu = 1e3 * toc (t0);
      endif
      r(end+1) = struct ("class", [c " pages"], "n", n, "d_ms", d, "dp_ms", dp,
                         "rate", rate, "share", rate / mp_rate);
      printf ("%-7s %6d %7d %11.3f %9.2f %8.1f%% %11.3f %7.2fx %11.1f  (%s)\n", c, n, p, d,
              rate / 1e12, 100 * rate / mp_rate, dp, dp / d, cpu, work);
    endfor
    printf ("%-7s n = 8192 gpu_minplus: %.2f Tpair/s\n", c, mp_rate / 1e12);
  endfor
endfunction

## Integer-valued single and double (the benchmark's weights 0..999) in the automatic mode:
## the work type that ran, and the time against the same graph in the class.
function narrowed (sizes)
  for c = {"single", "double"}
    for n = sizes
      old = __cudakernels__ ("settings", "minplus_narrow", "off");
      d0 = median (__cudakernels__ ("time", "apsp", "min.+", c{1}, "gpu", n, 1, 2));
      p0 = median (__cudakernels__ ("time", "apsp", "min.+", c{1}, "gpu", n, 0, 2, "witness"));
      __cudakernels__ ("settings", old);
      d = median (__cudakernels__ ("time", "apsp", "min.+", c{1}, "gpu", n, 1, 2));
      path = __cudakernels__ ("last_plan").work;
      p = median (__cudakernels__ ("time", "apsp", "min.+", c{1}, "gpu", n, 0, 2, "witness"));
      printf ("%-7s %6d narrowed to %-7s D %9.1f ms (%.2f Tpair/s, %.2fx the class's %.1f)  D+P %9.1f ms (%.2fx the class's %.1f)\n", ...
              c{1}, n, path, d, n^3 / d / 1e9, d0 / d, d0, p, p0 / p, p0);
    endfor
  endfor
endfunction
