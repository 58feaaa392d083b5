## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} plot_apsp (@var{csv}, @var{png})
## Draw gpu_apsp's rate (pair updates per second: n^3 a graph) against n from a
## CSV that @code{bench_apsp} wrote: one panel per class (and per class of
## pages, many graphs a call), D alone and D with P, and the same run's n = 8192
## gpu_minplus rate of the class dashed.  Needs gnuplot (no GPU).
## @end deftypefn

function plot_apsp (csv, png)
  if (nargin != 2)
    print_usage ();
  endif
  fid = fopen (csv, "r");
  if (fid < 0)
    error ("cudakernels:invalidinput", "plot_apsp: cannot read %s", csv);
  endif
  fgetl (fid);   # class,n,d_ms,dp_ms,tpairs,share_of_minplus_8192
  c = textscan (fid, "%s %f %f %f %f %f", "Delimiter", ",");
  fclose (fid);
  [cls, n, d_ms, dp_ms, d_rate, share] = deal (c{1}, c{2}, c{3}, c{4}, c{5}, c{6});
  classes = unique (cls, "stable");
  warning ("off", "Octave:gnuplot-graphics", "local");
  width = 300 * max (4, numel (classes));
  h = figure ("visible", "off", "position", [0, 0, width, 400]);
  unwind_protect
    for k = 1:numel (classes)
      sel = strcmp (cls, classes{k});
      subplot (1, numel (classes), k);
      d = d_rate; dp = d_rate .* d_ms ./ dp_ms;   # Tpair/s (pages: every graph's pairs)
      semilogx (n(sel), d(sel), "-o", "linewidth", 1.5, "displayname", "D");
      hold on;
      semilogx (n(sel), dp(sel), "-s", "linewidth", 1.5, "displayname", "D and P");
      anchor = median (d(sel) ./ share(sel));   # the same anchor on every row of a class
      semilogx (n(sel), anchor * ones (nnz (sel), 1), "k--", "displayname", "gpu_minplus 8192");
      hold off;
      grid on;
      top = 1.1 * max ([anchor; d(sel); dp(sel)]);
      xlim ([min(n(sel)) / 1.5, max(n(sel)) * 1.5]);
      ylim ([0, top]);
      xlabel ("n");
      ylabel ("Tpair/s");
      title (sprintf ("gpu_apsp, %s", classes{k}), "interpreter", "none");
      set (legend ("location", "southeast"), "interpreter", "none");
    endfor
    print (h, png, "-dpng", "-r100");
  unwind_protect_cleanup
    close (h);
  end_unwind_protect
endfunction

%!error <Invalid call> plot_apsp ()
%!error id=cudakernels:invalidinput plot_apsp ("/nonexistent/bench.csv", "x.png")
