## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## Products spread over several GPUs (issue 19): the option "devices" of
## gpu_minplus and gpu_matmul shares C's columns among devices, each running
## the one-device code on its panel.  On one GPU the spread runs as two or
## three workers on that GPU ("devices", [1 1]): every panel, the threads, the
## lanes (each worker's own staging buffers), the error path and, with
## __cudakernels__ ("settings", "spread_copies", true), the copies a worker on another
## device makes of gpu_array operands are exercised; only the gain needs two
## GPUs.  Min-plus must equal the one-device result exactly (C, K, NaN
## pattern) in every class; matmul within rounding.  Run by tests/run_tests.m.

%!function check_spread (op, A, B, devices, varargin)
%!  ## op on devices against op on one device, host arrays and gpu_arrays
%!  witness = strcmp (func2str (op), "gpu_minplus");
%!  if (witness)
%!    [R, RK] = op (A, B, "devices", 1, varargin{:});
%!    [C, K] = op (A, B, "devices", devices, varargin{:});
%!    assert (isequal (K, RK), "K differs");
%!    assert (isequaln (C, R), "C differs");
%!    [G, GK] = op (gpu_array (A), gpu_array (B), "devices", devices, varargin{:});
%!    assert (isequaln (gather (G), R), "C of gpu_arrays differs");
%!    assert (isequal (gather (GK), RK), "K of gpu_arrays differs");
%!  else
%!    R = op (A, B, "devices", 1, varargin{:});
%!    C = op (A, B, "devices", devices, varargin{:});
%!    G = gather (op (gpu_array (A), gpu_array (B), "devices", devices, varargin{:}));
%!    tol = 8 * eps (class (R)) * max (abs (R(:))) * max (size (A, 2), 1);
%!    assert (C, R, tol);
%!    assert (G, R, tol);
%!  endif
%!  assert (size (C), [rows(A) columns(B)]);
%!endfunction
%!function X = ints (r, c, cls)
%!  X = cast (randi ([0 999], r, c), cls);
%!endfunction

## every class, ragged sizes: fewer columns than workers' panels, one panel, a
## ragged last panel
%!testif ; gpu_available ()
%! for cls = {"double", "single", "int32", "int16", "uint8", "int8", "uint16", "uint32"}
%!   for s = [1 1 1; 63 17 65; 65 64 129; 300 200 257; 1000 100 700]'
%!     check_spread (@gpu_minplus, ints (s(1), s(2), cls{1}), ints (s(2), s(3), cls{1}), [1 1]);
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! for s = [1 1 1; 63 17 65; 200 300 513; 1000 64 1000]'
%!   A = __ck_messy__ (s(1:2)); B = __ck_messy__ (s(2:3));
%!   check_spread (@gpu_minplus, A, B, [1 1]);
%!   check_spread (@gpu_minplus, single (A), single (B), [1 1 1]);
%!   check_spread (@gpu_minplus, A, B, [1 1], "kernel", "regblock");
%! endfor
%! check_spread (@gpu_minplus, zeros (5, 0), zeros (0, 300), [1 1]);   # k = 0: Inf
%! assert (size (gpu_minplus (zeros (0, 4), ones (4, 300), "devices", [1 1])), [0 300]);
%! assert (__ck_released__ ());

## integer-valued single and double data on the integer paths, per panel
%!testif ; gpu_available ()
%! old = __cudakernels__ ("settings", "minplus_narrow", "always");
%! unwind_protect
%!   A = randi ([0 3000], 500, 300); B = randi ([0 3000], 300, 600);
%!   B(:, 400:end) += 0.5;                    # the second panel cannot narrow
%!   check_spread (@gpu_minplus, A, B, [1 1]);
%!   check_spread (@gpu_minplus, single (A), single (B), [1 1]);
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect

## large enough for several pipelined panels per worker (32 MiB each)
%!testif ; gpu_available ()
%! A = ints (3000, 500, "single"); B = ints (500, 6000, "single");
%! check_spread (@gpu_minplus, A, B, [1 1]);
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! for s = [1 1 1; 63 17 65; 300 200 257; 1000 300 1000]'
%!   A = randn (s(1), s(2)); B = randn (s(2), s(3));
%!   for kern = {"cublas", "warptile", "tiled16"}
%!     check_spread (@gpu_matmul, A, B, [1 1], "kernel", kern{1});
%!     check_spread (@gpu_matmul, single (A), single (B), [1 1], "kernel", kern{1});
%!   endfor
%! endfor
%! assert (__ck_released__ ());

## gpu_array operands copied to each worker's device, as on another GPU
%!testif ; gpu_available ()
%! old = __cudakernels__ ("settings", "spread_copies", true);
%! unwind_protect
%!   check_spread (@gpu_minplus, ints (65, 70, "int16"), ints (70, 300, "int16"), [1 1]);
%!   check_spread (@gpu_minplus, __ck_messy__ ([130 40]), __ck_messy__ ([40 400]), [1 1]);
%!   check_spread (@gpu_minplus, __ck_messy__ ([130 40]), __ck_messy__ ([40 400]), 1);
%!   check_spread (@gpu_matmul, randn (100, 50), randn (50, 300), [1 1], "kernel", "cublas");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert (__ck_released__ ());

## the default: one device below the threshold, and with one GPU always
%!testif ; gpu_available ()
%! A = ints (64, 64, "single");
%! assert (gpu_minplus (A), gpu_minplus (A, "devices", 1));

## a failure on one worker ends the call on all, with the usual error, and
## frees everything; Octave and the device stay usable
%!testif ; gpu_available ()
%! A = ints (2000, 300, "single"); B = ints (300, 2000, "single");
%! G = gpu_array (A(1:100, 1:10)); H = gpu_array (B(1:10, :));
%! old = __cudakernels__ ("settings", "spread_copies", true);
%! unwind_protect
%!   __cudakernels__ ("settings", "test_alloc_limit", 1e4);    # no worker can start
%!   try
%!     gpu_minplus (A, B, "devices", [1 1]);
%!     error ("test:noerror", "no out-of-memory error");
%!   catch err
%!     assert (err.identifier, "cudakernels:outofmemory");
%!     assert (! isempty (strfind (err.message, "on device 1")));
%!   end_try_catch
%!   ## C (800 kB) fits, the workers' copies (444 kB each) do not
%!   __cudakernels__ ("settings", "test_alloc_limit", 1e6);
%!   try
%!     gpu_minplus (G, H, "devices", [1 1]);
%!     error ("test:noerror", "no out-of-memory error");
%!   catch err
%!     assert (err.identifier, "cudakernels:outofmemory");
%!   end_try_catch
%!   ## room for one worker at a time, or for both: an answer or the error
%!   __cudakernels__ ("settings", "test_alloc_limit", 9e6);
%!   try
%!     assert (gpu_minplus (A, B, "devices", [1 1]), gpu_minplus (A, B, "kernel", "cpu"));
%!   catch err
%!     assert (err.identifier, "cudakernels:outofmemory");
%!   end_try_catch
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! clear G H
%! assert (__ck_released__ ());
%! assert (gpu_minplus (A, B, "devices", [1 1]), gpu_minplus (A, B));

## bad device lists
%!testif ; gpu_available ()
%! n = gpu_device_count ();
%! A = ones (3);
%! for bad = {0, n + 1, [1 n + 1], 1.5, ones(1, 9), [], "a", {1}}
%!   try
%!     gpu_minplus (A, A, "devices", bad{1});
%!     error ("test:noerror", "devices %s raised no error", disp (bad{1}));
%!   catch err
%!     assert (err.identifier, "cudakernels:invalidinput");
%!   end_try_catch
%! endfor
%! try
%!   gpu_minplus (A, A, "kernel", "cpu", "devices", 1);
%!   error ("test:noerror", "cpu with devices raised no error");
%! catch err
%!   assert (err.identifier, "cudakernels:invalidinput");
%! end_try_catch

## paged products run on one device
%!testif ; gpu_available ()
%! A = ints (5, 4, "single"); A(:, :, 2) = ints (5, 4, "single");
%! B = ints (4, 3, "single");
%! assert (gpu_minplus (A, B, "devices", 1), gpu_minplus (A, B));
%! try
%!   gpu_minplus (A, B, "devices", [1 1]);
%!   error ("test:noerror", "paged with two devices raised no error");
%! catch err
%!   assert (err.identifier, "cudakernels:invalidinput");
%! end_try_catch
%! assert (nnz ([gpu_device().selected]), 1);
%! assert (gpu_device ()(1).selected || gpu_device_count () > 1);

## two GPUs: the same answers spread over both, from host arrays and from
## gpu_arrays on either device, and the error path on both
%!testif ; gpu_device_count () >= 2
%! for cls = {"single", "int16", "double"}
%!   A = ints (1000, 300, cls{1}); B = ints (300, 1500, cls{1});
%!   check_spread (@gpu_minplus, A, B, [1 2]);
%!   check_spread (@gpu_minplus, A, B, [2 1]);
%! endfor
%! check_spread (@gpu_matmul, randn (500, 300), randn (300, 700), [1 2], "kernel", "cublas");
%! A = ints (400, 200, "single"); B = ints (200, 500, "single");
%! G = gpu_array (A, "device", 2);
%! H = gpu_minplus (G, B, "devices", [1 2]);     # B goes to device 2, H lives there
%! [~, ~, where] = __cudakernels__ ("array_info", device_id (H));
%! assert (where, 2);
%! assert (gather (H), gpu_minplus (A, B, "kernel", "cpu"));
%! clear G H
%! assert (__ck_released__ ());

%!testif ; ! gpu_available ()
%! try
%!   gpu_minplus (ones (3), "devices", 1);
%!   error ("test:noerror", "devices without a GPU raised no error");
%! catch err
%!   assert (err.identifier, "cudakernels:nodevice");
%! end_try_catch
