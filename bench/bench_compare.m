## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} bench_compare (@var{label})
## @deftypefnx {} {} bench_compare (@var{label}, @var{csv})
## @deftypefnx {} {} bench_compare (@var{label}, @var{csv}, @var{group})
## Time the cases by which builds of the package are compared (run once per
## build, alternating processes: @file{bench/gpu_session.sh}'s @code{compare}
## step).  Device times (CUDA events around the device work, median), one line
## per case, prefixed with @var{label}; appended to @var{csv} when given.
##
## @var{group} names the cases:
## @table @code
## @item "default"
## min-plus of every class at n = 8192 with and without the witness, paged
## products of 64^3 x 4096 and 256^3 x 256 pages (single and int16), double of
## integer values on the integer path, gpu_apsp single and int16 at n = 16384
## with and without paths, matmul warptile and cuBLAS at 8192 and the sum of
## 2^28 singles;
## @item "apsp"
## gpu_apsp where graphs run by tiles, medians of 15: single graphs of 1024,
## 2048 and 4096 vertices and int16 ones of 1024 and 2048, pages of single
## graphs (1024 x 32, 512 x 66, 256 x 256), D alone and with P, 16-bit pages
## on the tiled kernel (int16 256 x 256, 320 x 264, 200 x 300, 256 x 1024), and
## the n = 8192 gpu_minplus rate of single and int16, against which
## doc/apsp.md states its shares.
## @end table
## The default group runs on any build, old or new: the timings and the
## narrowing mode go through whichever commands the build has (one "time"
## command, or one per operation before it); the apsp group's pages need a build
## whose "time" command takes [n pages].
## @end deftypefn

function bench_compare (label, csv = "", group = "default")
  old = set_narrow ("off");
  unwind_protect
    switch (group)
      case "default"
        default_cases (label, csv);
      case "apsp"
        apsp_cases (label, csv);
      otherwise
        error ("cudakernels:invalidinput", "bench_compare: no set '%s' (default, apsp)", group);
    endswitch
  unwind_protect_cleanup
    set_narrow (old);
  end_unwind_protect
endfunction

function default_cases (label, csv)
  n = 8192;
  for c = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32"}
    report (label, csv, sprintf ("minplus %s %d", c{1}, n),
            timed ("min.+", c{1}, "warptile", [n n n], 1, 5));
    report (label, csv, sprintf ("minplus %s %d K", c{1}, n),
            timed ("min.+", c{1}, "warptile", [n n n], 1, 5, "witness"));
  endfor
  for c = {"single", "int16"}
    report (label, csv, sprintf ("pages %s 64^3x4096", c{1}),
            timed ("min.+", c{1}, "warptile", [64 64 64 4096], 3, 15));
    report (label, csv, sprintf ("pages %s 256^3x256", c{1}),
            timed ("min.+", c{1}, "warptile", [256 256 256 256], 3, 15));
  endfor
  set_narrow ("auto");
  report (label, csv, "minplus double 8192 narrowed",
          timed ("min.+", "double", "warptile", [n n n], 1, 5));
  set_narrow ("off");
  for c = {"single", "int16"}
    report (label, csv, sprintf ("apsp %s 16384", c{1}), timed ("apsp", c{1}, "gpu", 16384, 1, 3));
    report (label, csv, sprintf ("apsp %s 16384 P", c{1}),
            timed ("apsp", c{1}, "gpu", 16384, 0, 3, "witness"));
  endfor
  for k = {"warptile", "cublas"}
    report (label, csv, sprintf ("matmul single 8192 %s", k{1}),
            timed ("+.*", "single", k{1}, [n n n], 1, 5));
  endfor
  x = rand (2^28, 1, "single");
  [t, ~] = __cudakernels__ ("sum_time", x, 1, numel (x), 1, "default", "shuffle", 1, 7);
  report (label, csv, "sum single 2^28", t);
endfunction

## Graphs by tiles: one graph, pages of them, 16-bit pages on the tiled kernel ([n pages]).
function apsp_cases (label, csv)
  graphs = {"single", [1024 1]; "single", [2048 1]; "single", [4096 1]; "int16", [1024 1];
            "int16", [2048 1]; "single", [1024 32]; "single", [512 66]; "single", [256 256]};
  for i = 1:rows (graphs)
    [c, sz] = graphs{i, :};
    name = sprintf ("apsp %s %dx%d", c, sz);
    if (sz(2) == 1)
      sz = sz(1);   # one graph: gpu_apsp's path for an n x n W, not pages of one
    endif
    report (label, csv, name, timed ("apsp", c, "gpu", sz, 2, 15));
    report (label, csv, [name " P"], timed ("apsp", c, "gpu", sz, 2, 15, "witness"));
  endfor
  for sz = [256 256; 320 264; 200 300; 256 1024]'
    report (label, csv, sprintf ("apsp int16 %dx%d", sz), timed ("apsp", "int16", "gpu", sz', 2, 15));
  endfor
  for c = {"single", "int16"}
    report (label, csv, sprintf ("minplus %s 8192", c{1}),
            timed ("min.+", c{1}, "warptile", [8192 8192 8192], 1, 5));
  endfor
endfunction

## Device times of a product (what: a semiring or "+.*") or of shortest paths
## (what: "apsp"), through the build's timing command: "time", or the older
## "minplus_time", "pages_time", "matmul_time" and "apsp_time".
function t = timed (what, cls, kernel, sz, warmup, reps, flag = "")
  persistent one_command = [];
  if (isempty (one_command))
    try
      one_command = any (strcmp ({__cudakernels__("help").name}, "time"));
    catch
      one_command = false;   # no "help": a build from before the command table
    end_try_catch
  endif
  flags = merge (isempty (flag), {}, {flag});
  if (one_command)
    op = merge (strcmp (what, "apsp"), "apsp", "product");
    sr = merge (strcmp (what, "apsp"), "min.+", what);
    t = __cudakernels__ ("time", op, sr, cls, kernel, sz, warmup, reps, flags{:});
  elseif (strcmp (what, "apsp"))
    paths = merge (isempty (flag), {}, {"paths"});
    t = __cudakernels__ ("apsp_time", cls, sz, warmup, reps, paths{:});
  elseif (numel (sz) == 4)
    op = merge (strcmp (what, "+.*"), "matmul", "minplus");
    t = __cudakernels__ ("pages_time", op, cls, kernel, sz(1), sz(2), sz(3), sz(4), warmup, reps);
  elseif (strcmp (what, "+.*"))
    t = __cudakernels__ ("matmul_time", cls, kernel, sz(1), sz(2), sz(3), warmup, reps);
  else
    arg = merge (isempty (flag), {}, {"arg"});
    t = __cudakernels__ ("minplus_time", cls, kernel, sz(1), sz(2), sz(3), warmup, reps, arg{:});
  endif
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

%!error id=cudakernels:invalidinput bench_compare ("x", "", "nothing")
