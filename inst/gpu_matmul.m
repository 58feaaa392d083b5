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
## @item @qcode{"regblock"}
## 2-D register blocking: each thread computes an 8-by-8 block (4-by-4 in
## double);
## @item @qcode{"vectorized"}
## the same with 16-byte loads and a transposed tile of @var{A};
## @item @qcode{"warptile"}
## warp-level tiling and double-buffered tiles;
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
  C = ck_product ("gpu_matmul", "matmul", A, B, kernel, devices);
endfunction

## Test helpers: Octave's product in double is the reference; the error is
## bounded by 2 k eps(class) relative to |A| * |B| (the rounding bound of a
## sum of k products, which holds however much the terms cancel; relative to
## the product itself, a column of m = n = 1 whose sum nearly cancels can
## exceed it), far below any indexing mistake.
%!function check_kernels (kernels, cls, shapes)
%!  ## one reference per shape (Octave's product in double), every kernel against it
%!  for s = 1:rows (shapes)
%!    m = shapes(s, 1); k = shapes(s, 2); n = shapes(s, 3);
%!    A = cast (randn (m, k), cls); B = cast (randn (k, n), cls);
%!    A0 = A + 0; B0 = B + 0;
%!    R = double (A) * double (B);
%!    scale = norm (abs (double (A)) * abs (double (B)), "fro");
%!    for i = 1:numel (kernels)
%!      C = gpu_matmul (A, B, "kernel", kernels{i});
%!      assert (class (C), cls);
%!      assert (size (C), [m n]);
%!      err = norm (double (C) - R, "fro") / max (scale, realmin);
%!      assert (err <= 2 * max (k, 1) * eps (cls),
%!              sprintf ("%s %s %dx%dx%d: relative error %g", kernels{i}, cls, m, k, n, err));
%!    endfor
%!    assert (A, A0, 0); assert (B, B0, 0);
%!  endfor
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
%!assert (gpu_kernels ("matmul"), {"naive", "tiled16", "tiled32", "regblock", ...
%!        "vectorized", "warptile", "cublas"})

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

%!demo
%! ## The ladder at n = 2048, single: device time per kernel (events, median of 5).
%! n = 2048;
%! for k = gpu_kernels ("matmul")
%!   t = median (__cudakernels__ ("matmul_time", "single", k{1}, n, n, n, 1, 5));
%!   printf ("%-11s %8.3f ms  %7.2f TFLOP/s\n", k{1}, t, 2 * n^3 / t / 1e9);
%! endfor
