## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{C} =} gpu_mxm (@var{A}, @var{B}, @var{semiring})
## @deftypefnx {} {@var{C} =} gpu_mxm (@dots{}, "kernel", @var{name})
## @deftypefnx {} {@var{C} =} gpu_mxm (@dots{}, "devices", @var{list})
## @deftypefnx {} {[@var{C}, @var{K}] =} gpu_mxm (@dots{})
## Matrix product over a semiring on the GPU.
##
## @code{gpu_mxm (@var{A}, @var{B}, @var{semiring})} returns the
## @var{m}-by-@var{n} matrix @code{C(i,j) = ADD_k MUL (A(i,k), B(k,j))} for an
## @var{m}-by-@var{k} matrix @var{A} and a @var{k}-by-@var{n} matrix @var{B},
## with ADD (the reduction over @var{k}) and MUL (how a term is made) taken
## from @var{semiring}:
##
## @multitable @columnfractions .18 .14 .12 .56
## @headitem @var{semiring} @tab ADD @tab MUL @tab what it answers
## @item @qcode{"min.+"} @tab min @tab + @tab shortest paths (as @code{gpu_minplus})
## @item @qcode{"max.+"} @tab max @tab + @tab Viterbi, longest and critical paths
## @item @qcode{"max.min"} @tab max @tab min @tab widest (bottleneck) paths
## @item @qcode{"min.max"} @tab min @tab max @tab minimax paths
## @item @qcode{"max.*"} @tab max @tab .* @tab most reliable paths
## @item @qcode{"or.and"} @tab | @tab & @tab reachability
## @end multitable
##
## The spellings of SuiteSparse:GraphBLAS's @@GrB interface are accepted too:
## @qcode{"min.plus"}, @qcode{"max.plus"}, @qcode{"max.times"} and
## @qcode{"lor.land"}; names are case-insensitive.
##
## The result is what Octave itself computes, element for element, with
## @code{reshape (ADD (MUL (A, permute (B, [3 1 2])), [], 2), m, n)}:
##
## @itemize
## @item NaN terms are ignored, as @code{min} and @code{max} ignore them; an
## element is NaN only when all its terms are NaN.  min and max as MUL ignore
## a NaN operand, as Octave's @code{min (a, b)} does; @code{Inf + (-Inf)} and
## @code{0 * Inf} are NaN terms.
## @item With @var{k} = 0 (no terms) every element is ADD's identity:
## @code{Inf} for min and @code{-Inf} for max (@code{intmax} and
## @code{intmin} for integers, false for @qcode{"or.and"}).
## @item The result has the class of the inputs.  @qcode{"min.+"},
## @qcode{"max.+"}, @qcode{"max.min"} and @qcode{"min.max"} take double,
## single and the integer classes up to 32 bits; integer terms saturate as
## Octave's arithmetic does.  @qcode{"max.*"} takes double and single only:
## an integer product saturates after a few factors, so no path problem is
## posed in integers.  A single and a double input give single; integer
## inputs must both be of the same class.  64-bit integers are refused: no
## wider type holds their sums exactly on the GPU.
## @item @qcode{"or.and"} takes logical or numeric inputs (nonzero is true, NaN
## an error, as in Octave's @code{&}) and returns a logical @var{C} equal to
## @code{any (A & permute (B, [3 1 2]), 2)}; it runs on bits, 32 or more
## pairs per instruction.
## @item Where -0 and +0 tie, the sign of a zero in @var{C} is Octave's in
## double max.min and min.max (ties keep the first); elsewhere on the GPU it is
## the sign the GPU's min and max instructions give.  @code{isequal} sees no
## difference.
## @end itemize
##
## With a second output, @var{K}(i,j) is the first @var{k} attaining
## @var{C}(i,j), Octave's @code{[C, K] = min (@dots{}, [], 2)} (or
## @code{max}): on ties the smallest @var{k}, 1 where every term is NaN, 0
## where there are no terms.  For @qcode{"or.and"} it is the first @var{k}
## with @code{A(i,k) & B(k,j)}, and 0 where there is none.  @var{K} is double
## and computed only when asked for.
##
## Pages (N-D operands paired as @code{pagemtimes} pairs them), gpu_arrays in
## and out, host arrays larger than the device, the option @qcode{"devices"}
## and the kernels are those of @code{gpu_minplus}: @qcode{"warptile"} (the
## default), @qcode{"regblock"}, @qcode{"coalesced"}, @qcode{"naive"} and
## @qcode{"cpu"} (the multi-threaded CPU reference, which needs no GPU).  On
## the GPU, the integer classes run on 32-bit words, or two 16-bit values to
## a word for the 8- and 16-bit classes: min.+ and max.+ on Hopper's DPX
## min-add and max-add instructions (sums that no word holds exactly run on
## @qcode{"regblock"}'s wide accumulation), max.min and min.max on two compares
## per pair (or per two pairs); min.+ also runs integer-valued single and
## double data on its integer paths.  max.min and min.max only compare, so
## large double products run on the ranks of their values among the distinct
## values of both operands (16-bit words for up to 65536 of them, else 32-bit),
## with the same C and K: a sort costs a little per value and the integer
## compares save much per pair (NaN, or -0 beside +0, keeps the double path).
## @qcode{"or.and"} runs bit-packed: @qcode{"warptile"}
## on the 1-bit tensor cores (AND and POPC, from Ampere on; 32-bit word
## operations before that), @qcode{"regblock"} on 32-bit word operations,
## @qcode{"naive"} and @qcode{"coalesced"} on a plain bit loop.
## @code{__cudakernels__ ("last_plan")} says which path ran.
##
## Errors carry the identifier @code{cudakernels:invalidinput} (an unknown
## semiring, a class the semiring does not take, complex or sparse input,
## sizes that do not agree), @code{cudakernels:nodevice} without a usable GPU
## and @code{cudakernels:outofmemory}; the inputs are never modified and no
## device memory is kept after the call.
##
## Example: widest paths of at most two edges (capacities, 0 for no edge).
##
## @example
## @group
## W = [Inf 5 0; 0 Inf 3; 2 0 Inf];
## gpu_mxm (W, W, "max.min", "kernel", "cpu")
## @result{}
##    Inf     5     3
##      2   Inf     3
##      2     2   Inf
## @end group
## @end example
##
## @seealso{gpu_minplus, gpu_apsp, gpu_kernels, min, max}
## @end deftypefn

function [C, K] = gpu_mxm (A, B, semiring, varargin)
  if (nargin < 3)
    print_usage ();
  endif
  sr = ck_semiring ("gpu_mxm", semiring, "SEMIRING");
  op = "minplus";
  if (strcmp (sr, "or.and"))
    A = ck_as_logical ("gpu_mxm", A, "A");
    B = ck_as_logical ("gpu_mxm", B, "B");
    op = "orand";
  endif
  [A, B, kernel, devices] = ck_matrix_args ("gpu_mxm", op, "warptile",
                                            {"v0", "v1", "v2", "v3"}, A, B, varargin{:});
  if (nargout < 2)
    C = ck_product ("gpu_mxm", sr, A, B, kernel, devices);
  else
    [C, K] = ck_product ("gpu_mxm", sr, A, B, kernel, devices);
  endif
endfunction

## Test helpers.  The reference is Octave's own formulation of the product.
%!function [C, K] = ref_mxm (A, B, sr)
%!  m = rows (A); k = columns (A); n = columns (B);
%!  Bp = permute (B, [3 1 2]);
%!  switch (sr)
%!    case "min.+",   T = A + Bp;      add = @min;
%!    case "max.+",   T = A + Bp;      add = @max;
%!    case "max.min", T = min (A, Bp); add = @max;
%!    case "min.max", T = max (A, Bp); add = @min;
%!    case "max.*",   T = A .* Bp;     add = @max;
%!    case "or.and",  T = A & Bp;      add = @max;
%!  endswitch
%!  if (k == 0)
%!    lo = isequal (add, @max);   # the identity of ADD, of the class
%!    if (islogical (T))
%!      T = false (m, 1, n);
%!    elseif (isinteger (T))
%!      T = repmat (merge (lo, intmin (class (T)), intmax (class (T))), m, 1, n);
%!    else
%!      T = repmat (cast (merge (lo, -Inf, Inf), class (T)), m, 1, n);
%!    endif
%!  endif
%!  [C, K] = add (T, [], 2);
%!  C = reshape (C, m, n); K = reshape (K, m, n);
%!  if (k == 0)
%!    K(:) = 0;
%!  endif
%!  if (strcmp (sr, "or.and"))
%!    C = logical (C);
%!    K(! C) = 0;
%!  endif
%!endfunction
%!function X = operand (dims, cls, s)
%!  if (strcmp (cls, "logical"))
%!    X = rand (dims) < 0.5 ^ (1 + mod (s, 4));
%!  elseif (any (strcmp (cls, {"double", "single"})))
%!    X = __ck_messy__ (dims, cls, mod (s, 2));
%!  else
%!    lo = double (intmin (cls)); hi = double (intmax (cls));
%!    X = cast (randi ([-5 5], dims), cls);   # ties
%!    u = rand (dims);
%!    X(u < 0.3) = cast (randi ([lo hi], nnz (u < 0.3), 1), cls);
%!    X(u > 0.9) = intmax (cls);
%!    X(u > 0.95) = intmin (cls);
%!  endif
%!endfunction
%!function classes = classes_of (sr)
%!  if (strcmp (sr, "or.and"))
%!    classes = {"logical"};
%!  elseif (strcmp (sr, "max.*"))
%!    classes = {"double", "single"};
%!  else
%!    classes = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32"};
%!  endif
%!endfunction
%!function check_semirings (kernel, shapes, semirings)
%!  for sr = semirings
%!    for cls = classes_of (sr{1})
%!      for s = 1:rows (shapes)
%!        m = shapes(s, 1); k = shapes(s, 2); n = shapes(s, 3);
%!        A = operand ([m k], cls{1}, s); B = operand ([k n], cls{1}, s + 1);
%!        A0 = A; B0 = B;
%!        [C, K] = gpu_mxm (A, B, sr{1}, "kernel", kernel);
%!        C1 = gpu_mxm (A, B, sr{1}, "kernel", kernel);
%!        if (m * k * n <= 2e6)
%!          [R, RK] = ref_mxm (A, B, sr{1});
%!        else
%!          [R, RK] = gpu_mxm (A, B, sr{1}, "kernel", "cpu");
%!        endif
%!        what = sprintf ("%s %s %s %dx%dx%d", sr{1}, kernel, cls{1}, m, k, n);
%!        assert (class (C), class (R), what);
%!        assert (isequaln (C, R), [what ": C differs"]);
%!        assert (isequaln (C1, R), [what ": C without K differs"]);
%!        assert (isequal (K, RK), [what ": K differs"]);
%!        assert (isequaln (A, A0) && isequaln (B, B0), [what ": inputs changed"]);
%!      endfor
%!    endfor
%!  endfor
%!endfunction

## ---- the CPU reference against Octave's formulation (runs everywhere) ----
%!test
%! semirings = {"min.+", "max.+", "max.min", "min.max", "max.*", "or.and"};
%! check_semirings ("cpu", [1 1 1; 3 5 2; 2 0 3; 40 17 33; 65 64 1; 1 70 9], semirings);

%!test
%! W = [Inf 5 0; 0 Inf 3; 2 0 Inf];
%! assert (gpu_mxm (W, W, "max.min", "kernel", "cpu"), [Inf 5 3; 2 Inf 3; 2 2 Inf]);
%! assert (gpu_mxm (W, W, "MAX.MIN", "kernel", "cpu"), [Inf 5 3; 2 Inf 3; 2 2 Inf]);
%! [C, K] = gpu_mxm ([1 2; 3 4], [5 6; 7 8], "max.plus", "kernel", "cpu");
%! assert (C, [9 10; 11 12]);
%! assert (K, [2 2; 2 2]);

%!test
%! ## or.and: numeric input is nonzero-is-true; K is 0 where nothing is reached
%! A = [0 2; 0 0; -1 0]; B = [1 0 0; 0 0 3];
%! [C, K] = gpu_mxm (A, B, "lor.land", "kernel", "cpu");
%! assert (C, logical ([0 0 1; 0 0 0; 1 0 0]));
%! assert (K, [0 0 2; 0 0 0; 1 0 0]);
%! assert (gpu_mxm (true (2, 0), true (0, 3), "or.and", "kernel", "cpu"), false (2, 3));

%!test
%! ## min.+ is gpu_minplus; the aliases are the same semirings
%! A = __ck_messy__ ([20 30]); B = __ck_messy__ ([30 10]);
%! assert (isequaln (gpu_mxm (A, B, "min.plus", "kernel", "cpu"),
%!                   gpu_minplus (A, B, "kernel", "cpu")));
%! assert (isequaln (gpu_mxm (A, B, "max.times", "kernel", "cpu"),
%!                   gpu_mxm (A, B, "max.*", "kernel", "cpu")));
%! ## k = 0 gives ADD's identity
%! assert (gpu_mxm (zeros (2, 0, "int8"), zeros (0, 3, "int8"), "max.min", "kernel", "cpu"),
%!         repmat (intmin ("int8"), 2, 3));
%! assert (gpu_mxm (zeros (2, 0), zeros (0, 1), "min.max", "kernel", "cpu"), Inf (2, 1));

## ---- argument checking (runs everywhere) ----
%!error <Invalid call> gpu_mxm ()
%!error <Invalid call> gpu_mxm (1, 2)
%!error <unknown semiring "min.times"> gpu_mxm (1, 2, "min.times")
%!error id=cudakernels:invalidinput gpu_mxm (1, 2, 3)
%!error <the max.\* product takes double, single, not int32> ...
%! gpu_mxm (int32 (1), int32 (2), "max.*", "kernel", "cpu")
%!error <NaN> gpu_mxm ([1 NaN], [1; 1], "or.and", "kernel", "cpu")
%!error id=cudakernels:invalidinput gpu_mxm (ones (2) + 1i, ones (2), "max.+")
%!error id=cudakernels:invalidinput gpu_mxm (ones (2, 3), ones (2, 3), "max.min")
%!error id=cudakernels:invalidinput gpu_mxm (int64 (1), int64 (1), "max.min")
%!error id=cudakernels:invalidinput gpu_mxm (ones (2), ones (2), "max.+", "kernel", "nosuch")
%!error id=cudakernels:invalidinput gpu_mxm (true (2), true (2), "max.+", "kernel", "cpu")

## ---- on the GPU: every semiring, class and kernel against the reference ----
%!shared shapes, small
%! shapes = [1 1 1; 3 5 2; 63 63 63; 65 65 65; 100 257 3; 65 1 130; 127 129 191; ...
%!           3 7 700; 40 3000 30];    # 40x3000x30 splits k
%! small = [1 1 1; 3 5 2; 65 64 1; 33 31 70];

%!testif ; gpu_available ()
%! check_semirings ("warptile", shapes, {"max.+", "max.min", "min.max", "max.*", "min.+"});
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## the integer classes run on words: max.+ on DPX max-add over shifted words,
%! ## max.min and min.max on words of the class's own order; at the edges
%! ## (saturation at both ends, the class's bounds, ties) every word path gives
%! ## the wide path's results (regblock) and the cpu kernel's
%! ints = {"int8", "uint8", "int16", "uint16", "int32", "uint32"};
%! for c = ints
%!   lo = double (intmin (c{1})); hi = double (intmax (c{1}));
%!   half = floor ((hi - max (lo, 0)) / 2);
%!   data = {@(d, s) operand (d, c{1}, s), ...                    # whole range: ties, bounds
%!           @(d, s) cast (randi ([0 half], d), c{1}), ...          # sums fit the class
%!           @(d, s) cast (hi - randi ([0 3], d), c{1}), ...        # all saturate at hi
%!           @(d, s) cast (lo + randi ([0 3], d), c{1})};           # at lo
%!   for sr = {"max.+", "max.min", "min.max"}
%!     for f = 1:numel (data)
%!       for sh = [1 70 9; 64 300 64; 33 513 17]'
%!         A = data{f} (sh(1:2)', f); B = data{f} (sh(2:3)', f + 1);
%!         [C, K] = gpu_mxm (A, B, sr{1});
%!         plan = __cudakernels__ ("last_plan");
%!         C1 = gpu_mxm (A, B, sr{1});
%!         [W, WK] = gpu_mxm (A, B, sr{1}, "kernel", "regblock");
%!         [R, RK] = gpu_mxm (A, B, sr{1}, "kernel", "cpu");
%!         what = sprintf ("%s %s data %d %dx%dx%d on %s", sr{1}, c{1}, f, sh, plan.words);
%!         assert (isequal (C, R) && isequal (C1, R) && isequal (W, R), [what ": C"]);
%!         assert (isequal (K, RK) && isequal (WK, RK), [what ": K"]);
%!         assert (plan.work, c{1});
%!         if (! strcmp (sr{1}, "max.+"))
%!           assert (plan.words, merge (isempty (strfind (c{1}, "32")), "u16x2", "u32"), what);
%!           assert (plan.shifts, "known", what);
%!         endif
%!       endfor
%!     endfor
%!   endfor
%! endfor
%! ## max.+ takes the packed words where the sums fit a half, else 32-bit ones
%! A = int16 (randi ([0 9], 64, 100)); B = int16 (randi ([0 9], 100, 64));
%! gpu_mxm (A, B, "max.+");
%! assert (__cudakernels__ ("last_plan").words, "u16x2");
%! gpu_mxm ([A; repmat(intmin ("int16"), 1, 100); repmat(intmax ("int16"), 1, 100)], B, "max.+");
%! assert (__cudakernels__ ("last_plan").words, "u32");
%! gpu_mxm (int32 (A), int32 (B), "max.+");
%! assert (__cudakernels__ ("last_plan").words, "u32");
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## small products: k shared among a block's warps, across slice and chunk boundaries
%! check_semirings ("warptile", [33 129 17; 64 512 16; 31 300 47; 20 33 40],
%!                  {"max.+", "max.min", "min.max", "max.*"});

%!testif ; gpu_available ()
%! check_semirings ("regblock", shapes(1:7, :), {"max.+", "max.min", "min.max", "max.*"});
%! check_semirings ("coalesced", small, {"max.+", "max.min", "min.max", "max.*"});
%! check_semirings ("naive", small, {"max.+", "max.min", "min.max", "max.*"});
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## or.and: k not a multiple of 32 or 256, empty, dense and full operands
%! sh = [1 1 1; 31 33 65; 63 257 65; 300 1000 200; 64 256 128; 129 513 77; 5 0 4];
%! words = struct ("warptile", "b1mma", "regblock", "lop3", "naive", "bits");
%! for kernel = {"warptile", "regblock", "naive"}
%!   check_semirings (kernel{1}, sh, {"or.and"});
%!   gpu_mxm (true (9, 40), true (40, 3), "or.and", "kernel", kernel{1});
%!   assert (__cudakernels__ ("last_plan").words, words.(kernel{1}));
%!   for fill = [false true]
%!     A = repmat (fill, 70, 300); B = repmat (fill, 300, 90);
%!     [C, K] = gpu_mxm (A, B, "or.and", "kernel", kernel{1});
%!     assert (C, repmat (fill, 70, 90));
%!     assert (K, repmat (double (fill), 70, 90));
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## pages, gpu_arrays and two shares on one GPU give the 2-D host result
%! for sr = {"max.+", "max.min", "max.*", "or.and"}
%!   cls = classes_of (sr{1});
%!   for c = unique (cls(unique ([1 min(5, end) end])))   # double, int16 and uint32
%!     A = operand ([70 50 3], c{1}, 1); B = operand ([50 40], c{1}, 2);
%!     [C, K] = gpu_mxm (A, B, sr{1});
%!     [G, GK] = gpu_mxm (gpu_array (A), gpu_array (B), sr{1});
%!     assert (isequaln (gather (G), C) && isequal (gather (GK), K));
%!     for q = 1:3
%!       [R, RK] = ref_mxm (A(:, :, q), B, sr{1});
%!       assert (isequaln (C(:, :, q), R) && isequal (K(:, :, q), RK), [sr{1} " page"]);
%!     endfor
%!     [S, SK] = gpu_mxm (A(:, :, 1), B, sr{1}, "devices", [1 1]);
%!     assert (isequaln (S, C(:, :, 1)) && isequal (SK, K(:, :, 1)), [sr{1} " shares"]);
%!     clear G GK;
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## 2-D products of whole tiles read as they are, without a packed copy: the
%! ## 8- and 16-bit classes two to a word, int32 words for max.+ (on the guess
%! ## of shift 0: the second call, as the first may follow a miss) and uint32
%! ## words for max.min and min.max; with and without K
%! for sr = {"max.+", "max.min", "min.max"}
%!   for c = {"int8", "uint8", "int16", "uint16", "int32", "uint32"}
%!     if (strcmp (sr{1}, "max.+"))
%!       A = cast (randi ([0 99], 256, 64), c{1}); B = cast (randi ([0 99], 64, 64), c{1});
%!       A(1, :) = idivide (intmax (c{1}), 2);   # sums up to the class's top
%!     else
%!       A = operand ([256 64], c{1}, 1); B = operand ([64 64], c{1}, 2);
%!     endif
%!     raw = ! ((strcmp (sr{1}, "max.+") && strcmp (c{1}, "uint32")) ||
%!              (! strcmp (sr{1}, "max.+") && strcmp (c{1}, "int32")));
%!     [R, RK] = gpu_mxm (A, B, sr{1}, "kernel", "cpu");
%!     gpu_mxm (A, B, sr{1});
%!     C = gpu_mxm (A, B, sr{1});
%!     what = [sr{1} " " c{1}];
%!     assert (isequal (logical (__cudakernels__ ("last_plan").raw), raw), what);
%!     [CK, K] = gpu_mxm (A, B, sr{1});
%!     assert (isequal (logical (__cudakernels__ ("last_plan").raw), raw), [what " with K"]);
%!     assert (isequal (C, R) && isequal (CK, R) && isequal (K, RK), what);
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## pages of whole tiles, which the kernels read as they are (the signed
%! ## classes' words flipped in registers), over each class's whole range
%! old = __cudakernels__ ("settings", "pages_mode", "batched");
%! restore = onCleanup (@() __cudakernels__ ("settings", old));
%! for c = {"int32", "uint32", "int16", "int8"}
%!   A = operand ([64 64 3], c{1}, 1); B = operand ([64 128 3], c{1}, 2);
%!   for sr = {"max.+", "max.min", "min.max"}
%!     C = gpu_mxm (A, B, sr{1});
%!     if (! strcmp (sr{1}, "max.+"))   # read as they are: known shifts, no guess
%!       assert (logical (__cudakernels__ ("last_plan").raw), [sr{1} " " c{1} " pages raw"]);
%!     endif
%!     for q = 1:3
%!       R = gpu_mxm (A(:, :, q), B(:, :, q), sr{1}, "kernel", "cpu");
%!       assert (isequal (C(:, :, q), R), sprintf ("%s %s page %d", sr{1}, c{1}, q));
%!     endfor
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## host arrays larger than the memory allowed: slices of rows, columns and k
%! for c = {"single", "int16"}
%! A = operand ([300 700], c{1}, 1); B = operand ([700 250], c{1}, 2);
%! for sr = {"max.+", "min.max"}
%!   [R, RK] = gpu_mxm (A, B, sr{1}, "kernel", "cpu");
%!   __cudakernels__ ("settings", "test_alloc_limit", 2^20);
%!   unwind_protect
%!     [C, K] = gpu_mxm (A, B, sr{1});
%!   unwind_protect_cleanup
%!     __cudakernels__ ("settings", "test_alloc_limit", 0);
%!   end_unwind_protect
%!   assert (isequaln (C, R) && isequal (K, RK), [sr{1} " " c{1} " sliced"]);
%!   assert (__cudakernels__ ("last_plan").move, "slices");
%!   __cudakernels__ ("settings", "test_alloc_limit", 2^20);
%!   unwind_protect
%!     C = gpu_mxm (A, B, sr{1});
%!   unwind_protect_cleanup
%!     __cudakernels__ ("settings", "test_alloc_limit", 0);
%!   end_unwind_protect
%!   assert (isequaln (C, R), [sr{1} " " c{1} " sliced, without K"]);
%! endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## numeric gpu_arrays for or.and convert on the device; NaN is refused there too
%! A = [0 2; 0 0; -1 0]; B = [1 0 0; 0 0 3];
%! C = gpu_mxm (gpu_array (A), gpu_array (single (B)), "or.and");
%! assert (classUnderlying (C), "logical");
%! assert (gather (C), logical ([0 0 1; 0 0 0; 1 0 0]));
%! fail ("gpu_mxm (gpu_array ([1 NaN]), gpu_array ([1; 1]), \"or.and\")", "NaN");
%! clear C;
%! assert (__ck_released__ ());

%!demo
%! ## Widest paths: the bottleneck capacity of the best route of at most two
%! ## edges, and the vertex it passes through.
%! W = [Inf 5 0 0; 0 Inf 3 7; 2 0 Inf 1; 0 4 6 Inf];
%! [C, K] = gpu_mxm (W, W, "max.min")

%!demo
%! ## Reachability in two steps on a random directed graph of 4096 vertices,
%! ## on the bits; the time against Octave's any (A & permute (A, [3 1 2]), 2)
%! ## would need a 64 GiB temporary.
%! G = sprand (4096, 4096, 1e-3) != 0;
%! tic; R = gpu_mxm (G, G, "or.and"); t = toc;
%! printf ("%d of %d pairs reachable in two steps, %.1f ms\n", nnz (R), numel (R), 1e3 * t);
