## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} bench_compare (@var{label})
## @deftypefnx {} {} bench_compare (@var{label}, @var{csv})
## Time the cases by which two builds of the package are compared (run once per
## build, alternating processes: @file{bench/compare_builds.sh}): min-plus of every
## class at n = 8192 with and without the witness, paged products of 64^3 x 4096
## and 256^3 x 256 pages (single and int16), double of integer values on the
## integer path, gpu_apsp single and int16 at n = 16384 with and without paths,
## matmul warptile and cuBLAS at 8192 and the sum of 2^28 singles.  Device times
## (CUDA events around the device work, median), one line per case, prefixed with
## @var{label}; appended to @var{csv} when given.  Runs on any build that has the
## timing commands, old or new: the narrowing mode is set through whichever
## command the build has.
## @end deftypefn

function bench_compare (label, csv = "")
  old = set_narrow ("off");
  unwind_protect
    n = 8192;
    for c = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32"}
      report (label, csv, sprintf ("minplus %s %d", c{1}, n), ...
              __cudakernels__ ("minplus_time", c{1}, "warptile", n, n, n, 1, 5));
      report (label, csv, sprintf ("minplus %s %d K", c{1}, n), ...
              __cudakernels__ ("minplus_time", c{1}, "warptile", n, n, n, 1, 5, "arg"));
    endfor
    for c = {"single", "int16"}
      report (label, csv, sprintf ("pages %s 64^3x4096", c{1}), ...
              __cudakernels__ ("pages_time", "minplus", c{1}, "warptile", 64, 64, 64, 4096, 3, 15));
      report (label, csv, sprintf ("pages %s 256^3x256", c{1}), ...
              __cudakernels__ ("pages_time", "minplus", c{1}, "warptile", 256, 256, 256, 256, 3, 15));
    endfor
    set_narrow ("auto");
    report (label, csv, "minplus double 8192 narrowed", ...
            __cudakernels__ ("minplus_time", "double", "warptile", n, n, n, 1, 5));
    set_narrow ("off");
    for c = {"single", "int16"}
      report (label, csv, sprintf ("apsp %s 16384", c{1}), ...
              __cudakernels__ ("apsp_time", c{1}, 16384, 1, 3));
      report (label, csv, sprintf ("apsp %s 16384 P", c{1}), ...
              __cudakernels__ ("apsp_time", c{1}, 16384, 0, 3, "paths"));
    endfor
    for k = {"warptile", "cublas"}
      report (label, csv, sprintf ("matmul single 8192 %s", k{1}), ...
              __cudakernels__ ("matmul_time", "single", k{1}, n, n, n, 1, 5));
    endfor
    x = rand (2^28, 1, "single");
    [t, ~] = __cudakernels__ ("sum_time", x, 1, numel (x), 1, "default", "shuffle", 1, 7);
    report (label, csv, "sum single 2^28", t);
  unwind_protect_cleanup
    set_narrow (old);
  end_unwind_protect
endfunction

## The narrowing mode before; sets it (the "settings" command, or the older "minplus_narrow").
function old = set_narrow (mode)
  try
    s = __cudakernels__ ("settings", "minplus_narrow", mode);
    old = s.minplus_narrow;
  catch
    old = __cudakernels__ ("minplus_narrow", mode);
  end_try_catch
endfunction

function report (label, csv, name, times)
  t = median (times);
  printf ("%-8s %-34s %10.4f ms\n", label, name, t);
  if (! isempty (csv))
    fid = fopen (csv, "a");
    fprintf (fid, "%s,%s,%.6f\n", label, name, t);
    fclose (fid);
  endif
endfunction
