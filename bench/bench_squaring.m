## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{r} =} bench_squaring ()
## @deftypefnx {} {@var{r} =} bench_squaring (@var{n}, @var{steps})
## All-pairs shortest paths by repeated min-plus squaring,
## @code{D = gpu_minplus (D, D)} @var{steps} times (default 13) on an
## @var{n}-by-@var{n} single graph (default 4096): with host arrays (every step
## a PCIe round trip), with a gpu_array (upload once, gather once), and the
## kernel time alone (events, median of 5, times @var{steps}).  Prints the
## three times and the ratios, checks that both loops give the same result,
## and returns them in a struct.
## @end deftypefn

function r = bench_squaring (n = 4096, steps = 13)
  ## the product in single throughout (integer-valued data would run on the integer paths)
  old = __cudakernels__ ("settings", "minplus_narrow", "off");
  restore = onCleanup (@() __cudakernels__ ("settings", old));
  W = 1 + 9 * rand (n, "single");
  W(rand (n) > 8 / n) = Inf;          # about 8 edges per vertex
  W(1:n+1:end) = 0;
  gpu_minplus (W(1:64, 1:64));        # load and warm up
  kernel_ms = median (__cudakernels__ ("time", "product", "min.+", "single", "warptile", [n n n], 1, 5));
  r.kernel_s = steps * kernel_ms / 1e3;

  t0 = tic ();
  D = W;
  for i = 1:steps
    D = gpu_minplus (D, D);
  endfor
  r.host_s = toc (t0);

  t0 = tic ();
  G = gpu_array (W);
  r.upload_s = toc (t0);
  __cudakernels__ ("sync");
  t0 = tic ();
  for i = 1:steps
    G = gpu_minplus (G, G);
  endfor
  __cudakernels__ ("sync");
  r.device_s = toc (t0);
  t0 = tic ();
  DG = gather (G);
  r.gather_s = toc (t0);

  r.same = isequal (D, DG);
  printf ("APSP by squaring, n = %d single, %d steps (%s)\n", n, steps, gpu_info ()(1).name);
  printf ("  kernel time alone      %8.1f ms\n", 1e3 * r.kernel_s);
  printf ("  host arrays            %8.1f ms  (%.2fx kernel)\n", 1e3 * r.host_s, r.host_s / r.kernel_s);
  printf ("  gpu_array loop         %8.1f ms  (%.3fx kernel)\n", 1e3 * r.device_s, r.device_s / r.kernel_s);
  printf ("  + upload %.1f ms + gather %.1f ms = %.1f ms end to end (%.2fx kernel)\n", ...
          1e3 * r.upload_s, 1e3 * r.gather_s, 1e3 * (r.upload_s + r.device_s + r.gather_s), ...
          (r.upload_s + r.device_s + r.gather_s) / r.kernel_s);
  printf ("  results identical: %d\n", r.same);
endfunction
