## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## Single and double max.min and min.max on their values' ranks
## (kernels/semiring/minplus_rank.cu): C and K must be the class path's, element
## for element (signs of zero included), and Octave's own expression, on few
## distinct values (uint16 ranks) and many (int32 ranks, double only), with
## +-Inf, ties, k = 1, A as B, host and gpu_array; whatever rules ranks out
## (NaN, -0 beside +0, single with many values) falls back with the class
## path's answer.  Against Octave the signs of zero are checked in double
## (single's GPU min and max give a tie of -0 and +0 their own sign).  The
## tests force the look at every size ("always"); the automatic mode ranks
## only large double products.  Run by tests/run_tests.m.

%!function X = host (X)
%!  if (isobject (X))
%!    X = gather (X);
%!  endif
%!endfunction

%!function [C, K] = octave_mxm (A, B, sr)
%!  Bp = permute (B, [3 1 2]);
%!  if (strcmp (sr, "max.min"))
%!    [C, K] = max (min (A, Bp), [], 2);
%!  else
%!    [C, K] = min (max (A, Bp), [], 2);
%!  endif
%!  C = reshape (C, rows (A), columns (B)); K = reshape (K, rows (A), columns (B));
%!endfunction

%!function check_ranks (A, B, sr, path)
%!  ## C and [C, K] with the look forced, against the class path and Octave, and the path
%!  old = __cudakernels__ ("settings", "minplus_narrow", "off");
%!  unwind_protect
%!    Rc = gpu_mxm (A, B, sr);
%!    [R, RK] = gpu_mxm (A, B, sr);
%!    class_path = __cudakernels__ ("last_plan").work;
%!    __cudakernels__ ("settings", "minplus_narrow", "always");
%!    C = gpu_mxm (A, B, sr);
%!    ran = __cudakernels__ ("last_plan").work;
%!    [CK, K] = gpu_mxm (A, B, sr);
%!    ran_k = __cudakernels__ ("last_plan").work;
%!  unwind_protect_cleanup
%!    __cudakernels__ ("settings", old);
%!  end_unwind_protect
%!  what = sprintf ("%s %s %dx%dx%d", sr, class (A), rows (A), columns (A), columns (B));
%!  assert (class_path, class (host (R)));
%!  assert ({ran, ran_k}, {path, path}, [what ": path"]);
%!  __ck_same_bits__ (host (C), host (Rc), what);
%!  __ck_same_bits__ (host (CK), host (R), what);
%!  assert (isequal (host (K), host (RK)), [what ": K differs"]);
%!  if (numel (A) * columns (B) <= 1e6)
%!    [O, OK] = octave_mxm (host (A), host (B), sr);
%!    if (isa (O, "double"))
%!      __ck_same_bits__ (host (CK), O, [what " (Octave)"]);
%!    else   # single's FMNMX gives zeros its own sign where -0 and +0 tie
%!      assert (isequaln (host (CK), O), [what ": C differs from Octave's"]);
%!    endif
%!    assert (isequal (host (K), OK), [what ": K differs from Octave's"]);
%!  endif
%!endfunction

%!testif ; gpu_available ()
%! ## few distinct values: uint16 ranks, ties everywhere, +-Inf, k = 1, ragged, A as B
%! for sr = {"max.min", "min.max"}
%!   for cls = {"double", "single"}
%!     c = cls{1};
%!     A = cast (randi ([-40 40], 63, 65) / 8, c); B = cast (randi ([-40 40], 65, 70) / 8, c);
%!     A(rand (size (A)) < 0.05) = Inf; B(rand (size (B)) < 0.05) = -Inf;
%!     A(3, :) = -Inf; B(:, 5) = Inf;
%!     check_ranks (A, B, sr{1}, "uint16");
%!     check_ranks (A(:, 1), B(1, :), sr{1}, "uint16");                 # k = 1
%!     check_ranks (A(1, :), B(:, 1), sr{1}, "uint16");                 # 1 x 1 out
%!     check_ranks (A, A', sr{1}, "uint16");
%!     check_ranks (A(:, 1:63), A(:, 1:63), sr{1}, "uint16");           # A as B
%!     check_ranks (Inf (3, 4, c), -Inf (4, 2, c), sr{1}, "uint16");    # one value each
%!     check_ranks (cast ([-0 -0; 1 -0], c), cast ([-0 2; -0 -0], c), sr{1}, "uint16");
%!     ## 65536 distinct values still rank in uint16; 65537 do not
%!     v = cast ((1:65536) * 0.5 - 7, c);
%!     check_ranks (reshape (v(1:32768), 128, 256), reshape (v(32769:end), 256, 128), sr{1}, ...
%!                  "uint16");
%!     v(end + 1) = 1e6;
%!     if (strcmp (c, "double"))
%!       wide = "int32";
%!     else
%!       wide = "single";   # single with many values gains nothing on int32: its own path
%!     endif
%!     check_ranks (reshape (v(1:32769), 1, 32769), reshape (v(end:-1:32769), 32769, 1), ...
%!                  sr{1}, wide);
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## many distinct values in double: int32 ranks, ties kept, the extremes of double
%! for sr = {"max.min", "min.max"}
%!   A = randn (300, 250); B = randn (250, 301);
%!   A(:, 2:2:end) = A(:, 1:2:end);                       # ties between terms
%!   A(7, 9) = realmax; B(4, 4) = -realmax; A(5, 5) = realmin; B(6, 6) = -realmin;
%!   A(8, 8) = Inf; B(9, 9) = -Inf; A(10, 10) = 2^-1074; B(10, 10) = -2^-1074;
%!   check_ranks (A, B, sr{1}, "int32");
%!   check_ranks (single (A), single (B), sr{1}, "single");
%!   check_ranks (gpu_array (A), gpu_array (B), sr{1}, "int32");
%!   G = gpu_array (randn (300));
%!   check_ranks (G, G, sr{1}, "int32");                                 # one device array twice
%!   clear G;
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## what rules ranks out falls back, with the class path's answer
%! for sr = {"max.min", "min.max"}
%!   for cls = {"double", "single"}
%!     c = cls{1};
%!     A = cast (randi ([0 9], 40, 33), c); B = cast (randi ([0 9], 33, 41), c);
%!     An = A; An(3, 4) = NaN;
%!     check_ranks (An, B, sr{1}, c);                                    # NaN in A
%!     Bn = B; Bn(:) = NaN;
%!     check_ranks (A, Bn, sr{1}, c);                                    # all NaN in B
%!     Az = A; Az(1, 1) = -0; Az(1, 2) = 0;
%!     check_ranks (Az, B, sr{1}, c);                                    # -0 beside +0
%!     Bz = B; Bz(Bz == 0) = -0;
%!     check_ranks (A + 1, Bz, sr{1}, "uint16");                         # -0 alone ranks
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## "auto": large double products rank (host arrays in one panel), small ones and single do not
%! A = rand (2048); B = rand (2048);
%! for sr = {"max.min", "min.max"}
%!   [C, K] = gpu_mxm (A, B, sr{1});
%!   p = __cudakernels__ ("last_plan");
%!   assert ({p.narrow, p.work, p.panel}, {true, "int32", 2048});
%!   old = __cudakernels__ ("settings", "minplus_narrow", "off");
%!   unwind_protect
%!     [R, RK] = gpu_mxm (A, B, sr{1});
%!   unwind_protect_cleanup
%!     __cudakernels__ ("settings", old);
%!   end_unwind_protect
%!   assert (isequal (C, R) && isequal (K, RK));
%!   gpu_mxm (A(1:100, :), B(:, 1:100), sr{1});
%!   assert (__cudakernels__ ("last_plan").work, "double");
%!   gpu_mxm (single (A), single (B), sr{1});
%!   assert (__cudakernels__ ("last_plan").work, "single");
%! endfor
%! assert (__ck_released__ ());
