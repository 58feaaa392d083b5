## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} sanitize_matmul ()
## Exercise every matmul kernel on small, ragged shapes (padding pre-pass
## included), both classes, k = 0 and the timing command, for running under
## @command{compute-sanitizer} (warptile's split-K among them); the texture kernel also on pages (operands off
## the texture alignment) and refusing an operand beyond its limit.  Prints @samp{sanitize_matmul: OK} at the end;
## errors out on a wrong result.
## @end deftypefn

function sanitize_matmul ()
  ## the last: one output tile over a deep k, which warptile splits (planes and their reduce)
  shapes = [1 1 1; 5 3 2; 65 17 130; 129 33 64; 128 16 128; 65 2001 33];
  for cls = {"single", "double"}
    for k = gpu_kernels ("matmul")
      for s = 1:rows (shapes)
        A = cast (randn (shapes(s, 1), shapes(s, 2)), cls{1});
        B = cast (randn (shapes(s, 2), shapes(s, 3)), cls{1});
        C = gpu_matmul (A, B, "kernel", k{1});
        R = double (A) * double (B);
        if (norm (double (C) - R, "fro") > 1e-4 * max (norm (R, "fro"), 1))
          error ("sanitize_matmul: %s %s %dx%dx%d differs from A*B", k{1}, cls{1}, shapes(s, :));
        endif
      endfor
      assert (gpu_matmul (zeros (2, 0, cls{1}), zeros (0, 3, cls{1}), "kernel", k{1}),
              zeros (2, 3, cls{1}));
      __cudakernels__ ("time", "product", "+.*", cls{1}, k{1}, [65 33 70], 1, 2);
    endfor
  endfor
  ## pages in one launch (warptile, cuBLAS strided batched), broadcast, and page by page
  old = __cudakernels__ ("settings", "pages_mode", "batched");
  unwind_protect
    for k = {"warptile", "cublas"}
      A = single (randn (65, 17, 3)); B = single (randn (17, 30));
      C = gpu_matmul (A, B, "kernel", k{1});
      for q = 1:3
        R = double (A(:, :, q)) * double (B);
        if (norm (double (C(:, :, q)) - R, "fro") > 1e-4 * norm (R, "fro"))
          error ("sanitize_matmul: paged %s page %d differs from A*B", k{1}, q);
        endif
      endfor
      __cudakernels__ ("time", "product", "+.*", "single", k{1}, [65 17 30 3], 1, 1);
    endfor
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
  ## texture: page by page, each page's operands off the texture alignment; an operand
  ## beyond the (lowered) limit refused after the other's texture was made
  for cls = {"single", "double"}
    A = cast (randn (65, 17, 3), cls{1}); B = cast (randn (17, 30), cls{1});
    C = gpu_matmul (A, B, "kernel", "texture");
    for q = 1:3
      R = double (A(:, :, q)) * double (B);
      if (norm (double (C(:, :, q)) - R, "fro") > 1e-4 * norm (R, "fro"))
        error ("sanitize_matmul: paged texture %s page %d differs from A*B", cls{1}, q);
      endif
    endfor
  endfor
  old = __cudakernels__ ("settings", "test_texture_limit", 1000);
  unwind_protect
    try
      gpu_matmul (rand (40, 30), rand (30, 5), "kernel", "texture");
      error ("sanitize_matmul: the texture kernel took an operand beyond its limit");
    catch err
      if (! strcmp (err.identifier, "cudakernels:invalidinput"))
        rethrow (err);
      endif
    end_try_catch
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
  ## device-resident arrays: staging in and out, chained products, conversion, free
  A = rand (300, 200); B = rand (200, 100, "single");
  G = gpu_minplus (gpu_array (A), gpu_array (B));
  H = gpu_matmul (G, gpu_array (rand (100, 70, "single")));
  S = gather (gpu_sum (H, 2));
  X = rand (3e6, 1);                   # more than one staging buffer
  assert (gather (gpu_array (X)), X);
  clear G H
  assert (__cudakernels__ ("memory"), [0 0]);
  printf ("sanitize_matmul: OK\n");
endfunction
