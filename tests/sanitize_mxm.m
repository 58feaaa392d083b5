## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} sanitize_mxm ()
## Exercise gpu_mxm's device code on small, ragged shapes, for running under
## @command{compute-sanitizer} (memcheck, racecheck): every semiring but min.+
## (sanitize_minplus's) on each GPU kernel and class it takes, with and without
## the witness, a deep k that splits, pages in one launch, slices of a product
## larger than a small memory limit; or.and on each bit-packed path, with K,
## k not a multiple of 32 or 256; the conversion of numeric gpu_arrays to
## logical; the timing command and the ceiling probes.
## Prints @samp{sanitize_mxm: OK} at the end; errors out on a wrong result.
## @end deftypefn

function sanitize_mxm ()
  shapes = [1 1 1; 3 5 2; 65 63 129; 33 700 20];   # the last one splits k on warptile
  for sr = {"max.+", "max.min", "min.max", "max.*"}
    classes = {"single", "double", "int32", "uint8", "int16"};
    if (strcmp (sr{1}, "max.*"))
      classes = classes(1:2);
    endif
    for cls = classes
      for kernel = {"naive", "coalesced", "regblock", "warptile"}
        for s = 1:rows (shapes)
          A = cast (round (10 * randn (shapes(s, 1), shapes(s, 2))), cls{1});
          B = cast (round (10 * randn (shapes(s, 2), shapes(s, 3))), cls{1});
          [C, K] = gpu_mxm (A, B, sr{1}, "kernel", kernel{1});
          [R, RK] = gpu_mxm (A, B, sr{1}, "kernel", "cpu");
          if (! isequaln (C, R) || ! isequal (K, RK))
            error ("sanitize_mxm: %s %s %s %dx%dx%d differs from the CPU reference", ...
                   sr{1}, kernel{1}, cls{1}, shapes(s, :));
          endif
        endfor
      endfor
      P = gpu_mxm (ones (20, 9, 3, cls{1}), ones (9, 7, cls{1}), sr{1});   # one launch
      assert (size (P), [20 7 3]);
      __cudakernels__ ("time", "product", sr{1}, cls{1}, "warptile", [65 33 70], 1, 2);
      __cudakernels__ ("minplus_ceiling", cls{1}, sr{1});
    endfor
  endfor
  ## a product larger than the memory allowed: slices of k merged on the device
  __cudakernels__ ("settings", "test_alloc_limit", 2^20);
  unwind_protect
    A = round (10 * randn (300, 700)); B = round (10 * randn (700, 250));
    [C, K] = gpu_mxm (A, B, "max.min");
    [R, RK] = gpu_mxm (A, B, "max.min", "kernel", "cpu");
    assert (isequal (C, R) && isequal (K, RK), "sanitize_mxm: sliced max.min differs");
  unwind_protect_cleanup
    __cudakernels__ ("settings", "test_alloc_limit", 0);
  end_unwind_protect
  for kernel = {"naive", "regblock", "warptile"}
    for shape = [1 1 1; 31 33 65; 70 257 40; 64 512 64]'
      A = rand (shape(1), shape(2)) < 0.1; B = rand (shape(2), shape(3)) < 0.1;
      [C, K] = gpu_mxm (A, B, "or.and", "kernel", kernel{1});
      [R, RK] = gpu_mxm (A, B, "or.and", "kernel", "cpu");
      if (! isequal (C, R) || ! isequal (K, RK))
        error ("sanitize_mxm: or.and %s %dx%dx%d differs from the CPU reference", ...
               kernel{1}, shape);
      endif
    endfor
    __cudakernels__ ("time", "product", "or.and", "logical", kernel{1}, [100 300 70], 1, 2);
  endfor
  G = gpu_mxm (gpu_array ([0 2; 1 0]), gpu_array (single ([1 0; 0 3])), "or.and");
  assert (gather (G), logical ([0 1; 1 0]));
  __cudakernels__ ("minplus_ceiling", "logical", "or.and", "tensor");
  __cudakernels__ ("minplus_ceiling", "logical", "or.and", "lop3");
  printf ("sanitize_mxm: OK\n");
endfunction
