## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} plot_minplus (@var{csv}, @var{png})
## Draw Tpair/s against n from a CSV that @code{bench_minplus} wrote: the
## square shapes only, one panel per class, one line per kernel, the class's
## register-only ceiling dashed.  Needs gnuplot (no GPU): the rows are handed to
## @code{gpu_bench ("plot", @dots{})} in its own CSV layout.
## @end deftypefn

function plot_minplus (csv, png)
  if (nargin != 2)
    print_usage ();
  endif
  fid = fopen (csv, "r");
  if (fid < 0)
    error ("cudakernels:invalidinput", "plot_minplus: cannot read %s", csv);
  endif
  fgetl (fid);   # class,kernel,m,k,n,reps,kernel_ms,spread,tpairs,ceiling_tpairs,...
  c = textscan (fid, "%s %s %f %f %f %f %f %f %f %f %f %f %f", "Delimiter", ",");
  fclose (fid);
  square = c{3} == c{4} & c{4} == c{5};
  tmp = [tempname() ".csv"];
  out = fopen (tmp, "w");
  unwind_protect
    fprintf (out, "op,class,kernel,n,reps,median_ms,rate,ref_rate,fraction,rel_error,ok\n");
    for r = find (square)'
      fprintf (out, "minplus,%s,%s,%d,%d,%g,%g,%g,%g,0,1\n", c{1}{r}, c{2}{r}, c{5}(r), ...
               c{6}(r), c{7}(r), c{9}(r), c{10}(r), c{11}(r));
    endfor
    fclose (out);
    gpu_bench ("plot", tmp, png);
  unwind_protect_cleanup
    unlink (tmp);
  end_unwind_protect
endfunction

%!error <Invalid call> plot_minplus ()
%!error id=cudakernels:invalidinput plot_minplus ("/nonexistent/bench.csv", "x.png")
