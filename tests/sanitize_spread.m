## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} sanitize_spread ()
## Products spread over two workers on one device (each worker's own lane,
## the copies of gpu_array operands to a worker's device), min-plus and
## matmul, for running under @command{compute-sanitizer} memcheck; the CPU
## kernel is the reference.  Not under racecheck: with two host threads
## launching on one GPU at once it stopped tracking launches ("Internal
## Sanitizer Error: Detected a failure to track a kernel launch") and hung;
## the kernels are the one-device ones, which sanitize_minplus and
## sanitize_matmul run under racecheck.  Prints @samp{sanitize_spread: OK}.
## @end deftypefn

function sanitize_spread ()
  old = __cudakernels__ ("settings");
  unwind_protect
    for copies = [false true]
      __cudakernels__ ("settings", "spread_copies", copies);
      for cls = {"single", "int16", "double"}
        A = cast (randi ([0 99], 70, 33), cls{1});
        B = cast (randi ([0 99], 33, 300), cls{1});
        [RC, RK] = gpu_minplus (A, B, "kernel", "cpu");
        [C, K] = gpu_minplus (A, B, "devices", [1 1]);
        [G, GK] = gpu_minplus (gpu_array (A), gpu_array (B), "devices", [1 1]);
        if (! isequal (C, RC, gather (G)) || ! isequal (K, RK, gather (GK)))
          error ("sanitize_spread: %s spread over two workers differs", cls{1});
        endif
      endfor
      A = randn (70, 33); B = randn (33, 300);
      for kernel = {"cublas", "warptile"}
        R = gpu_matmul (A, B, "kernel", kernel{1}, "devices", 1);
        C = gpu_matmul (A, B, "kernel", kernel{1}, "devices", [1 1]);
        G = gather (gpu_matmul (gpu_array (A), gpu_array (B), "kernel", kernel{1}, "devices", [1 1]));
        if (norm (C - R, 1) > 1e-12 * norm (R, 1) || norm (G - R, 1) > 1e-12 * norm (R, 1))
          error ("sanitize_spread: matmul %s spread over two workers differs", kernel{1});
        endif
      endfor
    endfor
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
  clear G GK
  assert (__cudakernels__ ("memory"), [0 0]);
  printf ("sanitize_spread: OK\n");
endfunction
