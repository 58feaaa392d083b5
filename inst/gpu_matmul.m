## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{C} =} gpu_matmul (@var{A}, @var{B})
## @deftypefnx {} {@var{C} =} gpu_matmul (@var{A}, @var{B}, "kernel", @var{name})
## @deftypefnx {} {@var{C} =} gpu_matmul (@dots{}, "devices", @var{list})
## Matrix product @code{@var{A} * @var{B}} on the GPU, by a chosen kernel.
##
## @var{A} is @var{m}-by-@var{k} and @var{B} is @var{k}-by-@var{n}, of any
## shapes; the result is @var{m}-by-@var{n}, in the inputs' class (double or
## single; a single and a double input give single, as in Octave).  @var{k} = 0
## gives zeros.  NaN and Inf propagate as in any sum of products.
##
## Pages: with @var{A} of size m-by-k-by-p@dots{} and @var{B} of size
## k-by-n-by-p@dots{}, the product is taken page by page as @code{pagemtimes}
## does (each dimension beyond the second matches, or is 1 on one side and is
## broadcast); each page is the 2-D product of its pages by the same kernel.
## With @qcode{"warptile"} small pages run in one launch, with
## @qcode{"cublas"} as cuBLAS's strided batched product.
##
## The option @qcode{"kernel"} picks a rung of the ladder (see
## @code{gpu_kernels ("matmul")}), after Kirk & Hwu's tiled multiply and
## S. Boehm's @cite{How to Optimize a CUDA Matmul Kernel}:
##
## @table @asis
## @item @qcode{"naive"}
## one thread per element of @var{C}, uncoalesced;
## @item @qcode{"tiled16"}, @qcode{"tiled32"}
## shared-memory tiles of 16 or 32 (@code{TILE_WIDTH}), coalesced, with
## boundary checks;
## @item @qcode{"texture"}
## @qcode{"tiled32"} with its operands read through texture objects (the
## read-only texture cache path).  A linear texture holds a limited number of
## elements (of the order of 2^27, as the device reports): an operand beyond it
## is refused with @code{cudakernels:invalidinput};
## @item @qcode{"regblock"}
## 2-D register blocking: each thread computes an 8-by-8 block (4-by-4 in
## double);
## @item @qcode{"vectorized"}
## the same with 16-byte loads and a transposed tile of @var{A};
## @item @qcode{"warptile"}
## warp-level tiling and double-buffered tiles; where the output has too few
## tiles to fill the GPU and @var{k} is deep, @var{k} is split into slices
## whose partial sums are added in a fixed order (split-K: the same bits on
## every run; @code{__cudakernels__ ("last_plan").split} says how many);
## @item @qcode{"cublas"}
## NVIDIA's cuBLAS (@code{cublasSgemm}/@code{cublasDgemm}, default math
## mode), found at run time.
## @end table
##
## Several GPUs: the option @qcode{"devices"} shares a 2-D product's columns
## out among the listed devices, and the default does so for host arrays from
## 8192^3 multiply-adds on, exactly as for @code{gpu_minplus} (see there).
## Each column of @var{C} is the one device's column, within the same rounding
## bound (cuBLAS may pick another algorithm for a narrower product).
##
## The default is @qcode{"cublas"} where the library loads, else
## @qcode{"warptile"}.  The register-blocked kernels pad ragged operands on the
## device; the user never pads.  Errors: @code{cudakernels:nodevice} (no GPU,
## or cuBLAS asked for and missing), @code{cudakernels:outofmemory},
## @code{cudakernels:invalidinput}.
##
## @example
## @group
## A = rand (1000, 300, "single"); B = rand (300, 500, "single");
## C = gpu_matmul (A, B, "kernel", "tiled32");
## norm (C - A * B, "fro") / norm (A * B, "fro")
## @result{} about 1e-7
## @end group
## @end example
##
## @seealso{gpu_bench, gpu_timeit, gpu_kernels, mtimes}
## @end deftypefn

function C = gpu_matmul (A, B, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  [A, B, kernel, devices] = ck_matrix_args ("gpu_matmul", "matmul", "", {}, A, B, varargin{:});
  if (isempty (kernel))
    kernel = "warptile";
    if (! isempty (__cudakernels__ ("cublas")))
      kernel = "cublas";
    endif
  endif
  C = ck_product ("gpu_matmul", "+.*", A, B, kernel, devices);
endfunction

## Test helpers: Octave's product in double is the reference; the error is
## bounded by 2 k eps(class) relative to |A| * |B| (the rounding bound of a
## sum of k products, which holds however much the terms cancel; relative to
## the product itself, a column of m = n = 1 whose sum nearly cancels can
## exceed it), far below any indexing mistake.
%!function check_product (C, A, B, what)
%!  ## C against Octave's product of A and B in double, within the rounding bound
%!  [m, k] = size (A); n = columns (B); cls = class (A);
%!  assert (class (C), cls);
%!  assert (size (C), [m n]);
%!  R = double (A) * double (B);
%!  scale = norm (abs (double (A)) * abs (double (B)), "fro");
%!  err = norm (double (C) - R, "fro") / max (scale, realmin);
%!  assert (err <= 2 * max (k, 1) * eps (cls),
%!          sprintf ("%s %s %dx%dx%d: relative error %g", what, cls, m, k, n, err));
%!endfunction
%!function check_kernels (kernels, cls, shapes)
%!  ## fresh operands per shape, every kernel against Octave's product
%!  for s = 1:rows (shapes)
%!    A = cast (randn (shapes(s, 1), shapes(s, 2)), cls);
%!    B = cast (randn (shapes(s, 2), shapes(s, 3)), cls);
%!    A0 = A + 0; B0 = B + 0;
%!    for i = 1:numel (kernels)
%!      check_product (gpu_matmul (A, B, "kernel", kernels{i}), A, B, kernels{i});
%!    endfor
%!    assert (A, A0, 0); assert (B, B0, 0);
%!  endfor
%!endfunction
%!function check_refused (A, B)
%!  ## the texture kernel refuses an operand beyond its (lowered) limit
%!  try
%!    gpu_matmul (A, B, "kernel", "texture");
%!    error ("test:noerror", "an operand beyond the texture limit was accepted");
%!  catch err
%!    assert (err.identifier, "cudakernels:invalidinput");
%!    assert (! isempty (strfind (err.message, "linear texture")), err.message);
%!  end_try_catch
%!endfunction

%!error <Invalid call> gpu_matmul (1)
%!error id=cudakernels:invalidinput gpu_matmul (ones (2, 3), ones (2, 3))
%!error <supported classes are double, single> gpu_matmul (int8 (1), int8 (1))
%!error id=cudakernels:invalidinput gpu_matmul (ones (2), ones (2) + 1i)
%!error <must be full> gpu_matmul (speye (2), ones (2))
%!error id=cudakernels:invalidinput gpu_matmul (ones (2, 2, 2), ones (2, 2, 3))
%!error <unknown kernel "fast"; the kernels are: naive, tiled16> ...
%! gpu_matmul (ones (2), ones (2), "kernel", "fast")
%!error id=cudakernels:invalidinput gpu_matmul (ones (2), ones (2), "kernel")
%!assert (gpu_kernels ("matmul"), {"naive", "tiled16", "tiled32", "texture", ...
%!        "regblock", "vectorized", "warptile", "cublas"})

%!testif ; ! gpu_available ()
%! try
%!   gpu_matmul (ones (2), ones (2));
%!   error ("test:noerror", "no error without a GPU");
%! catch err
%!   assert (err.identifier, "cudakernels:nodevice");
%! end_try_catch

%!shared shapes
%! shapes = [1 1 1; 2 3 4; 63 65 64; 65 63 129; 128 128 128; 129 17 255; 1 300 1; ...
%!           300 1 300; 1000 1000 1000; 1000 37 3; 3 1025 1000; 257 513 129];

%!testif ; gpu_available ()
%! check_kernels (gpu_kernels ("matmul"), "single", shapes);
%! check_kernels (gpu_kernels ("matmul"), "double", shapes);
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## k == 0, empty results, mixed classes, NaN and Inf, the default kernel
%! for k = gpu_kernels ("matmul")
%!   assert (gpu_matmul (zeros (3, 0), zeros (0, 4), "kernel", k{1}), zeros (3, 4));
%!   assert (size (gpu_matmul (zeros (0, 3), ones (3, 4), "kernel", k{1})), [0 4]);
%!   assert (class (gpu_matmul (ones (2), ones (2, "single"), "kernel", k{1})), "single");
%!   A = ones (70, 40); A(5, 7) = NaN; A(9, 8) = Inf;
%!   B = ones (40, 90);
%!   C = gpu_matmul (A, B, "kernel", k{1});
%!   assert (isequal (isnan (C), isnan (A * B)) && isequal (isinf (C), isinf (A * B)));
%! endfor
%! A = rand (100, 80); B = rand (80, 60);
%! assert (gpu_matmul (A, B), A * B, -1e-12);

%!testif ; gpu_available ()
%! ## texture: ragged shapes in both classes, host arrays and gpu_arrays, pages (each page
%! ## starts off the texture alignment, so the kernel reads from an offset), k = 0
%! shapes = [1 1 1; 1 63 1; 63 1 65; 65 63 1; 63 65 64; 65 64 63; 1 65 130; 130 33 1; ...
%!           7 300 5; 257 31 129];
%! for cls = {"single", "double"}
%!   check_kernels ({"texture"}, cls{1}, shapes);
%!   for s = 1:rows (shapes)
%!     A = cast (randn (shapes(s, 1), shapes(s, 2)), cls{1});
%!     B = cast (randn (shapes(s, 2), shapes(s, 3)), cls{1});
%!     G = gpu_matmul (gpu_array (A), gpu_array (B), "kernel", "texture");
%!     check_product (gather (G), A, B, "texture, gpu_array");
%!   endfor
%!   A = cast (randn (65, 17, 3), cls{1}); B = cast (randn (17, 30, 3), cls{1});
%!   C = gpu_matmul (A, B, "kernel", "texture");
%!   G = gather (gpu_matmul (gpu_array (A), gpu_array (B(:, :, 2)), "kernel", "texture"));
%!   for q = 1:3
%!     check_product (C(:, :, q), A(:, :, q), B(:, :, q), sprintf ("texture, page %d", q));
%!     check_product (G(:, :, q), A(:, :, q), B(:, :, 2), sprintf ("texture, gpu_array page %d", q));
%!   endfor
%!   assert (gpu_matmul (zeros (3, 0, cls{1}), zeros (0, 4, cls{1}), "kernel", "texture"),
%!           zeros (3, 4, cls{1}));
%!   assert (gather (gpu_matmul (gpu_array (zeros (3, 0, cls{1})), gpu_array (zeros (0, 4, cls{1})),
%!                               "kernel", "texture")), zeros (3, 4, cls{1}));
%! endfor
%! clear G
%! assert (isequal (__cudakernels__ ("memory"), [0 0]));

%!testif ; gpu_available ()
%! ## texture: an operand beyond what a linear texture holds is refused, whichever operand it
%! ## is, and nothing is left behind; the limit is lowered to 1000 elements for the test (an
%! ## operand may start up to 127 elements past the aligned address its texture covers)
%! old = __cudakernels__ ("settings", "test_texture_limit", 1000);
%! unwind_protect
%!   for cls = {"single", "double"}
%!     A = cast (randn (10, 50), cls{1}); B = cast (randn (50, 12), cls{1});
%!     check_product (gpu_matmul (A, B, "kernel", "texture"), A, B, "texture under the limit");
%!     check_refused (cast (randn (40, 30), cls{1}), cast (randn (30, 5), cls{1}));
%!     check_refused (cast (randn (5, 30), cls{1}), cast (randn (30, 40), cls{1}));
%!     check_refused (gpu_array (cast (randn (5, 300), cls{1})), gpu_array (cast (randn (300, 2), cls{1})));
%!     check_product (gpu_matmul (A, B, "kernel", "tiled32"), A, B, "tiled32 beside the limit");
%!   endfor
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert (isequal (__cudakernels__ ("memory"), [0 0]));

%!testif ; gpu_available ()
%! ## warptile's split-K: few output tiles over a deep k, ragged too, single and double, host
%! ## arrays and gpu_arrays, within the same bound as the unsplit kernel; the plan says it split
%! shapes = [256 8192 256; 64 16384 64; 1000 5000 30; 65 4099 33; 1 5000 1; 130 9001 7; ...
%!           129 10001 257];
%! for cls = {"single", "double"}
%!   check_kernels ({"warptile"}, cls{1}, shapes);
%!   A = cast (randn (64, 16384), cls{1}); B = cast (randn (16384, 64), cls{1});
%!   check_product (gpu_matmul (A, B, "kernel", "warptile"), A, B, "warptile, split");
%!   plan = __cudakernels__ ("last_plan");
%!   assert (plan.split > 1 && isequal (plan.tile, [128 128 8]), "64x16384x64 ran unsplit");
%!   G = gpu_matmul (gpu_array (A), gpu_array (B), "kernel", "warptile");
%!   assert (isa (G, "gpu_array"));
%!   check_product (gather (G), A, B, "warptile, split, gpu_array");
%!   assert (__cudakernels__ ("last_plan").split > 1);
%!   A = cast (randn (65, 4099), cls{1}); B = cast (randn (4099, 33), cls{1});
%!   G = gpu_matmul (gpu_array (A), gpu_array (B), "kernel", "warptile");
%!   check_product (gather (G), A, B, "warptile, split, ragged gpu_array");
%!   ## NaN and Inf in one slice reach the sum through the planes
%!   A = ones (40, 5000, cls{1}); B = ones (5000, 30, cls{1});
%!   A(3, 4500) = NaN; A(7, 100) = Inf; B(2500, 9) = -Inf;
%!   C = gpu_matmul (A, B, "kernel", "warptile");
%!   R = A * B;
%!   assert (isequal (isnan (C), isnan (R)) && isequal (C(isinf (R)), R(isinf (R))));
%! endfor
%! clear G
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## split-K sums in a fixed order: two runs give the same bits, host arrays and gpu_arrays
%! for cls = {"single", "double"}
%!   A = cast (randn (256, 8192), cls{1}); B = cast (randn (8192, 256), cls{1});
%!   C1 = gpu_matmul (A, B, "kernel", "warptile");
%!   assert (__cudakernels__ ("last_plan").split > 1);
%!   C2 = gpu_matmul (A, B, "kernel", "warptile");
%!   G = gather (gpu_matmul (gpu_array (A), gpu_array (B), "kernel", "warptile"));
%!   word = {"uint32", "uint64"}{1 + strcmp(cls{1}, "double")};
%!   assert (isequal (typecast (C1(:), word), typecast (C2(:), word)), [cls{1} ": runs differ"]);
%!   assert (isequal (typecast (C1(:), word), typecast (G(:), word)), [cls{1} ": gpu_array differs"]);
%!   check_product (C1, A, B, "warptile, split, twice");
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## pages of deep k with few tiles run one by one, each split; a shallow batch stays in one
%! ## launch
%! A = single (randn (64, 4096, 3)); B = single (randn (4096, 64, 3));
%! C = gpu_matmul (A, B, "kernel", "warptile");
%! plan = __cudakernels__ ("last_plan");
%! assert ({plan.batched_runs, plan.single_pages}, {0, 3});
%! assert (plan.split > 1);
%! for q = 1:3
%!   check_product (C(:, :, q), A(:, :, q), B(:, :, q), sprintf ("warptile, split page %d", q));
%! endfor
%! A = single (randn (64, 100, 3)); B = single (randn (100, 64, 3));
%! C = gpu_matmul (A, B, "kernel", "warptile");
%! assert (__cudakernels__ ("last_plan").batched_runs, 1);
%! for q = 1:3
%!   check_product (C(:, :, q), A(:, :, q), B(:, :, q), sprintf ("warptile, page %d", q));
%! endfor

%!demo
%! ## The ladder at n = 2048, single: device time per kernel (events, median of 5).
%! n = 2048;
%! for k = gpu_kernels ("matmul")
%!   t = median (__cudakernels__ ("time", "product", "+.*", "single", k{1}, [n n n], 1, 5));
%!   printf ("%-11s %8.3f ms  %7.2f TFLOP/s\n", k{1}, t, 2 * n^3 / t / 1e9);
%! endfor
