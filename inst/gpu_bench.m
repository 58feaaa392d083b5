## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{results} =} gpu_bench (@var{op})
## @deftypefnx {} {@var{results} =} gpu_bench (@var{op}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {} gpu_bench ("plot", @var{csvfile}, @var{pngfile})
## Benchmark every kernel of an operation against its reference on this GPU.
##
## @var{op} is @qcode{"sum"}, @qcode{"matmul"} or @qcode{"minplus"}.  For each class, size and
## kernel, @code{gpu_bench} times the operation on the device (CUDA events, one
## warm-up run, the median of several runs) with the data already on the
## GPU, and prints a table in the style of the CUDA SDK samples:
##
## @table @asis
## @item @qcode{"sum"}
## @var{n} uniform [0, 1) values; the rate is GB/s of input read, and
## @code{%ref} compares it with this GPU's device-to-device copy rate,
## measured in the same run, counting the bytes the copy reads and writes (the
## DRAM traffic of both).  The error is relative to the sum in double computed
## by Octave.  The kernel @qcode{"builtin"} is Octave's own @code{sum} on the
## host.
## @item @qcode{"matmul"}
## @var{n}-by-@var{n} products; the rate is TFLOP/s (2 @var{n}^3 operations),
## and @code{%ref} compares it with cuBLAS in the same run.  The error is the
## relative Frobenius error of an @var{n} = min (@var{n}, 1024) product
## against Octave's product in double.  The kernel @qcode{"builtin"} is
## Octave's own @code{*} on the host.
## @item @qcode{"minplus"}
## @var{n}-by-@var{n} products; the rate is Tpair/s, and @code{%ref} compares
## it with the register-only ceiling measured in the same run.  Single and
## double are timed on non-integer data, so that every kernel computes in the
## class (integer-valued data would run on the integer paths, see
## @code{gpu_minplus}).  The result of an @var{n} = 300 product is compared with
## the CPU reference.
## @end table
##
## A row says @qcode{"compares OK"} when the error is within the class's bound
## (sum: 1e-6 single, 1e-12 double; matmul: 2 @var{n} eps of the class;
## min-plus: exact), else @qcode{"FAILED"}.  Octave's own operation
## (@qcode{"builtin"}) is no kernel of this package: where its error exceeds
## the bound (Octave's @code{sum} of many single values accumulates in
## single) its row says @qcode{"builtin rounding"}, the built-in's own
## rounding error against the double reference.
##
## Options: @qcode{"sizes"}, @qcode{"classes"} (default
## @code{@{"single", "double"@}}), @qcode{"kernels"} (default: all),
## @qcode{"budget"} (seconds of timed runs per row, default 1),
## @qcode{"csv"} (file for the rows), @qcode{"plot"} (PNG file: rate against
## @var{n}, one line per kernel).  @code{gpu_bench ("plot", @var{csv},
## @var{png})} draws the plot from a saved CSV file, on a machine with
## graphics.
##
## @seealso{gpu_sum, gpu_minplus, gpu_kernels}
## @end deftypefn

function results = gpu_bench (op, varargin)
  if (nargin < 1 || ! ischar (op))
    print_usage ();
  endif
  if (strcmp (op, "plot"))
    if (numel (varargin) != 2)
      print_usage ();
    endif
    plot_rows (read_csv (varargin{1}), varargin{2});
    return;
  endif
  opt = options (op, varargin{:});
  info = gpu_info ();
  info = info([info.selected]);   # the GPU that one-device work runs on
  printf ("# gpu_bench %s on %s (%d SMs, driver %s, runtime %s)\n", op, info.name, ...
          info.multiprocessors, info.driver_version, info.runtime_version);
  printf ("%-7s %-12s %11s %10s %11s %7s %10s  %s\n", "class", "kernel", "n", "median ms", ...
          rate_unit (op), "%ref", "rel.error", "result");
  results = struct ([]);
  for c = 1:numel (opt.classes)
    for n = opt.sizes
      rows = measure_op (op, opt.classes{c}, n, opt);
      results = [results, rows];
    endfor
  endfor
  if (! isempty (opt.csv))
    write_csv (opt.csv, results);
  endif
  if (! isempty (opt.plot))
    plot_rows (results, opt.plot);
  endif
endfunction

function opt = options (op, varargin)
  switch (op)
    case "sum"
      sizes = 2 .^ [20 24 28];
      kernels = [setdiff(gpu_kernels("sum"), {"cpu"}, "stable"), {"builtin"}];
    case "matmul"
      sizes = [1024 2048 4096 8192];
      kernels = [{"cublas"}, setdiff(gpu_kernels("matmul"), {"cublas"}, "stable"), {"builtin"}];
    case "minplus"
      sizes = [1024 4096 8192];
      kernels = setdiff (gpu_kernels ("minplus"), {"cpu"}, "stable");
    otherwise
      error ("cudakernels:invalidinput",
             "gpu_bench: unknown operation \"%s\"; the operations are: sum, matmul, minplus", op);
  endswitch
  opt = ck_options ("gpu_bench", varargin, {"sizes", sizes, "sizes";
                                            "classes", {"single", "double"}, "strings";
                                            "kernels", kernels, "strings";
                                            "budget", 1, "positive";
                                            "csv", "", "string";
                                            "plot", "", "string"});
endfunction

function u = rate_unit (op)
  u = struct ("sum", "GB/s", "matmul", "TFLOP/s", "minplus", "Tpair/s").(op);
endfunction

function rows = measure_op (op, cls, n, opt)
  switch (op)
    case "sum"
      rows = measure_sum (cls, n, opt);
    case "matmul"
      rows = measure_matmul (cls, n, opt);
    otherwise
      rows = measure_minplus (cls, n, opt);
  endswitch
endfunction

function r = row (op, cls, kernel, n, t_ms, rate, ref, err, tol)
  r.op = op;
  r.class = cls;
  r.kernel = kernel;
  r.n = n;
  r.reps = numel (t_ms);
  r.median_ms = median (t_ms);
  r.rate = rate;
  r.ref_rate = ref;
  r.fraction = rate / ref;
  r.rel_error = err;
  r.ok = err <= tol;
  if (r.ok)
    status = "compares OK";
  elseif (strcmp (kernel, "builtin"))
    status = "builtin rounding";
  else
    status = "FAILED";
  endif
  printf ("%-7s %-12s %11d %10.4f %11.2f %6.1f%% %10.2e  %s\n", cls, kernel, n, r.median_ms, ...
          rate, 100 * r.fraction, err, status);
  fflush (stdout);
endfunction

## Timed runs: as many as fit in the budget, 3 to 50, after one warm-up.
function reps = reps_for (first_ms, budget)
  reps = min (max (floor (budget * 1e3 / max (first_ms, 1e-3)), 3), 50);
endfunction

function rows = measure_sum (cls, n, opt)
  x = rand (n, 1, cls);
  ref = sum (double (x));
  tol = ck_pick (strcmp (cls, "single"), 1e-6, 1e-12);
  bytes = n * sizeof (x(1));
  copy_rate = __cudakernels__ ("copy_bandwidth", max (bytes, 2^20), 20) / 1e9;
  rows = struct ([]);
  for k = opt.kernels
    if (strcmp (k{1}, "builtin"))
      t = zeros (1, 3);
      for i = 1:3
        t0 = tic (); y = sum (x); t(i) = toc (t0) * 1e3;
      endfor
    else
      [t1, y] = __cudakernels__ ("sum_time", x, 1, n, 1, "default", k{1}, 1, 1);
      [t, y] = __cudakernels__ ("sum_time", x, 1, n, 1, "default", k{1}, 0,
                                reps_for (t1, opt.budget));
    endif
    err = abs (double (y) - ref) / abs (ref);
    rows = [rows, row("sum", cls, k{1}, n, t, bytes / median (t) / 1e6, copy_rate, err, tol)];
  endfor
endfunction

function rows = measure_matmul (cls, n, opt)
  nc = min (n, 1024);
  A = cast (rand (nc), cls); B = cast (rand (nc), cls);
  R = double (A) * double (B);
  flop = 2 * n^3;
  ref = NaN;
  rows = struct ([]);
  for k = opt.kernels
    if (strcmp (k{1}, "builtin"))
      An = cast (rand (n), cls);
      t = 1e3 * gpu_timeit (@() An * An);
      C = A * B;
    else
      t1 = __cudakernels__ ("time", "product", "+.*", cls, k{1}, [n n n], 1, 1);
      t = __cudakernels__ ("time", "product", "+.*", cls, k{1}, [n n n], 0, reps_for (t1, opt.budget));
      C = gpu_matmul (A, B, "kernel", k{1});
    endif
    rate = flop / median (t) / 1e9;
    if (strcmp (k{1}, "cublas"))
      ref = rate;
    endif
    err = norm (double (C) - R, "fro") / norm (R, "fro");
    rows = [rows, row("matmul", cls, k{1}, n, t, rate, ref, err, 2 * nc * eps (cls))];
  endfor
endfunction

function rows = measure_minplus (cls, n, opt)
  ceiling = __cudakernels__ ("minplus_ceiling", cls) / 1e12;
  A = cast (randi (1000, 300) - 1, cls);
  R = gpu_minplus (A, "kernel", "cpu");
  rows = struct ([]);
  ## timed on non-integer data for single and double, so that every kernel runs in
  ## the class (gpu_minplus computes integer-valued data on the integer paths)
  flags = {};
  if (any (strcmp (cls, {"single", "double"})))
    flags = {"fractions"};
  endif
  for k = opt.kernels
    t1 = __cudakernels__ ("time", "product", "min.+", cls, k{1}, [n n n], 1, 1, flags{:});
    t = __cudakernels__ ("time", "product", "min.+", cls, k{1}, [n n n], 0, reps_for (t1, opt.budget), flags{:});
    C = gpu_minplus (A, "kernel", k{1});
    err = max (abs (double (C(:)) - double (R(:)))) / max (abs (double (R(:))));
    rows = [rows, row("minplus", cls, k{1}, n, t, n^3 / median (t) / 1e9, ceiling, err, 0)];
  endfor
endfunction


function write_csv (file, rows)
  fid = fopen (file, "w");
  if (fid < 0)
    error ("cudakernels:invalidinput", "gpu_bench: cannot write %s", file);
  endif
  fprintf (fid, "op,class,kernel,n,reps,median_ms,rate,ref_rate,fraction,rel_error,ok\n");
  for r = rows
    fprintf (fid, "%s,%s,%s,%d,%d,%.5f,%.4f,%.4f,%.4f,%.3e,%d\n", r.op, r.class, r.kernel, ...
             r.n, r.reps, r.median_ms, r.rate, r.ref_rate, r.fraction, r.rel_error, r.ok);
  endfor
  fclose (fid);
endfunction

function rows = read_csv (file)
  fid = fopen (file, "r");
  if (fid < 0)
    error ("cudakernels:invalidinput", "gpu_bench: cannot read %s", file);
  endif
  fgetl (fid);
  c = textscan (fid, "%s %s %s %f %f %f %f %f %f %f %f", "Delimiter", ",");
  fclose (fid);
  rows = struct ("op", c{1}', "class", c{2}', "kernel", c{3}', "n", num2cell (c{4}'),
                 "rate", num2cell (c{7}'), "ref_rate", num2cell (c{8}'));
endfunction

## Rate against n, one panel per class, one line per kernel; the reference
## (copy rate or ceiling) as a dashed line.
function plot_rows (rows, png)
  op = rows(1).op;
  classes = unique ({rows.class});
  warning ("off", "Octave:gnuplot-graphics", "local");
  h = figure ("visible", "off", "position", [0 0 1200 450]);
  unwind_protect
    for c = 1:numel (classes)
      subplot (1, numel (classes), c);
      sel = rows(strcmp ({rows.class}, classes{c}));
      kernels = unique ({sel.kernel}, "stable");
      colors = jet (numel (kernels)) * 0.85;   # one distinct colour per kernel
      marks = "os^dv<>ph*x+";
      for k = 1:numel (kernels)
        s = sel(strcmp ({sel.kernel}, kernels{k}));
        semilogx ([s.n], [s.rate], ["-" marks(mod (k - 1, numel (marks)) + 1)],
                  "color", colors(k, :), "linewidth", 1.5, "displayname", kernels{k});
        hold on;
      endfor
      semilogx ([sel.n], [sel.ref_rate], "k--", "displayname", "reference");
      hold off;
      grid on;
      xlabel ("n");
      ylabel (rate_unit (op));
      title (sprintf ("%s, %s", op, classes{c}));
      legend ("location", "eastoutside");
    endfor
    print (h, png, "-dpng", "-r100");
  unwind_protect_cleanup
    close (h);
  end_unwind_protect
endfunction

%!error <Invalid call> gpu_bench ()
%!error id=cudakernels:invalidinput gpu_bench ("nosuchop")
%!error id=cudakernels:invalidinput gpu_bench ("sum", "sizes")
%!error id=cudakernels:invalidinput gpu_bench ("sum", "speed", 1)

%!testif ; gpu_available ()
%! ## a short run: every GPU row compares OK and the CSV has every row.  (Octave's
%! ## own running single sum, "builtin", may well miss the 1e-6 bound: its row then
%! ## says so, and no row of the table says FAILED.)
%! f = [tempname() ".csv"];
%! unwind_protect
%!   out = evalc ('r = gpu_bench ("sum", "sizes", [1e5 + 3], "budget", 0.05, "csv", f);');
%!   assert (all ([r(! strcmp ({r.kernel}, "builtin")).ok]));
%!   assert (isempty (strfind (out, "FAILED")), out);
%!   assert (numel (r), 2 * numel (gpu_kernels ("sum")));   # 2 classes x (GPU kernels, builtin)
%!   rm = gpu_bench ("minplus", "sizes", 256, "classes", "single", "budget", 0.05);
%!   assert (all ([rm.ok]));
%!   rmm = gpu_bench ("matmul", "sizes", 300, "classes", "double", "budget", 0.05);
%!   assert (all ([rmm.ok]));
%!   lines = strsplit (strtrim (fileread (f)), "\n");
%!   assert (numel (lines), numel (r) + 1);
%! unwind_protect_cleanup
%!   unlink (f);
%! end_unwind_protect

%!test
%! ## the plot of a saved CSV, where gnuplot can draw it (no GPU needed)
%! if (isempty (file_in_path (getenv ("PATH"), "gnuplot")))
%!   return;
%! endif
%! csv = [tempname() ".csv"]; png = [tempname() ".png"];
%! unwind_protect
%!   fid = fopen (csv, "w");
%!   fprintf (fid, "op,class,kernel,n,reps,median_ms,rate,ref_rate,fraction,rel_error,ok\n");
%!   fprintf (fid, "sum,single,shuffle,%d,5,0.1,%d,3000,0.9,1e-8,1\n", [2.^(10:2:14); 1000:500:2000]);
%!   fprintf (fid, "sum,double,cub,%d,5,0.1,%d,3000,0.9,1e-15,1\n", [2.^(10:2:14); 900:500:1900]);
%!   fclose (fid);
%!   gpu_bench ("plot", csv, png);
%!   info = imfinfo (png);
%!   assert (info.Width > 100 && info.Height > 100);
%! unwind_protect_cleanup
%!   unlink (csv);
%!   if (exist (png, "file"))
%!     unlink (png);
%!   endif
%! end_unwind_protect

%!demo
%! gpu_bench ("sum", "sizes", 2 .^ [16 20 24]);
