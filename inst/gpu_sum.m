## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{y} =} gpu_sum (@var{x})
## @deftypefnx {} {@var{y} =} gpu_sum (@var{x}, @var{dim})
## @deftypefnx {} {@var{y} =} gpu_sum (@dots{}, @var{type})
## @deftypefnx {} {@var{y} =} gpu_sum (@dots{}, "kernel", @var{name})
## Sum of elements along dimension @var{dim}, on the GPU.
##
## @code{gpu_sum} follows Octave's @code{sum}: @var{dim} defaults to the first
## non-singleton dimension; vectors, matrices and N-D arrays of any numeric
## class, logical or char are accepted; the result has @code{size (@var{x})}
## with dimension @var{dim} reduced to 1, and the class Octave's @code{sum}
## gives:
##
## @itemize
## @item double and single inputs give their own class; integer, logical and
## char inputs give double.
## @item @var{type} @qcode{"double"} gives double for every input;
## @qcode{"extra"} is the same as @qcode{"double"} for single, and the default
## for other classes.
## @item @var{type} @qcode{"native"} sums integers in their own class, each
## addition saturating in order exactly as Octave does (for example
## @code{gpu_sum (int8 ([100 100 -100]), "native")} is 27); logical gives
## logical (true when any element is).
## @item NaN and Inf propagate as in any sum (@code{Inf + -Inf} is NaN); an
## empty dimension sums to 0.  Complex inputs sum their real and imaginary parts.
## @end itemize
##
## Every value is accumulated in double (integers up to 32 bits exactly, in
## 64-bit integers) and rounded once to the output class, so a single-precision
## sum is far more accurate than a single-precision running sum, and the result
## is the same bit for bit on every run.  It can differ from Octave's
## sequential sum in the last bits, since the terms are added in another order.
##
## The option @qcode{"kernel"} chooses a version of the reduction ladder (see
## @code{gpu_kernels ("sum")}), from M. Harris, @cite{Optimizing Parallel
## Reduction in CUDA}:
##
## @table @asis
## @item @qcode{"atomic"}
## one atomic addition per element (its rounding varies from run to run);
## @item @qcode{"pairwise"}
## repeated passes over global memory, each adding one half onto the other;
## @item @qcode{"interleaved"}, @qcode{"strided"}, @qcode{"sequential"}
## shared-memory trees: divergent, bank-conflicted, and conflict-free;
## @item @qcode{"twoload"}, @qcode{"warpunroll"}
## the first addition during the load; the last warp and the loop unrolled;
## @item @qcode{"shuffle"} (the default)
## 16-byte loads over a grid sized to the GPU, warp shuffles, one launch;
## @item @qcode{"cub"}
## NVIDIA's @code{cub::DeviceReduce}, for comparison;
## @item @qcode{"cpu"}
## the CPU reference, which needs no GPU.
## @end table
##
## The versions differ for sums along contiguous memory (the first non-singleton
## dimension); a sum along a later dimension uses one strided kernel whatever
## the name.  @qcode{"native"} integer sums have one kernel, the default.
##
## Errors: @code{cudakernels:nodevice} without a usable GPU,
## @code{cudakernels:outofmemory} when the device memory does not suffice,
## @code{cudakernels:invalidinput} for invalid arguments.
##
## @example
## @group
## gpu_sum ([1 2; 3 4])
## @result{} 4   6
## gpu_sum (int8 ([100 100 -100]), "native")
## @result{} 27
## @end group
## @end example
##
## @seealso{sum, gpu_kernels, gpu_minplus}
## @end deftypefn

function y = gpu_sum (x, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  [dim, type, kernel] = parse_arguments (varargin{:});
  if (isa (x, "gpu_array"))
    y = sum_on_device (x, dim, type, kernel);
    return;
  endif
  check_input (x);
  if (isempty (x) || (! isreal (x)))
    y = sum_special (x, dim, type, kernel);
    return;
  endif
  dim = default_dim (size (x), dim);
  if (islogical (x))
    if (strcmp (type, "native"))   # saturating at true: any
      y = gpu_sum (uint8 (x), dim, "kernel", kernel) > 0;
      return;
    endif
    x = uint8 (x);
  elseif (ischar (x))   # Octave sums char in double, "native" or not
    x = uint8 (x);
    type = ck_pick (strcmp (type, "native"), "default", type);
  endif
  [before, len, after, outsz, mode] = plan (size (x), dim, type, class (x));
  y = reshape (ck_call ("gpu_sum", "sum", x, before, len, after, mode, kernel), outsz);
endfunction

function dim = default_dim (sz, dim)
  if (isempty (dim))
    dim = find (sz != 1, 1);
    if (isempty (dim))
      dim = 1;
    endif
  endif
endfunction

## The sum as the gateway sees it: before-by-len-by-after, the output size,
## the accumulation mode and the output class.
function [before, len, after, outsz, mode, out] = plan (sz, dim, type, cls)
  mode = type;
  isfloat_cls = any (strcmp (cls, {"single", "double"}));
  if (strcmp (type, "extra"))
    mode = ck_pick (strcmp (cls, "single"), "double", "default");
  elseif (strcmp (type, "native") && isfloat_cls)
    mode = "default";
  endif
  if (strcmp (mode, "double") || (strcmp (mode, "default") && ! strcmp (cls, "single")))
    out = "double";
  else
    out = cls;
  endif
  sz(end+1:dim) = 1;
  before = prod (sz(1:dim-1));
  len = sz(dim);
  after = prod (sz(dim+1:end));
  outsz = sz;
  outsz(dim) = 1;
endfunction

## The same sum on a gpu_array, leaving the result on the device.
function y = sum_on_device (x, dim, type, kernel)
  cls = classUnderlying (x);
  sz = size (x);
  if (isempty (x))   # no data to move: Octave's sum of an empty array, uploaded
    y = gpu_array (sum (zeros (sz, cls), sum_args (dim, type){:}));
    return;
  endif
  if (strcmp (kernel, "cpu"))
    error ("cudakernels:invalidinput",
           "gpu_sum: the cpu kernel works on host arrays; gather the gpu_array first");
  endif
  dim = default_dim (sz, dim);
  [before, len, after, outsz, mode, out] = plan (sz, dim, type, cls);
  id = ck_call ("gpu_sum", "sum_dev", device_id (x), before, len, after, mode, kernel);
  y = gpu_array ("__cudakernels_wrap__", id, out, outsz);
endfunction


## Empty inputs hold no data to move, so Octave's own sum gives their exact
## shape and class; complex inputs are two real sums.
function y = sum_special (x, dim, type, kernel)
  if (isempty (x))
    y = sum (x, sum_args (dim, type){:});
  else
    args = [sum_args(dim, type), {"kernel", kernel}];
    y = complex (gpu_sum (real (x), args{:}), gpu_sum (imag (x), args{:}));
  endif
endfunction

## The DIM and TYPE arguments as given by the user, for passing on.
function args = sum_args (dim, type)
  args = {};
  if (! isempty (dim))
    args{end+1} = dim;
  endif
  if (! strcmp (type, "default"))
    args{end+1} = type;
  endif
endfunction

## DIM, if given, comes first; the type stands alone, as in Octave's sum.
function [dim, type, kernel] = parse_arguments (varargin)
  dim = [];
  args = varargin;
  if (! isempty (args) && ! ischar (args{1}))
    dim = ck_value ("gpu_sum", "DIM", args{1}, "index");
    args(1) = [];
  endif
  [type, kernel] = ck_options ("gpu_sum", args,
                               {"type", "default", {"native", "double", "extra", "default"}, true;
                                "kernel", "shuffle", @() gpu_kernels("sum"), false});
endfunction

function check_input (x)
  if (! (isnumeric (x) || islogical (x) || ischar (x)))
    error ("cudakernels:invalidinput",
           "gpu_sum: X must be a numeric, logical or char array, not %s", class (x));
  elseif (issparse (x))
    error ("cudakernels:invalidinput",
           "gpu_sum: X must be full, not sparse (use full (X), or Octave's sum)");
  endif
endfunction

## Test helpers: Octave's sum is the reference.  Floating-point sums are
## compared with a bound on the rounding of either order of summation.
%!function check_close (y, x, varargin)
%!  ## class, size and NaN/Inf as Octave's sum; values against the sum in
%!  ## double: rounded once to the class, plus the rounding of any order of
%!  ## double additions (len * eps * sum |x|).
%!  r = sum (x, varargin{:});
%!  rd = sum (double (x), varargin{:});
%!  assert (class (y), class (r));
%!  assert (size (y), size (r));
%!  assert (isequal (isnan (y), isnan (rd)));
%!  fin = isfinite (rd);
%!  assert (y(! fin), cast (rd(! fin), class (r)));
%!  if (isempty (varargin))
%!    len = size (x, find ([size(x) 2] != 1, 1));
%!  else
%!    len = size (x, varargin{1});
%!  endif
%!  scale = sum (abs (double (x)), varargin{:});
%!  tol = eps (class (r)) * abs (rd) + len * eps ("double") * scale;
%!  assert (all (abs (double (y(fin)(:)) - rd(fin)(:)) <= tol(fin)(:)));
%!endfunction
%!function check_kernel (kernel)
%!  for n = [1 2 31 32 33 255 256 257 511 512 513 1023 1024 1025 4099 65537]
%!    for cls = {"double", "single"}
%!      x = cast (randn (n, 1) * 100, cls{1});
%!      check_close (gpu_sum (x, "kernel", kernel), x);
%!      check_close (gpu_sum (x.', "kernel", kernel), x.');
%!    endfor
%!    xi = int32 (randi ([-2^31, 2^31-1], n, 1));
%!    assert (gpu_sum (xi, "kernel", kernel), sum (xi));
%!    xu = uint8 (randi ([0 255], 1, n));
%!    assert (gpu_sum (xu, "kernel", kernel), sum (xu));
%!  endfor
%!  A = randn (1000, 37);              # column sums: many segments
%!  check_close (gpu_sum (A, "kernel", kernel), A);
%!  check_close (gpu_sum (single (A), 1, "kernel", kernel), single (A), 1);
%!  B = int16 (randi ([-30000 30000], 33, 1030));
%!  assert (gpu_sum (B, "kernel", kernel), sum (B));
%!  assert (gpu_sum (B', 1, "kernel", kernel), sum (B', 1));
%!  assert (gpu_sum (B, 2, "kernel", kernel), sum (B, 2));
%!endfunction

## ---- the CPU reference, which CI runs without a GPU ----
%!test
%! check_kernel ("cpu");
%!test
%! x = reshape (1:24, 2, 3, 4);
%! for d = 1:4
%!   assert (gpu_sum (x, d, "kernel", "cpu"), sum (x, d));
%! endfor
%! assert (gpu_sum ([1 NaN 2], "kernel", "cpu"), NaN);
%! assert (gpu_sum ([Inf 1], "kernel", "cpu"), Inf);
%! assert (gpu_sum ([Inf -Inf], "kernel", "cpu"), NaN);
%! assert (gpu_sum ([-Inf 1; 2 NaN], "kernel", "cpu"), [-Inf NaN]);
%!test
%! ## native integer sums saturate at every step, in order, as Octave's do
%! x = int8 ([100 100 -100]);
%! assert (gpu_sum (x, "native", "kernel", "cpu"), int8 (27));
%! assert (gpu_sum (x, "kernel", "cpu"), 100);
%! for cls = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}
%!   lo = double (intmin (cls{1})); hi = double (intmax (cls{1}));
%!   x = cast (randi ([max(lo, -2^40), min(hi, 2^40)], 300, 7), cls{1});
%!   x(5:9, 2) = intmax (cls{1}); x(50:60, 3) = intmin (cls{1});
%!   assert (gpu_sum (x, "native", "kernel", "cpu"), sum (x, "native"));
%!   assert (gpu_sum (x, 2, "native", "kernel", "cpu"), sum (x, 2, "native"));
%! endfor
%!test
%! ## output classes and options, as Octave's sum
%! assert (class (gpu_sum (int32 ([1 2]), "kernel", "cpu")), "double");
%! assert (class (gpu_sum (single ([1 2]), "kernel", "cpu")), "single");
%! assert (class (gpu_sum (single ([1 2]), "double", "kernel", "cpu")), "double");
%! assert (class (gpu_sum (single ([1 2]), "extra", "kernel", "cpu")), "double");
%! assert (class (gpu_sum (single ([1 2]), "native", "kernel", "cpu")), "single");
%! assert (gpu_sum ([true true false], "kernel", "cpu"), 2);
%! assert (gpu_sum ([true true false], "native", "kernel", "cpu"), true);
%! assert (gpu_sum ("ab", "kernel", "cpu"), 195);
%! assert (gpu_sum ("ab", "native", "kernel", "cpu"), 195);
%! assert (gpu_sum ([1+2i, 3-1i], "kernel", "cpu"), 4 + 1i);
%! ## accumulated in double, rounded once: exact where a running single sum is not
%! assert (gpu_sum (single ([1e8 1 -1e8]), "kernel", "cpu"), single (1));
%!test
%! ## empty inputs and singleton dimensions, shaped as Octave's sum shapes them
%! for x = {[], zeros(0, 3), zeros(3, 0), zeros(1, 0), zeros(2, 0, 3), single([]), int8(zeros(0, 2))}
%!   assert (gpu_sum (x{1}), sum (x{1}));
%!   assert (gpu_sum (x{1}, 2), sum (x{1}, 2));
%! endfor
%! assert (gpu_sum (ones (2, 3), 4, "kernel", "cpu"), ones (2, 3));
%! assert (gpu_sum (5, "kernel", "cpu"), 5);

%!error <Invalid call> gpu_sum ()
%!error id=cudakernels:invalidinput gpu_sum ({1})
%!error id=cudakernels:invalidinput gpu_sum (struct ("a", 1))
%!error <must be full> gpu_sum (speye (3))
%!error id=cudakernels:invalidinput gpu_sum (ones (3), 0)
%!error id=cudakernels:invalidinput gpu_sum (ones (3), 1.5)
%!error id=cudakernels:invalidinput gpu_sum (ones (3), [1 2])
%!error id=cudakernels:invalidinput gpu_sum (ones (3), "fast")
%!error id=cudakernels:invalidinput gpu_sum (ones (3), "kernel")
%!error id=cudakernels:invalidinput gpu_sum (ones (3), "kernel", 3)
%!error <unknown kernel "nosuch"; the kernels are: atomic, pairwise> ...
%! gpu_sum (ones (3), "kernel", "nosuch")

## ---- without a GPU: a clear error, and Octave keeps working ----
%!testif ; ! gpu_available ()
%! try
%!   gpu_sum (ones (3));
%!   error ("test:noerror", "no error without a GPU");
%! catch err
%!   assert (err.identifier, "cudakernels:nodevice");
%!   assert (strncmp (err.message, "gpu_sum: no usable GPU", 22));
%! end_try_catch
%! assert (gpu_sum (ones (3), "kernel", "cpu"), [3 3 3]);

## ---- every GPU kernel against Octave's sum ----
%!testif ; gpu_available ()
%! for k = setdiff (gpu_kernels ("sum"), {"cpu"})
%!   check_kernel (k{1});
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## N-D, every dimension, NaN/Inf, a million and three elements
%! x = randn (3, 4, 5, 6);
%! for d = 1:5
%!   check_close (gpu_sum (x, d), x, d);
%! endfor
%! x = rand (1e6 + 3, 1);
%! x([7 77]) = [Inf -Inf];
%! assert (isnan (gpu_sum (x)));
%! x(77) = 0;
%! assert (gpu_sum (x), Inf);
%! x = rand (1e6 + 3, 1);
%! check_close (gpu_sum (x), x);
%! check_close (gpu_sum (single (x)), single (x));
%! check_close (gpu_sum (reshape (x(1:1e6), 1000, 1000), 2), reshape (x(1:1e6), 1000, 1000), 2);

%!testif ; gpu_available ()
%! ## integers: exact in double; native saturating in order, like Octave
%! for cls = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}
%!   lo = double (intmin (cls{1})); hi = double (intmax (cls{1}));
%!   x = cast (randi ([max(lo, -2^40), min(hi, 2^40)], 5000, 7), cls{1});
%!   x(5:900, 2) = intmax (cls{1}); x(50:2000, 3) = intmin (cls{1});
%!   if (any (strcmp (cls{1}, {"int64", "uint64"})))   # summed in double, as Octave does
%!     check_close (gpu_sum (x), x);
%!     check_close (gpu_sum (x, 2), x, 2);
%!   else                                              # exact
%!     assert (gpu_sum (x), sum (x));
%!     assert (gpu_sum (x, 2), sum (x, 2));
%!   endif
%!   assert (gpu_sum (x, "native"), sum (x, "native"));
%!   assert (gpu_sum (x, 2, "native"), sum (x, 2, "native"));
%!   assert (gpu_sum (x(:), "native"), sum (x(:), "native"));
%! endfor
%! assert (gpu_sum (int8 ([100 100 -100]), "native"), int8 (27));
%! assert (gpu_sum (logical ([1 0 1; 0 0 1])), [1 0 2]);
%! assert (gpu_sum (logical ([1 0 1; 0 0 1]), "native"), logical ([1 0 1]));
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## accuracy: 10^8 uniform singles within 1e-6 of the double sum
%! x = rand (1e8, 1, "single");
%! r = sum (double (x));
%! assert (abs (double (gpu_sum (x)) - r) / r <= 1e-6);
%! assert (abs (double (gpu_sum (x, "kernel", "cub")) - r) / r <= 1e-6);

%!testif ; gpu_available ()
%! ## the default and every fixed-order version give identical bits run to run
%! x = randn (3e6 + 1, 1, "single");
%! for k = {"shuffle", "pairwise", "sequential", "warpunroll", "cub"}
%!   y = gpu_sum (x, "kernel", k{1});
%!   for r = 1:3
%!     assert (gpu_sum (x, "kernel", k{1}), y, 0);
%!   endfor
%! endfor

%!testif ; gpu_available ()
%! ## misaligned starts (column sums of odd heights) and more than 65535 segments
%! x = randn (3, 70000, "single");
%! check_close (gpu_sum (x), x);
%! check_close (gpu_sum (x, "kernel", "warpunroll"), x);
%! check_close (gpu_sum (x, "kernel", "atomic"), x);
%! x = randn (7, 9999);
%! check_close (gpu_sum (x(2:end, :)), x(2:end, :));

%!testif ; gpu_available ()
%! ## out of device memory: an identified error, nothing leaked, the next call works
%! x = rand (1e6, 1);
%! __cudakernels__ ("settings", "test_alloc_limit", 2^20);
%! unwind_protect
%!   try
%!     gpu_sum (x);
%!     error ("test:noerror", "no error over the allocation limit");
%!   catch err
%!     assert (err.identifier, "cudakernels:outofmemory");
%!   end_try_catch
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", "test_alloc_limit", 0);
%! end_unwind_protect
%! assert (__ck_released__ ());
%! check_close (gpu_sum (x), x);

%!demo
%! ## The reduction ladder on 2^24 singles: time per version (events, median of 5).
%! x = rand (2^24, 1, "single");
%! for k = setdiff (gpu_kernels ("sum"), {"cpu"}, "stable")
%!   [t, y] = __cudakernels__ ("sum_time", x, 1, numel (x), 1, "default", k{1}, 1, 5);
%!   printf ("%-12s %8.3f ms  %7.1f GB/s  sum = %.6g\n", k{1}, median (t), ...
%!           4 * numel (x) / median (t) / 1e6, y);
%! endfor

%!demo
%! ## Octave's running single sum drifts; gpu_sum rounds once.
%! x = ones (1e7, 1, "single") * 0.1;
%! printf ("gpu_sum: %.7g   sum: %.7g   exact: %.7g\n", gpu_sum (x), sum (x), 1e6);
