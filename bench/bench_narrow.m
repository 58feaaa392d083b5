## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} bench_narrow ()
## @deftypefnx {} {} bench_narrow (@var{name}, @var{value}, @dots{})
## Integer-valued single and double data on gpu_minplus's integer paths
## (doc/minplus.md): @code{bench_minplus} rows of the default kernel on
## integers 0..999, integers 0..2^20-1 and non-integer data, with the path each
## ran, first with narrowing off (every row in its class, as before narrowing
## existed) and then in the automatic mode; then the cost of the look on
## non-integer data, timed alternately with and without it: in the automatic
## mode at the largest size, and forced (@qcode{"always"}) at the smallest,
## below the size at which the automatic mode looks.
##
## Options: @qcode{"sizes"} (default @code{[1024 8192]}), @qcode{"classes"}
## (default @code{@{"double", "single"@}}), @qcode{"csv"} (a file for the rows
## of the automatic mode).
## @end deftypefn

function bench_narrow (varargin)
  o = struct ("sizes", [1024 8192], "classes", {{"double", "single"}}, "csv", "");
  for i = 1:2:numel (varargin)
    o.(varargin{i}) = varargin{i+1};
  endfor
  common = {"sizes", o.sizes, "classes", o.classes, "kernels", {"warptile"}, "e2e", false, ...
            "budget", 0.5, "data", {"ints", "wide", "fractions"}};
  printf ("# narrowing off: every product in its class\n");
  bench_minplus (common{:}, "narrow", "off");
  printf ("# narrowing automatic\n");
  bench_minplus (common{:}, "narrow", "auto", "csv", o.csv);
  old = __cudakernels__ ("settings");
  restore = onCleanup (@() __cudakernels__ ("settings", old));
  for c = o.classes
    for n = [max(o.sizes) min(o.sizes)]
      mode = "auto";
      if (n < max (o.sizes))
        mode = "always";
      endif
      [off, on] = deal ([]);
      for r = 1:5
        __cudakernels__ ("settings", "minplus_narrow", "off");
        off(end+1) = median (__cudakernels__ ("time", "product", "min.+", c{1}, "warptile", [n n n], 1, 5, "fractions"));
        __cudakernels__ ("settings", "minplus_narrow", mode);
        on(end+1) = median (__cudakernels__ ("time", "product", "min.+", c{1}, "warptile", [n n n], 1, 5, "fractions"));
      endfor
      printf ("# the look on non-integer data, %s n = %d (%s): %.4f ms against %.4f without, %+.2f%% (%.1f us)\n", ...
              c{1}, n, mode, median (on), median (off), 100 * (median (on) / median (off) - 1), ...
              1e3 * (median (on) - median (off)));
    endfor
  endfor
endfunction
