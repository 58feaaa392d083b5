## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{C} =} gpu_minplus (@var{A})
## @deftypefnx {} {@var{C} =} gpu_minplus (@var{A}, @var{B})
## @deftypefnx {} {@var{C} =} gpu_minplus (@dots{}, "kernel", @var{name})
## @deftypefnx {} {@var{C} =} gpu_minplus (@dots{}, "devices", @var{list})
## @deftypefnx {} {[@var{C}, @var{K}] =} gpu_minplus (@dots{})
## Min-plus (tropical) matrix product on the GPU.
##
## @code{gpu_minplus (@var{A}, @var{B})} returns the @var{m}-by-@var{n} matrix
## @tex
## $$ C_{ij} = \min_k \left( A_{ik} + B_{kj} \right) $$
## @end tex
## @ifnottex
## @code{C(i,j) = min_k A(i,k) + B(k,j)}
## @end ifnottex
## for an @var{m}-by-@var{k} matrix @var{A} and a @var{k}-by-@var{n} matrix
## @var{B}.  @code{gpu_minplus (@var{A})} is @code{gpu_minplus (@var{A}, @var{A})}
## for a square @var{A}: with @var{A} holding edge weights (@code{Inf} for no
## edge, 0 on the diagonal), it gives the shortest paths of at most two edges,
## and repeated squaring gives all shortest paths.
##
## The result is what Octave itself computes, element for element, with
## @code{reshape (min (A + permute (B, [3 1 2]), [], 2), m, n)}, much faster:
##
## @itemize
## @item NaN terms are ignored, as @code{min} ignores them; an element is NaN
## only when all its terms are NaN.  @code{Inf + (-Inf)} is NaN, so ignored.
## @item With @var{k} = 0 (no terms) every element is @code{Inf}, the identity
## of the min-plus product.  An empty @var{m} or @var{n} gives an empty result.
## @item The result has the class of the inputs: double, single, or an integer
## class up to 32 bits (int8, uint8, int16, uint16, int32, uint32).  A single
## and a double input give single, as in Octave's arithmetic; integer inputs
## must both be of the same class.
## @item Integer sums saturate as Octave's do, so @code{intmax} works as ``no
## edge'': @code{intmax + w} stays @code{intmax}.  With @var{k} = 0 an integer
## result is @code{intmax}, the identity of the minimum.
## @end itemize
##
## Pages: with @var{A} of size m-by-k-by-p@dots{} and @var{B} of size
## k-by-n-by-p@dots{}, @var{C} is m-by-n-by-p@dots{}, page by page, as
## @code{pagemtimes} pairs them: each dimension beyond the second matches, or
## is 1 on one side and is then broadcast.  @var{K} is paged alike.  Each page
## is exactly the 2-D product of its pages.  Small pages run in one launch of
## the default kernel for the whole call (for N-D broadcasting, one per run of
## pages that step evenly through @var{A} and @var{B}); pages of 2048-by-2048
## outputs or more run one by one, each filling the GPU.
##
## With a second output, @var{K}(i,j) is the @var{k} attaining the minimum,
## the path witness of shortest paths: exactly Octave's
## @code{[C, K] = min (A + permute (B, [3 1 2]), [], 2)}, so on ties the
## smallest @var{k}, and 1 where every term is NaN.  @var{K} is double; it is 0
## where there are no terms (@var{k} = 0).  It is computed only when asked for.
##
## The option @qcode{"kernel"} chooses the implementation (see
## @code{gpu_kernels ("minplus")}):
##
## @table @asis
## @item @qcode{"warptile"} (@qcode{"v3"}, the default)
## tiles staged in shared memory, warp tiles and a register block per thread;
## integers run on the DPX min-add instructions of Hopper GPUs (emulated on
## others), two 16-bit sums per instruction where the values allow, whenever
## no sum can overflow the instruction's word (otherwise as @qcode{"regblock"}).
## Small single and double products (up to 2^24 pair updates @var{m}@var{k}@var{n},
## @var{k} from 32 to 512) run in one launch whose warps share out @var{k};
## shallower ones as @qcode{"coalesced"}.
## Integer products first run on the guess that the operands are nonnegative
## (checked while the product runs); the first call with negative values or
## wider sums runs the product twice, and later ones check first, until
## nonnegative operands come again.
## Single and double operands whose values are all integers or @code{+Inf}
## run on the integer paths too, when the answer cannot differ: every value
## at most 2^23 (single) or 2^52 (double) in magnitude, so that every sum is
## exact in the class, no NaN, @code{-Inf} or @code{-0}, and the spreads
## (@code{max - min} of the finite values of @var{A} plus that of @var{B})
## below 32767 for the packed 16-bit path or 2^31 - 1 for the 32-bit one.
## @var{C} and @var{K} are then identical to the floating-point path's, element
## for element; anything else runs in the class.  The look at the values is one
## pass that stops at the first value ruling it out, and is made only for
## products of at least 2^36 (single) or 2^34 (double) pair updates
## @var{m}@var{k}@var{n} (n = 4096 and about 2600 for square products), where
## it costs under 2% of the product; smaller products run in the class.  A
## call is judged whole: a product of host arrays looks once, whatever panels
## it moves in.  The field @code{work} of @code{__cudakernels__ ("last_plan")}
## names the class the last product ran in;
## @item @qcode{"regblock"} (@qcode{"v2"})
## each GPU thread keeps an 8-by-8 block of @var{C} in registers;
## @item @qcode{"coalesced"} (@qcode{"v1"})
## one thread per element of @var{C}, neighbouring threads on neighbouring rows;
## @item @qcode{"naive"} (@qcode{"v0"})
## one thread per element, neighbouring threads on neighbouring columns
## (uncoalesced: for comparison only);
## @item @qcode{"cpu"}
## the multi-threaded CPU reference, which needs no GPU.
## @end table
##
## Several GPUs: a 2-D product's columns are shared out among the devices
## that the option @qcode{"devices"} lists (numbers as @code{gpu_device ()}
## shows them, e.g. @code{[1 2]}); each device takes the whole @var{A} and its
## own columns of @var{B}, and computes its columns of @var{C} (and @var{K})
## alone, so the result is the one-device result, element for element.
## Without the option a GPU kernel's 2-D product on host arrays uses every
## visible device from 8192^3 pair updates @var{m}@var{k}@var{n} on, and the
## selected one (@code{gpu_device}) below that; on gpu_arrays it runs on their
## own device (on two H200s spreading them gained for int16, not for single:
## doc/multigpu.md).  With gpu_arrays the result lives on their device (they must
## all live on one); the other devices work on copies of the operands, sent
## peer to peer where the GPUs allow it.  A failure on
## any device ends the call on all of them.  Paged products run on one device:
## @qcode{"devices"} may name one.
##
## Logical and 64-bit integer inputs are not supported.  Without a usable GPU a GPU
## kernel raises an error with identifier @code{cudakernels:nodevice}; when the
## device memory does not suffice, @code{cudakernels:outofmemory}; invalid
## arguments raise @code{cudakernels:invalidinput}.  The inputs are never
## modified and no device memory is kept after the call.
##
## Example: shortest paths in a small graph.
##
## @example
## @group
## D = [0 3 Inf; Inf 0 1; 2 Inf 0];
## D2 = gpu_minplus (D)
## @result{} D2 =
##      0     3     4
##      3     0     1
##      2     5     0
## @end group
## @end example
##
## @seealso{gpu_kernels, gpu_available, gpu_info, min}
## @end deftypefn

function [C, K] = gpu_minplus (A, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  [A, B, kernel, devices] = ck_matrix_args ("gpu_minplus", "minplus", "warptile",
                                            {"v0", "v1", "v2", "v3"}, A, varargin{:});
  if (nargout < 2)
    C = ck_product ("gpu_minplus", "min.+", A, B, kernel, devices);
  else
    [C, K] = ck_product ("gpu_minplus", "min.+", A, B, kernel, devices);
  endif
endfunction

## Test helpers.  The reference is Octave's own formulation of the product; the
## inputs (__ck_messy__, shared with tests/) mix integer ties, real values, NaN,
## +Inf and a few -Inf, with an all-NaN row of A and column of B so that some
## results are NaN.
%!function R = ref_minplus (A, B)
%!  m = rows (A); n = columns (B);
%!  if (columns (A) == 0)
%!    R = Inf (m, n, class (A + B));
%!  else
%!    R = reshape (min (A + permute (B, [3 1 2]), [], 2), m, n);
%!  endif
%!endfunction
%!function check_kernel (kernel, cls, shapes)
%!  for s = 1:rows (shapes)
%!    m = shapes(s, 1); k = shapes(s, 2); n = shapes(s, 3);
%!    A = __ck_messy__ ([m k], cls, mod (s, 2));
%!    B = __ck_messy__ ([k n], cls, mod (s + 1, 2));
%!    A0 = A + 0; B0 = B + 0;
%!    C = gpu_minplus (A, B, "kernel", kernel);
%!    if (m * k * n <= 2e7)
%!      R = ref_minplus (A, B);
%!    else
%!      R = gpu_minplus (A, B, "kernel", "cpu");
%!    endif
%!    assert (class (C), cls);
%!    assert (size (C), [m, n]);
%!    assert (isequal (isnan (C), isnan (R)),
%!            sprintf ("%s %s %dx%dx%d: NaN pattern differs", kernel, cls, m, k, n));
%!    assert (C, R, 0);
%!    assert (A, A0, 0); assert (B, B0, 0);   # inputs untouched
%!  endfor
%!endfunction

## ---- the CPU reference against Octave's formulation (runs everywhere) ----
%!test
%! shapes = [1 1 1; 2 2 2; 1 5 1; 7 1 9; 63 63 63; 65 65 65; 100 257 3; 3 7 130; ...
%!           600 20 17; 9 64 1];
%! check_kernel ("cpu", "double", shapes);
%! check_kernel ("cpu", "single", shapes);

%!test
%! A = [0 3 Inf; Inf 0 1; 2 Inf 0];
%! assert (gpu_minplus (A, "kernel", "cpu"), [0 3 4; 3 0 1; 2 5 0]);

%!function check_int_kernel (kernel, shapes)
%!  ## integers saturate in Octave's A + B: intmax as "no edge", intmin, and sums
%!  ## past either end must all come out as Octave's reference gives them
%!  for cls = {"int8", "uint8", "int16", "uint16", "int32", "uint32"}
%!    lo = double (intmin (cls{1})); hi = double (intmax (cls{1}));
%!    for s = 1:rows (shapes)
%!      m = shapes(s, 1); k = shapes(s, 2); n = shapes(s, 3);
%!      A = cast (randi ([lo hi], m, k), cls{1});
%!      B = cast (randi ([lo hi], k, n), cls{1});
%!      A(rand (m, k) < 0.2) = intmax (cls{1});
%!      B(rand (k, n) < 0.1) = intmin (cls{1});
%!      C = gpu_minplus (A, B, "kernel", kernel);
%!      assert (class (C), cls{1});
%!      if (k == 0)
%!        assert (C, repmat (intmax (cls{1}), m, n));
%!      else
%!        assert (C, ref_minplus (A, B), 0);
%!      endif
%!    endfor
%!  endfor
%!endfunction

%!function check_witness (kernel, shapes)
%!  ## [C, K] against Octave's [C, K] = min (A + permute (B, [3 1 2]), [], 2):
%!  ## integer-valued inputs give many ties, NaN rows give all-NaN terms, and
%!  ## integer sums that saturate tie at intmax/intmin
%!  for cls = {"double", "single", "int8", "int32", "uint16"}
%!    for s = 1:rows (shapes)
%!      m = shapes(s, 1); k = shapes(s, 2); n = shapes(s, 3);
%!      if (any (strcmp (cls{1}, {"double", "single"})))
%!        A = __ck_messy__ ([m k], cls{1}, true); B = __ck_messy__ ([k n], cls{1}, true);
%!      else
%!        A = cast (randi ([-3 3], m, k), cls{1}); B = cast (randi ([-3 3], k, n), cls{1});
%!        A(rand (m, k) < 0.3) = intmax (cls{1}); B(rand (k, n) < 0.2) = intmin (cls{1});
%!        B(rand (k, n) < 0.2) = intmax (cls{1});
%!      endif
%!      [C, K] = gpu_minplus (A, B, "kernel", kernel);
%!      assert (class (K), "double");
%!      if (k == 0)
%!        assert (K, zeros (m, n));
%!      else
%!        [R, RK] = min (A + permute (B, [3 1 2]), [], 2);
%!        assert (C, reshape (R, m, n), 0);
%!        assert (isequal (K, reshape (RK, m, n)),
%!                sprintf ("%s %s %dx%dx%d: witness differs", kernel, cls{1}, m, k, n));
%!      endif
%!    endfor
%!  endfor
%!endfunction

%!test
%! check_witness ("cpu", [1 1 1; 3 5 2; 40 17 33; 2 0 3; 65 64 1]);
%! [C, K] = gpu_minplus ([0 3 Inf; Inf 0 1; 2 Inf 0], "kernel", "cpu");
%! assert (K, [1 1 2; 3 2 2; 1 1 3]);   # ties go to the smallest k

%!test
%! check_int_kernel ("cpu", [1 1 1; 3 5 2; 40 17 33; 2 0 3; 65 64 1]);
%! A = int32 ([0 3 intmax; intmax 0 1; 2 intmax 0]);
%! assert (gpu_minplus (A, "kernel", "cpu"), int32 ([0 3 4; 3 0 1; 2 5 0]));

%!test
%! ## every term NaN -> NaN; Inf + -Inf is NaN and ignored; -Inf wins
%! A = [NaN NaN; Inf 1; -Inf 2];
%! B = [NaN 0; NaN -Inf];
%! assert (gpu_minplus (A, B, "kernel", "cpu"), [NaN NaN; NaN -Inf; NaN -Inf]);
%! assert (gpu_minplus (A, B, "kernel", "cpu"), ref_minplus (A, B));

%!test
%! ## k == 0 gives Inf; empty m or n gives an empty result of the right size and class
%! assert (gpu_minplus (zeros (3, 0), zeros (0, 4), "kernel", "cpu"), Inf (3, 4));
%! assert (gpu_minplus (zeros (3, 0, "single"), zeros (0, 2), "kernel", "cpu"), Inf (3, 2, "single"));
%! assert (size (gpu_minplus (zeros (0, 3), ones (3, 4), "kernel", "cpu")), [0 4]);
%! assert (size (gpu_minplus (ones (2, 3), zeros (3, 0), "kernel", "cpu")), [2 0]);
%! assert (size (gpu_minplus (zeros (0, 0), "kernel", "cpu")), [0 0]);

%!test
%! ## a single and a double input give single, computed in single
%! A = rand (5, 4); B = rand (4, 3, "single");
%! C = gpu_minplus (A, B, "kernel", "cpu");
%! assert (class (C), "single");
%! assert (C, ref_minplus (single (A), B), 0);
%! assert (class (gpu_minplus (B', single (A'), "kernel", "CPU")), "single");

## ---- argument checking (runs everywhere) ----
%!error <Invalid call> gpu_minplus ()
%!error id=cudakernels:invalidinput gpu_minplus (ones (2, 3))
%!error id=cudakernels:invalidinput gpu_minplus (ones (2, 3), ones (2, 3))
%!error <supported classes are double, single, int8> gpu_minplus (int64 (ones (2)))
%!error id=cudakernels:invalidinput gpu_minplus (uint8 (ones (2)), ones (2))
%!error <integer operands must both be of the same class> gpu_minplus (int8 (1), int16 (1))
%!error id=cudakernels:invalidinput gpu_minplus (true (2))
%!error id=cudakernels:invalidinput gpu_minplus (ones (2), int16 (ones (2)))
%!error id=cudakernels:invalidinput gpu_minplus (uint64 (ones (2)))
%!error id=cudakernels:invalidinput gpu_minplus ("ab")
%!error id=cudakernels:invalidinput gpu_minplus ({1})
%!error id=cudakernels:invalidinput gpu_minplus (struct ("a", 1))
%!error id=cudakernels:invalidinput gpu_minplus (ones (2) + 1i)
%!error <must be full> gpu_minplus (speye (2))
%!error id=cudakernels:invalidinput gpu_minplus (ones (2, 2, 2), ones (2, 2, 3))
%!error id=cudakernels:invalidinput gpu_minplus (ones (2), ones (2), "kernel")
%!error id=cudakernels:invalidinput gpu_minplus (ones (2), "kernel", "nosuch")
%!error id=cudakernels:invalidinput gpu_minplus (ones (2), "kernel", 2)
%!error id=cudakernels:invalidinput gpu_minplus (ones (2), "speed", "fast")
%!error <unknown kernel "nosuch"; the kernels are: naive, coalesced, regblock, warptile, cpu> ...
%! gpu_minplus (ones (2), "kernel", "nosuch")

## ---- without a GPU: a clear error, and Octave keeps working ----
%!testif ; ! gpu_available ()
%! for kernel = {"warptile", "regblock", "coalesced", "naive"}
%!   try
%!     gpu_minplus (ones (2), "kernel", kernel{1});
%!     error ("test:noerror", "no error without a GPU");
%!   catch err
%!     assert (err.identifier, "cudakernels:nodevice");
%!     assert (strncmp (err.message, "gpu_minplus: no usable GPU", 26));
%!   end_try_catch
%! endfor
%! assert (gpu_minplus (ones (2), "kernel", "cpu"), 2 * ones (2));

## ---- every GPU kernel against the reference, both classes, odd and non-square sizes ----
%!shared shapes
%! shapes = [1 1 1; 2 2 2; 63 63 63; 64 64 64; 65 65 65; 257 257 257; 1000 1000 1000; ...
%!           65 1 130; 1 300 1; 1 1 70; 100 257 3; 3 7 1000; 130 64 65; 200 1000 1; ...
%!           1 64 129; 127 129 191; 40 3000 30];   # 1000^3, 200x1000x1 and 40x3000x30 split k

%!testif ; gpu_available ()
%! check_kernel ("warptile", "single", shapes);
%! check_kernel ("warptile", "double", shapes);
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! check_kernel ("regblock", "single", shapes);
%! check_kernel ("regblock", "double", shapes);
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! check_kernel ("coalesced", "single", shapes);
%! check_kernel ("coalesced", "double", shapes);
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! check_kernel ("naive", "single", shapes);
%! check_kernel ("naive", "double", shapes);
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## integer classes on every GPU kernel, odd and non-square sizes
%! ishapes = [1 1 1; 2 3 4; 63 65 64; 65 63 129; 1 70 1; 130 1 3; 100 0 7; 200 300 100];
%! for kernel = {"warptile", "regblock", "coalesced", "naive"}
%!   check_int_kernel (kernel{1}, ishapes);
%! endfor
%! A = int16 (randi ([-300 300], 500, 400)); B = int16 (randi ([-300 300], 400, 300));
%! assert (gpu_minplus (A, B), gpu_minplus (A, B, "kernel", "cpu"));
%! assert (gather (gpu_minplus (gpu_array (A), B)), gpu_minplus (A, B, "kernel", "cpu"));
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## the witness on every GPU kernel, and through gpu_arrays
%! wshapes = [1 1 1; 3 5 2; 63 65 64; 65 63 129; 1 70 1; 130 1 3; 7 0 5; 200 300 100; ...
%!            60 1500 40];   # the last: few output tiles, so warptile splits k
%! for kernel = {"warptile", "regblock", "coalesced", "naive"}
%!   check_witness (kernel{1}, wshapes);
%! endfor
%! A = round (10 * rand (300, 200, "single")); B = round (10 * rand (200, 100, "single"));
%! [C, K] = gpu_minplus (A, B);
%! [CG, KG] = gpu_minplus (gpu_array (A), B);
%! assert (gather (CG), C); assert (gather (KG), K);
%! clear CG KG
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## small products share k among a block's warps (slices of 16 to 64 steps, staged 32
%! ## or 16 at a time) and fold the slices in order: ties across slices keep the
%! ## smallest k, NaN terms never win, whatever the slice or chunk boundaries
%! kshapes = [33 16 17; 32 31 16; 40 33 20; 64 128 16; 31 129 33; 17 512 9; 70 300 50; ...
%!            5 511 3; 256 256 256];
%! check_kernel ("warptile", "single", kshapes);
%! check_kernel ("warptile", "double", kshapes);
%! check_witness ("warptile", kshapes);
%! A = zeros (40, 200, "single"); B = zeros (200, 30, "single");
%! [C, K] = gpu_minplus (A, B);   # every term ties: the first k
%! assert (C, zeros (40, 30, "single")); assert (K, ones (40, 30));
%! A(:, 1:150) = NaN;             # the first slices all NaN: a later slice's first k
%! [C, K] = gpu_minplus (A, B);
%! assert (C, zeros (40, 30, "single")); assert (K, 151 * ones (40, 30));
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## the default is warptile; the vN aliases name the same kernels
%! A = __ck_messy__ ([70 70], "single", true);
%! R = ref_minplus (A, A);
%! assert (gpu_minplus (A), R, 0);
%! assert (gpu_minplus (A, "kernel", "v3"), R, 0);
%! assert (gpu_minplus (A, "kernel", "v0"), R, 0);
%! assert (gpu_minplus (A, A, "kernel", "V1"), R, 0);
%! assert (gpu_minplus (A, "kernel", "v2"), R, 0);

%!testif ; gpu_available ()
%! ## special values, k == 0, empty and mixed classes on the GPU
%! A = [NaN NaN; Inf 1; -Inf 2];
%! B = [NaN 0; NaN -Inf];
%! for kernel = {"warptile", "regblock", "coalesced", "naive"}
%!   assert (gpu_minplus (A, B, "kernel", kernel{1}), [NaN NaN; NaN -Inf; NaN -Inf]);
%!   assert (gpu_minplus (zeros (3, 0), zeros (0, 4), "kernel", kernel{1}), Inf (3, 4));
%!   assert (size (gpu_minplus (zeros (0, 3), ones (3, 4), "kernel", kernel{1})), [0 4]);
%!   assert (size (gpu_minplus (ones (2, 3), zeros (3, 0), "kernel", kernel{1})), [2 0]);
%!   C = gpu_minplus (rand (5, 4), rand (4, 3, "single"), "kernel", kernel{1});
%!   assert (class (C), "single");
%! endfor

%!testif ; gpu_available ()
%! ## more than 65535 tiles of columns: regblock launches its grid in slices
%! A = __ck_messy__ ([2 3], "single", false);
%! B = __ck_messy__ ([3 65535 * 64 + 70], "single", false);
%! assert (gpu_minplus (A, B), ref_minplus (A, B), 0);

%!testif ; gpu_available ()
%! ## results are bitwise identical from run to run
%! A = __ck_messy__ ([300 200], "single", false); B = __ck_messy__ ([200 100], "single", false);
%! C1 = gpu_minplus (A, B);
%! for r = 1:3
%!   assert (gpu_minplus (A, B), C1, 0);
%! endfor

%!testif ; gpu_available ()
%! ## more than the device memory: the product is cut into slices of rows, columns
%! ## and k (merged), and C and K come out exact; nothing is leaked
%! A = __ck_messy__ ([300 2000], "single", true); B = __ck_messy__ ([2000 250], "single", true);
%! Ai = int32 (randi ([-5 5], 200, 700)); Bi = int32 (randi ([-5 5], 700, 90));
%! Ai(rand (size (Ai)) < 0.3) = intmax ("int32");
%! [R, RK] = gpu_minplus (A, B, "kernel", "cpu");
%! [Ri, RKi] = gpu_minplus (Ai, Bi, "kernel", "cpu");
%! for limit = [2^22, 2^20]
%!   __cudakernels__ ("settings", "test_alloc_limit", limit);
%!   unwind_protect
%!     C = gpu_minplus (A, B);
%!     [C2, K] = gpu_minplus (A, B);
%!     [Ci, Ki] = gpu_minplus (Ai, Bi, "kernel", "regblock");
%!   unwind_protect_cleanup
%!     __cudakernels__ ("settings", "test_alloc_limit", 0);
%!   end_unwind_protect
%!   assert (C, R, 0); assert (C2, R, 0); assert (K, RK, 0);
%!   assert (Ci, Ri, 0); assert (Ki, RKi, 0);
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## out of device memory even for the smallest slice: an identified error,
%! ## nothing leaked, the next call works
%! A = rand (600, "single");
%! __cudakernels__ ("settings", "test_alloc_limit", 2^10);
%! unwind_protect
%!   try
%!     gpu_minplus (A);
%!     error ("test:noerror", "no error over the allocation limit");
%!   catch err
%!     assert (err.identifier, "cudakernels:outofmemory");
%!   end_try_catch
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", "test_alloc_limit", 0);
%! end_unwind_protect
%! assert (__ck_released__ ());
%! assert (gpu_minplus (A), ref_minplus (A, A), 0);

%!testif ; gpu_available ()
%! ## a real cudaMalloc failure (8 TB asked for), with no host memory involved
%! free0 = gpu_info ()(1).free_memory;
%! try
%!   __cudakernels__ ("time", "product", "min.+", "double", "regblock", [2^20 2^20 1], 0, 1);
%!   error ("test:noerror", "no error for an 8 TB allocation");
%! catch err
%!   assert (err.identifier, "cudakernels:outofmemory");
%! end_try_catch
%! assert (__ck_released__ ());
%! assert (gpu_minplus (ones (3)), 2 * ones (3));

%!testif ; gpu_available ()
%! ## many calls leave the device memory where it was
%! A = rand (512, "single");
%! gpu_minplus (A);
%! free0 = gpu_info ()(1).free_memory;
%! for r = 1:50
%!   gpu_minplus (A);
%! endfor
%! assert (__ck_released__ ());
%! assert (gpu_info ()(1).free_memory >= free0 - 2^24);

%!testif ; gpu_available ()
%! ## integers take the DPX path (timing inputs are 0..999, so no sum can wrap): far
%! ## faster than regblock's wide accumulation, on Hopper and on the emulation alike;
%! ## the probe of the DPX ceiling runs for every class
%! t_reg = median (__cudakernels__ ("time", "product", "min.+", "int32", "regblock", [2048 2048 2048], 1, 5));
%! t_dpx = median (__cudakernels__ ("time", "product", "min.+", "int32", "warptile", [2048 2048 2048], 1, 5));
%! assert (t_dpx < t_reg / 2, sprintf ("warptile %.2f ms, regblock %.2f ms", t_dpx, t_reg));
%! for cls = {"int8", "uint8", "int16", "uint16", "int32", "uint32"}
%!   assert (__cudakernels__ ("minplus_ceiling", cls{1}) > 0);
%! endfor

%!testif ; gpu_available ()
%! ## on a GPU the register-blocked kernel beats the naive one by a wide margin (median of 5)
%! t_naive = median (__cudakernels__ ("time", "product", "min.+", "single", "naive", [2048 2048 2048], 1, 5));
%! t_reg = median (__cudakernels__ ("time", "product", "min.+", "single", "regblock", [2048 2048 2048], 1, 5));
%! assert (t_reg < t_naive / 2, sprintf ("regblock %.2f ms, naive %.2f ms", t_reg, t_naive));

%!demo
%! ## All-pairs shortest paths by repeated min-plus squaring of a random graph.
%! n = 200;
%! W = 1 + 9 * rand (n);
%! W(rand (n) > 0.05) = Inf;          # sparse random edges
%! W(1:n+1:end) = 0;
%! D = W;
%! for step = 1:ceil (log2 (n))
%!   D = gpu_minplus (D);             # paths of up to 2^step edges
%! endfor
%! printf ("reachable pairs: %d of %d; longest shortest path: %.2f\n", ...
%!         nnz (isfinite (D)), n^2, max (D(isfinite (D))));

%!demo
%! ## The product against Octave's own formulation, and the time each takes.
%! A = rand (300, "single"); B = rand (300, "single");
%! tic; C = gpu_minplus (A, B); t_gpu = toc;
%! tic; R = reshape (min (A + permute (B, [3 1 2]), [], 2), 300, 300); t_oct = toc;
%! printf ("equal: %d; gpu_minplus %.4f s, Octave %.4f s\n", isequal (C, R), t_gpu, t_oct);
