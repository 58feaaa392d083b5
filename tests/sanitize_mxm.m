## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} sanitize_mxm ()
## @deftypefnx {} {} sanitize_mxm ("racecheck")
## Exercise gpu_mxm's device code on small, ragged shapes, for running under
## @command{compute-sanitizer} (memcheck, racecheck): every semiring but min.+
## (sanitize_minplus's) on each GPU kernel and class it takes, with and without
## the witness, a deep k that splits, pages in one launch, slices of a product
## larger than a small memory limit; or.and on each bit-packed path, with K,
## k not a multiple of 32 or 256; the conversion of numeric gpu_arrays to
## logical; single and double max.min and min.max on their values' ranks; the
## timing command and the ceiling probes.
## The racecheck form runs max.min in single, double and int16 (packed words)
## on warptile (the shared-memory kernels; their synchronization is the same for
## every semiring, and v0 to v2 use no shared memory), and or.and's paths;
## both forms run pages of whole tiles, which the integer classes read as they
## are: racecheck costs
## mostly the instrumenting of each kernel when it first runs (the whole set
## took over 200 s).
## Prints @samp{sanitize_mxm: OK} at the end; errors out on a wrong result.
## @end deftypefn

function sanitize_mxm (form = "")
  shapes = [1 1 1; 3 5 2; 65 63 129; 33 700 20];   # the last one splits k on warptile
  small = strcmp (form, "racecheck");
  kernels = {"naive", "coalesced", "regblock", "warptile"};
  semirings = {"max.+", "max.min", "min.max", "max.*"};
  if (small)
    shapes = shapes(3:4, :);
    kernels = kernels(4);
    semirings = semirings(2);
  endif
  for sr = semirings
    classes = {"single", "double", "int32", "uint8", "int16"};
    if (strcmp (sr{1}, "max.*"))
      classes = classes(1:2);
    elseif (small)
      classes = classes([1 2 5]);
    endif
    for cls = classes
      progress ("%s %s", sr{1}, cls{1});
      for kernel = kernels
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
      whole_pages (sr{1}, cls{1});
      if (! small)
        __cudakernels__ ("time", "product", sr{1}, cls{1}, "warptile", [65 33 70], 1, 2);
        __cudakernels__ ("minplus_ceiling", cls{1}, sr{1});
      endif
    endfor
  endfor
  if (! small)   # under racecheck its many launches took minutes
    progress ("sliced");
    sliced ();
    progress ("ranks");
    ranks ();
  endif
  for kernel = {"naive", "regblock", "warptile"}
    progress ("or.and %s", kernel{1});
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
  if (! small)
    __cudakernels__ ("minplus_ceiling", "logical", "or.and", "tensor");
    __cudakernels__ ("minplus_ceiling", "logical", "or.and", "lop3");
  endif
  printf ("sanitize_mxm: OK\n");
endfunction

## A product larger than the memory allowed: slices of k merged on the device.
function sliced ()
  __cudakernels__ ("settings", "test_alloc_limit", 2^20);
  unwind_protect
    A = round (10 * randn (300, 700)); B = round (10 * randn (700, 250));
    [C, K] = gpu_mxm (A, B, "max.min");
    [R, RK] = gpu_mxm (A, B, "max.min", "kernel", "cpu");
    assert (isequal (C, R) && isequal (K, RK), "sanitize_mxm: sliced max.min differs");
  unwind_protect_cleanup
    __cudakernels__ ("settings", "test_alloc_limit", 0);
  end_unwind_protect
endfunction

## max.min and min.max in single and double on their values' ranks (forced at
## these sizes): uint16 and int32 ranks, and a NaN that rules them out.
function ranks ()
  old = __cudakernels__ ("settings", "minplus_narrow", "always");
  unwind_protect
    for sr = {"max.min", "min.max"}
      for cls = {"single", "double"}
        A = cast (randn (65, 63), cls{1}); B = cast (randn (63, 129), cls{1});
        Ai = round (10 * A); Ai(2, 2) = NaN;
        for X = {{round(10 * A), B}, {A, B}, {Ai, B}}
          [C, K] = gpu_mxm (X{1}{1}, X{1}{2}, sr{1});
          [R, RK] = gpu_mxm (X{1}{1}, X{1}{2}, sr{1}, "kernel", "cpu");
          assert (isequaln (C, R) && isequal (K, RK), "sanitize_mxm: %s %s ranks differ", ...
                  sr{1}, cls{1});
        endfor
      endfor
      A = randn (300, 250); B = randn (250, 300);   # more than 65536 values: int32 ranks
      [C, K] = gpu_mxm (A, B, sr{1});
      [R, RK] = gpu_mxm (A, B, sr{1}, "kernel", "cpu");
      assert (isequal (C, R) && isequal (K, RK), "sanitize_mxm: %s int32 ranks differ", sr{1});
    endfor
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
endfunction

## Pages of whole 64 x 64 tiles in one launch, over the class's whole range:
## the integer classes' kernels read them as they are (and, for max.+, judge
## the guessed shift block by block; sanitize_minplus has min.+'s).
function whole_pages (sr, cls)
  old = __cudakernels__ ("settings", "pages_mode", "batched");
  unwind_protect
    if (any (strcmp (cls, {"single", "double"})))
      A = cast (round (10 * randn (64, 64, 2)), cls); B = cast (round (10 * randn (64, 64)), cls);
    else
      lo = double (intmin (cls)); hi = double (intmax (cls));
      A = cast (randi ([lo hi], 64, 64, 2), cls); B = cast (randi ([0 99], 64, 64), cls);
    endif
    P = gpu_mxm (A, B, sr);
    for q = 1:2
      R = gpu_mxm (A(:, :, q), B, sr, "kernel", "cpu");
      assert (isequal (P(:, :, q), R), "sanitize_mxm: %s %s whole pages differ", sr, cls);
    endfor
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
endfunction

## Where a sanitizer run has got to, in its log as it goes.
function progress (varargin)
  printf ("sanitize_mxm: %s\n", sprintf (varargin{:}));
  fflush (stdout);
endfunction
