## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## Paged products (issue 18): gpu_minplus and gpu_matmul on operands with
## dimensions beyond the second, broadcast as pagemtimes does (each page
## dimension matches or is 1 on one side).  Every page must be the 2-D form's
## of the pages it takes, exactly: C, K and NaN patterns; ragged sizes, p = 1,
## p = 0, broadcast on either side, integer classes, the one-operand form,
## host arrays and gpu_arrays, and the errors.  Pages run in one launch per
## run of pages ("batched", counted in the plan of each call,
## __cudakernels__ ("last_plan")) and page by page ("loop"); cuBLAS's strided
## batched product is compared within rounding, everything else exactly.  Run
## by tests/run_tests.m.

%!function check_pages (op, A, B, varargin)
%!  ## op (A, B) against op of each pair of pages it takes
%!  sa = size (A); sb = size (B); L = max (numel (sa), numel (sb));
%!  sa(end+1:L) = 1; sb(end+1:L) = 1;
%!  pd = max (sa(3:end), sb(3:end)); pd(sa(3:end) == 0 | sb(3:end) == 0) = 0;
%!  witness = strcmp (func2str (op), "gpu_minplus");
%!  rounding = any (strcmp (varargin, "cublas"));   # its batched kernels may add in another order
%!  if (witness)
%!    [C, K] = op (A, B, varargin{:});
%!    tally (__cudakernels__ ("last_plan"));
%!    assert (size (K), size (C));
%!    C1 = op (A, B, varargin{:});
%!    tally (__cudakernels__ ("last_plan"));
%!    assert (isequaln (gather_if (C1), gather_if (C)));  # C alone: the same
%!  else
%!    C = op (A, B, varargin{:});
%!    tally (__cudakernels__ ("last_plan"));
%!  endif
%!  dev = isa (C, "gpu_array");
%!  if (dev)
%!    C = gather (C);
%!    if (witness) K = gather (K); endif
%!    A = gather (A); B = gather (B);
%!  endif
%!  assert (size (C), [sa(1) sb(2) pd]);
%!  for q = 1:prod (pd)
%!    s = cell (1, numel (pd));
%!    [s{:}] = ind2sub ([pd 1], q);
%!    ia = s; ia(sa(3:end) == 1) = {1};
%!    ib = s; ib(sb(3:end) == 1) = {1};
%!    Ap = A(:, :, ia{:}); Bp = B(:, :, ib{:});
%!    if (dev)
%!      Ap = gpu_array (Ap); Bp = gpu_array (Bp);
%!    endif
%!    if (witness)
%!      [R, RK] = op (Ap, Bp, varargin{:});
%!      assert (isequal (K(:, :, q), gather_if (RK)), sprintf ("page %d: K differs", q));
%!    else
%!      R = op (Ap, Bp, varargin{:});
%!    endif
%!    if (rounding)
%!      R = gather_if (R);
%!      assert (C(:, :, q), R, 8 * eps (class (R)) * max (abs (R(:))) * size (A, 2));
%!    else
%!      assert (isequaln (C(:, :, q), gather_if (R)), sprintf ("page %d differs", q));
%!    endif
%!  endfor
%!endfunction
%!function check_guessed (A, B, fits_guess, sr = "min.+")
%!  ## C alone straight after a product that fits the guess of shift 0, so that
%!  ## it runs on the guess (whole tiles: read as they are), against the CPU
%!  fits_guess ();
%!  C = gpu_mxm (A, B, sr);
%!  for q = 1:size (C, 3)
%!    R = gpu_mxm (A(:, :, q), B(:, :, q), sr, "kernel", "cpu");
%!    assert (isequal (C(:, :, q), R), sprintf ("page %d differs", q));
%!  endfor
%!endfunction
%!function total = tally (plan)
%!  ## the batched runs and the single pages of the paged calls of check_pages so
%!  ## far: each call's plan counts its own
%!  persistent sum = [0 0];
%!  if (nargin > 0)
%!    sum += [plan.batched_runs, plan.single_pages];
%!  endif
%!  total = sum;
%!endfunction
%!function X = gather_if (X)
%!  if (isa (X, "gpu_array"))
%!    X = gather (X);
%!  endif
%!endfunction
%!function X = fits (dims, cls)
%!  ## a messy operand in class cls; for the 32-bit classes without intmax, which
%!  ## beside negative values (or 0) leaves sums no 32-bit word holds (v2's wide path)
%!  X = __ck_messy__ (dims, cls);
%!  if (any (strcmp (cls, {"int32", "uint32"})))
%!    X(X > 100) = 100;
%!  endif
%!endfunction

%!test
%! check_pages (@gpu_minplus, __ck_messy__ ([3 4 2]), __ck_messy__ ([4 5 2]), "kernel", "cpu");
%! check_pages (@gpu_minplus, __ck_messy__ ([17 3 4]), __ck_messy__ ([3 65]),        # B broadcast
%!              "kernel", "cpu");
%! check_pages (@gpu_minplus, __ck_messy__ ([1 17 1 3]), __ck_messy__ ([17 1 2 3]),
%!              "kernel", "cpu");
%! check_pages (@gpu_minplus, __ck_messy__ ([3 4]), __ck_messy__ ([4 5 1 2]),         # A broadcast
%!              "kernel", "cpu");
%! check_pages (@gpu_minplus, __ck_messy__ ([3 4 1]), __ck_messy__ ([4 5 1]),         # p = 1
%!              "kernel", "cpu");
%! check_pages (@gpu_minplus, int16 (randi ([-9 9], 3, 4, 3)), int16 (randi (9, 4, 2, 3)),
%!              "kernel", "cpu");
%! C = gpu_minplus (zeros (3, 4, 0), ones (4, 5), "kernel", "cpu");                   # p = 0
%! assert (size (C), [3 5 0]);
%! C = gpu_minplus (ones (3, 0, 2), ones (0, 5, 2), "kernel", "cpu");                 # k = 0
%! assert (C, Inf (3, 5, 2));
%! A = __ck_messy__ ([5 5 3]);
%! C = gpu_minplus (A, "kernel", "cpu");                                              # one operand
%! for q = 1:3
%!   assert (isequaln (C(:, :, q), gpu_minplus (A(:, :, q), "kernel", "cpu")));
%! endfor

## The gateway's two page maps: the lists, and IA = IB = 0 (the 3-D map, which
## the .m layer passes where each operand has C's pages or one page); on a
## map that both describe, the same pages.
%!test
%! A = __ck_messy__ ([3, 4 * 3]); B = __ck_messy__ ([4, 5 * 3]); B1 = B(:, 1:5);
%! paged = @(A, B, mkn, ia, ib) __cudakernels__ ("product", "min.+", "host", A, B, "cpu", [],
%!                                               mkn, ia, ib);
%! C3 = paged (A, B, [3 4 5], 0, 0);
%! assert (isequaln (C3, paged (A, B, [3 4 5], 1:3, 1:3)));
%! C3 = paged (A, B1, [3 4 5], 0, 0);                                         # B broadcast
%! assert (isequaln (C3, paged (A, B1, [3 4 5], 1:3, [1 1 1])));
%! C3 = paged (A(:, 1:4), B, [3 4 5], 0, 0);                                  # A broadcast
%! assert (size (C3), [3 15]);
%! assert (isequaln (C3(:, 11:15), gpu_minplus (A(:, 1:4), B(:, 11:15), "kernel", "cpu")));
%! plan = __cudakernels__ ("last_plan");
%! assert ({plan.op, plan.move, plan.pages}, {"product", "cpu", 0});
%!error <as many pages, or one>
%! __cudakernels__ ("product", "min.+", "host", ones (3, 8), ones (4, 15), "cpu", [], [3 4 5], 0, 0)
%!error <not empty>
%! __cudakernels__ ("product", "min.+", "host", ones (3, 0), ones (0, 10), "cpu", [], [3 0 5], 0, 0)
%!error <do not match>
%! __cudakernels__ ("product", "min.+", "host", ones (3, 9), ones (4, 10), "cpu", [], [3 4 5], 0, 0)
%!error <page numbers of A>
%! __cudakernels__ ("product", "min.+", "host", ones (3, 8), ones (4, 10), "cpu", [], [3 4 5], 0, 1)
%!error <IA and IB together>
%! __cudakernels__ ("product", "min.+", "host", ones (3, 8), ones (4, 10), "cpu", [], [3 4 5], 0)
%!error <page dimension 3 must agree> gpu_minplus (ones (3, 4, 2), ones (4, 5, 3), "kernel", "cpu")
%!error <page dimension 4 must agree> gpu_matmul (ones (3, 4, 1, 2), ones (4, 5, 1, 3))
%!error <inner dimensions> gpu_minplus (ones (3, 4, 2), ones (5, 5, 2), "kernel", "cpu")

%!testif ; gpu_available ()
%! for cls = {"double", "single", "int32", "uint8"}
%!   A = __ck_messy__ ([3 17 2 3], cls{1}); B = __ck_messy__ ([17 65 1 3], cls{1});
%!   check_pages (@gpu_minplus, A, B);
%!   check_pages (@gpu_minplus, gpu_array (A), gpu_array (B));
%! endfor
%! check_pages (@gpu_minplus, __ck_messy__ ([65 1 4]), __ck_messy__ ([1 63]));
%! check_pages (@gpu_minplus, single (randi (999, 64, 64, 40)), single (randi (999, 64, 64, 40)));
%! C = gpu_minplus (gpu_array (zeros (3, 4, 0)), gpu_array (ones (4, 5)));
%! assert (size (C), [3 5 0]);
%! clear C
%! assert (__ck_released__ ());


## One launch per run of pages, in every class (the counts show the batched path
## ran and no page fell back): ragged sizes, broadcast either side, N-D runs,
## negative integers (the shifts' guess missed), int16 spreads that need 32-bit
## words, saturation.
%!testif ; gpu_available ()
%! old = __cudakernels__ ("settings", "pages_mode", "batched");
%! restore = onCleanup (@() __cudakernels__ ("settings", old));
%! c0 = tally ();
%! for cls = {"double", "single", "int32", "int16", "uint8", "int8", "uint16", "uint32"}
%!   A = fits ([3 17 2 3], cls{1}); B = fits ([17 65 1 3], cls{1});
%!   check_pages (@gpu_minplus, A, B);
%!   check_pages (@gpu_minplus, gpu_array (A), gpu_array (B));
%!   check_pages (@gpu_minplus, fits ([65 1 4], cls{1}), fits ([1 63], cls{1}));
%!   check_pages (@gpu_minplus, fits ([1 64 5], cls{1}), fits ([64 129 5], cls{1}));
%!   ## whole tiles: the integer classes read as they are (C alone), or packed
%!   check_pages (@gpu_minplus, cast (randi ([0 999], 64, 64, 6), cls{1}),
%!                cast (randi ([0 999], 64, 128, 6), cls{1}));
%!   check_pages (@gpu_minplus, cast (randi ([-99 99], 128, 64, 3), cls{1}),
%!                cast (randi ([-99 99], 64, 64, 3), cls{1}));
%!   ## rows of whole 128-word tiles (m a multiple of 128, of 256 packed): the 2-D blocks
%!   check_pages (@gpu_minplus, fits ([256 17 2], cls{1}), fits ([17 65 2], cls{1}));
%!   check_pages (@gpu_minplus, cast (randi ([0 999], 256, 64, 3), cls{1}),
%!                cast (randi ([0 999], 64, 64, 3), cls{1}));
%! endfor
%! check_pages (@gpu_minplus, single (randi (999, 64, 64, 40)), single (randi (999, 64, 64, 40)));
%! check_pages (@gpu_minplus, __ck_messy__ ([5 3]), __ck_messy__ ([3 7 4]));         # A broadcast
%! check_pages (@gpu_minplus, int16 (randi ([-30000 30000], 9, 33, 3)),       # 32-bit words
%!              int16 (randi ([-30000 30000], 33, 9, 3)));
%! check_pages (@gpu_minplus, int8 (randi ([-128 127], 9, 33, 3)),           # saturation
%!              int8 (randi ([-128 127], 33, 9, 3)));
%! check_pages (@gpu_minplus, int32 (randi ([-1e9 1e9], 9, 33, 3)),          # saturation
%!              int32 (randi ([-1e9 1e9], 33, 9, 3)));
%! c1 = tally ();
%! assert (c1(1) > c0(1));
%! assert (c1(2), c0(2));          # no page of these ran by itself
%! check_pages (@gpu_minplus, int32 ([-2^31 2^31-1; 0 1]) .* ones (2, 2, 3, "int32"),
%!              int32 ([2^31-1 -2^31; 5 -5]) .* ones (2, 2, 3, "int32"));    # v2's wide sums
%! c2 = tally ();
%! assert (c2(2), c1(2) + 6);      # ... those ran page by page ([C, K], then C)
%! clear -x c0 c1 c2 old restore
%! assert (__ck_released__ ());

## Whole tiles read as they are, where the guess of shift 0 fails in one place
## only, which that block's own bounds must see and compute exactly: a negative
## int16 or int32 in the last page of A or the last of B, uint16 sums past
## 65535 and uint32 ones past 2^32 - 1 (which wrapped would be small, and win
## a minimum); on the page tiles and on the 2-D blocks; min.+ and max.+.  Then where it fails in every block, twice: the
## second call has learnt of the miss and finds the ranges first.  Each check
## starts after a product that fits the guess, so that the class guesses again.
%!testif ; gpu_available ()
%! old = __cudakernels__ ("settings", "pages_mode", "batched");
%! restore = onCleanup (@() __cudakernels__ ("settings", old));
%! for s = [64 64 64 5; 256 64 128 3]'
%!   for sr = {"min.+", "max.+"}
%!   for cls = {"int16", "uint16", "int32", "uint32"}
%!     A = cast (randi ([0 999], s(1), s(2), s(4)), cls{1});
%!     B = cast (randi ([0 999], s(2), s(3), s(4)), cls{1});
%!     one = cast (ones (64, 64, 2), cls{1});
%!     fits_guess = @() gpu_mxm (one, one, sr{1});
%!     hi = double (intmax (cls{1}));
%!     if (intmin (cls{1}) < 0)
%!       X = A; X(end, end, end) = -30000; check_guessed (X, B, fits_guess, sr{1});
%!       X = B; X(1, end, end) = -30000; check_guessed (A, X, fits_guess, sr{1});
%!     else
%!       X = A; X(3, 2, end) = hi - 5; Y = B; Y(2, 5, end) = hi - 5;   # wrapped, small
%!       check_guessed (X, Y, fits_guess, sr{1});
%!       X = A; X(3, 2, 1) = hi; check_guessed (X, B, fits_guess, sr{1});
%!     endif
%!     check_guessed (A, B, fits_guess, sr{1});
%!     X = cast (randi (double ([intmin(cls{1}) intmax(cls{1})]), size (A)), cls{1});
%!     Y = cast (randi (double ([intmin(cls{1}) intmax(cls{1})]), size (B)), cls{1});
%!     check_guessed (X, Y, fits_guess, sr{1});
%!     if (strcmp (sr{1}, "min.+"))
%!       check_pages (@gpu_minplus, X, Y);
%!     else
%!       check_pages (@gpu_mxm, X, Y, sr{1});
%!     endif
%!   endfor
%!   endfor
%! endfor
%! clear -x old restore
%! assert (__ck_released__ ());

## More pages than one launch's grid holds (65535), against a vectorised
## reference; both modes give the same answer.
%!testif ; gpu_available ()
%! old = __cudakernels__ ("settings", "pages_mode", "batched");
%! restore = onCleanup (@() __cudakernels__ ("settings", old));
%! for cls = {"single", "int16"}
%!   A = cast (randi ([-50 50], 2, 2, 70000), cls{1}); B = cast (randi ([-50 50], 2, 3, 70000), cls{1});
%!   R = min (A(:, 1, :) + B(1, :, :), A(:, 2, :) + B(2, :, :));
%!   assert (isequal (gpu_minplus (A, B), R));
%!   assert (isequal (gather (gpu_minplus (gpu_array (A), gpu_array (B))), R));
%! endfor
%! A = single (randi (9, 2, 2, 70000)); B = single (randi (9, 2, 3, 70000));
%! assert (isequal (gpu_matmul (A, B), A(:, 1, :) .* B(1, :, :) + A(:, 2, :) .* B(2, :, :)));
%! __cudakernels__ ("settings", "pages_mode", "loop");
%! assert (isequal (gpu_minplus (A, B), min (A(:, 1, :) + B(1, :, :), A(:, 2, :) + B(2, :, :))));

## The default mode: small pages go to one launch, pages that each fill the
## GPU one by one.
%!testif ; gpu_available ()
%! assert (__cudakernels__ ("settings").pages_mode, "auto");
%! counts = @(p) [p.batched_runs, p.single_pages];
%! A = single (randi (999, 64, 64, 8));
%! C = gpu_minplus (A, A);
%! plan = __cudakernels__ ("last_plan");
%! assert ({plan.pages, plan.move, plan.pages_mode, plan.words}, {8, "whole", "auto", "class"});
%! assert (counts (plan), [1 0]);
%! A = single (randi (999, 2048, 4, 2));
%! C = gpu_minplus (A, permute (A, [2 1 3]));
%! assert (counts (__cudakernels__ ("last_plan")), [0 2]);

%!testif ; gpu_available ()
%! old = __cudakernels__ ("settings");
%! restore = onCleanup (@() __cudakernels__ ("settings", old));
%! for kernel = {"warptile", "cublas"}
%!   if (strcmp (kernel{1}, "cublas") && isempty (__cudakernels__ ("cublas")))
%!     continue;
%!   endif
%!   for mode = {"loop", "batched"}
%!     __cudakernels__ ("settings", "pages_mode", mode{1});
%!     A = randn (3, 17, 2, 3); B = randn (17, 65, 1, 3);
%!     check_pages (@gpu_matmul, A, B, "kernel", kernel{1});
%!     check_pages (@gpu_matmul, gpu_array (single (A)), gpu_array (single (B)), "kernel", kernel{1});
%!     check_pages (@gpu_matmul, single (randn (64, 64, 9)), single (randn (64, 64)), "kernel", kernel{1});
%!   endfor
%! endfor
%! clear -x old restore
%! assert (__ck_released__ ());

%!error <pages mode> __cudakernels__ ("settings", "pages_mode", "sometimes")
