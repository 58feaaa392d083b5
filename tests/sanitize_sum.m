## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} sanitize_sum ()
## Exercise every sum kernel and device code path on small, ragged shapes, for
## running under @command{compute-sanitizer}: each kernel on vectors, column
## sums, sums along later dimensions, misaligned starts, every class and mode,
## the timing and copy-bandwidth commands and the out-of-memory path.  Prints
## @samp{sanitize_sum: OK} at the end; errors out on a wrong result.
## @end deftypefn

function sanitize_sum ()
  kernels = setdiff (gpu_kernels ("sum"), {"cpu"}, "stable");
  shapes = {[1 1], [1 33], [513 1], [1025 3], [3 700], [7 5 3]};
  for k = kernels
    for s = 1:numel (shapes)
      classes = {"double", "single", "int32"};
      if (strcmp (k{1}, "shuffle"))    # the default: every class
        classes = [classes, {"int8", "uint16", "uint64"}];
      endif
      for cls = classes
        x = cast (round (100 * randn (shapes{s})), cls{1});
        for d = 1:3
          expect (gpu_sum (x, d, "kernel", k{1}), gpu_sum (x, d, "kernel", "cpu"), k{1}, cls{1});
        endfor
      endfor
    endfor
    [~, y] = __cudakernels__ ("sum_time", rand (1001, 1), 1, 1001, 1, "default", k{1}, 1, 2);
  endfor
  for cls = {"int8", "uint8", "int32", "int64", "uint64"}
    x = cast (randi ([-200 200], 700, 3), cls{1});
    x(10:20, 2) = intmax (cls{1});
    expect (gpu_sum (x, "native"), gpu_sum (x, "native", "kernel", "cpu"), "native", cls{1});
    expect (gpu_sum (x, 2, "native"), gpu_sum (x, 2, "native", "kernel", "cpu"), "native", cls{1});
  endfor
  __cudakernels__ ("copy_bandwidth", 2^20, 3);
  __cudakernels__ ("settings", "test_alloc_limit", 5000);
  unwind_protect
    try
      gpu_sum (ones (1000, 3));
      error ("sanitize_sum: no out-of-memory error");
    catch err
      assert (err.identifier, "cudakernels:outofmemory");
    end_try_catch
  unwind_protect_cleanup
    __cudakernels__ ("settings", "test_alloc_limit", 0);
  end_unwind_protect
  assert (__cudakernels__ ("memory"), [0 0]);
  printf ("sanitize_sum: OK\n");
endfunction

function expect (y, r, kernel, cls)
  scale = max (1, max (abs (double (r(:)))));
  if (! isequal (size (y), size (r)) || ! strcmp (class (y), class (r))
      || any (abs (double (y(:)) - double (r(:))) > 1e-12 * scale * 100))
    error ("sanitize_sum: %s %s differs from the CPU reference", kernel, cls);
  endif
endfunction
