## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## The integer paths of gpu_minplus's warptile kernel, at their edges: packed
## 16-bit and 32-bit DPX words, the wide fallback, the guessed shift and its
## misses, the narrow classes read without a packed copy, the packed witness's
## depth limit, and split-K (planes and clusters) with ties across slices.  C
## and K against Octave's own formulation or the CPU reference.  Run by
## tests/run_tests.m beside the package's own tests (inst/gpu_minplus.m).


%!function R = check_ck_against_cpu (A, B, what)
%!  ## C alone and [C, K] of the default kernel against the CPU reference
%!  [R, RK] = gpu_minplus (A, B, "kernel", "cpu");
%!  assert (isequal (gpu_minplus (A, B), R), [what ": C differs"]);
%!  [C, K] = gpu_minplus (A, B);
%!  assert (isequal (C, R), [what ": C with K differs"]);
%!  assert (isequal (K, RK), [what ": K differs"]);
%!endfunction

%!function check_int_paths (kernel)
%!  ## value ranges that take each integer path of warptile: packed 16-bit words,
%!  ## 32-bit words (intmax as "no edge"; sums saturating at either end), and the
%!  ## wide fallback when the spreads cannot fit.  Half the shapes draw from five
%!  ## levels only, for ties and sums at the edges.  C and K against Octave's own.
%!  cases = {"int8", -128, 127, -128, 127;            # packed
%!           "uint8", 0, 255, 0, 255;                 # packed
%!           "int16", -300, 300, -50, 400;            # packed
%!           "int16", 0, 32767, 0, 32767;             # packed, sums past intmax
%!           "uint16", 0, 65535, 0, 65535;            # 32-bit words
%!           "int16", -32768, 32767, -32768, 32767;   # 32-bit words
%!           "int32", 0, 2147483647, 0, 2147483647;   # 32-bit words, sums past intmax
%!           "int32", -2147483647, 0, -100, 0;        # 32-bit words, sums past intmin
%!           "uint32", 2^31, 2^32 - 1, 2^31, 2^32 - 1;  # every sum saturates
%!           "uint32", 0, 2^31, 0, 2^31 - 1;          # 32-bit words, no saturation
%!           "int32", -2^31, 2^31 - 1, -2^31, 2^31 - 1};  # wide fallback
%!  shapes = [1 1 1; 63 65 64; 65 129 63; 130 17 257; 200 300 100; 3 1000 5];
%!  for c = 1:rows (cases)
%!    [cls, alo, ahi, blo, bhi] = cases{c, :};
%!    for s = 1:rows (shapes)
%!      m = shapes(s, 1); k = shapes(s, 2); n = shapes(s, 3);
%!      if (mod (s, 2))
%!        A = alo + (ahi - alo) * randi ([0 4], m, k) / 4;
%!        B = blo + (bhi - blo) * randi ([0 4], k, n) / 4;
%!      else
%!        A = randi ([alo ahi], m, k); B = randi ([blo bhi], k, n);
%!        A(rand (m, k) < 0.2) = ahi;
%!      endif
%!      A = cast (round (A), cls); B = cast (round (B), cls);
%!      [R, RK] = min (A + permute (B, [3 1 2]), [], 2);
%!      what = sprintf ("%s %s [%g %g]+[%g %g] %dx%dx%d", kernel, cls, alo, ahi, blo, bhi, m, k, n);
%!      C = gpu_minplus (A, B, "kernel", kernel);
%!      assert (isequal (C, reshape (R, m, n)), [what ": C differs"]);
%!      [C, K] = gpu_minplus (A, B, "kernel", kernel);
%!      assert (isequal (C, reshape (R, m, n)), [what ": C with K differs"]);
%!      assert (isequal (K, reshape (RK, m, n)), [what ": K differs"]);
%!    endfor
%!  endfor
%!endfunction

%!test
%! check_int_paths ("cpu");

%!testif ; gpu_available ()
%! ## every integer path of warptile: packed and 32-bit DPX words, saturation, fallback
%! check_int_paths ("warptile");
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## the packed witness keeps each half's tile in 16 bits: k = 2^20 is the deepest
%! ## it takes (65536 tiles of 16), one more goes through 32-bit words.  The only
%! ## minima, and a tie after them, sit in the last tiles.
%! for k = [2^20, 2^20 + 1]
%!   A = int16 (randi ([100 200], 3, k)); B = int16 (randi ([100 200], k, 2));
%!   A(1, k) = -50; A(2, k - 20) = -50; A(3, k - 1) = -60;
%!   B(k - 1, 1) = 10; B(k - 3, 2) = -60;
%!   [C, K] = gpu_minplus (A, B);
%!   [R, RK] = min (A + permute (B, [3 1 2]), [], 2);
%!   assert (C, reshape (R, 3, 2));
%!   assert (K, reshape (RK, 3, 2));
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## a deep k over few outputs splits k into many slices, merged in runs of
%! ## slices: ties between slices of different runs must still give the
%! ## smallest k, and slices whose terms are all NaN must never win
%! k = 20000;
%! for cls = {"single", "double", "int32", "int16", "uint8"}
%!   A = cast (randi ([0 3], 5, k), cls{1}); B = cast (randi ([0 3], k, 4), cls{1});
%!   A(2, :) = 3; A(2, [9000 15000 19990]) = 0;   # ties far apart in k
%!   if (isfloat (A))
%!     A(3, 1:12000) = NaN;
%!     A(4, :) = NaN; A(4, k) = 5;
%!   endif
%!   [C, K] = gpu_minplus (A, B);
%!   [R, RK] = min (A + permute (B, [3 1 2]), [], 2);
%!   assert (C, reshape (R, 5, 4));
%!   assert (K, reshape (RK, 5, 4));
%!   assert (gpu_minplus (A, B), C);
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## sizes where warptile folds slices in clusters of 4 (1024^3: one cluster per
%! ## tile; 256x8192x256: 8 to 16 clusters per tile, then merged), ties and NaN
%! for s = {[1024 1024 1024], [256 8192 256]}
%!   m = s{1}(1); k = s{1}(2); n = s{1}(3);
%!   for cls = {"single", "int32", "int16"}
%!     A = cast (randi ([0 20], m, k), cls{1}); B = cast (randi ([0 20], k, n), cls{1});
%!     if (isfloat (A))
%!       A(1:7:end, 1:3:end) = NaN;
%!     endif
%!     [C, K] = gpu_minplus (A, B);
%!     [R, RK] = gpu_minplus (A, B, "kernel", "cpu");
%!     assert (C, R);
%!     assert (K, RK);
%!     assert (gpu_minplus (A, B), R);
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## warptile first runs integers on the guess that they are nonnegative (shift
%! ## 0): int32, int16 and uint16 shapes of whole tiles are read as they are,
%! ## others packed (the ranges found while packing), and the host checks the guess while the
%! ## product runs.  A miss runs the
%! ## product again and makes the class wait for its ranges until an input
%! ## shows the guess would have held.  Every step of that sequence, in every
%! ## class that guesses, at shapes of whole tiles and ragged ones, C and K.
%! cases = {"int32", 2^31 - 1; "int16", 32767; "uint16", 30000; "uint32", 2^31 - 1};
%! for c = 1:rows (cases)
%!   [cls, top] = cases{c, :};
%!   for s = {[256 64 128], [128 96 192], [100 37 70]}
%!     m = s{1}(1); k = s{1}(2); n = s{1}(3);
%!     for low = [0, -1, -1, 0, 0]   # hit, miss, miss (waits), hit (waits), hit
%!       A = cast (randi ([0 9], m, k), cls); B = cast (randi ([0 9], k, n), cls);
%!       A(rand (m, k) < 0.2) = top; B(rand (k, n) < 0.1) = top;
%!       if (low < 0)
%!         if (intmin (cls) < 0)
%!           A(randi (m), randi (k)) = -7;   # one negative value anywhere
%!         else
%!           A(randi (m), randi (k)) = intmax (cls);   # spreads past the word
%!           B(randi (k), randi (n)) = intmax (cls);
%!         endif
%!       endif
%!       what = sprintf ("%s %dx%dx%d low %d", cls, m, k, n, low);
%!       R = check_ck_against_cpu (A, B, what);
%!     endfor
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## the 8- and 16-bit classes at shapes of whole tiles are read as they are,
%! ## without a packed copy: each element widened to a 16-bit half in the kernel
%! ## (int8 shifted by -128).  Every class over its whole range where that is the
%! ## path (int16 nonnegative, uint16 with sums below 65536), so that sums
%! ## saturate; few levels for ties; unsplit, split in clusters, and split into
%! ## planes (one output tile over k = 4096); C and K, host arrays and gpu_arrays.
%! cases = {"int8", -128, 127; "uint8", 0, 255; "int16", 0, 32767; "uint16", 0, 30000};
%! for c = 1:rows (cases)
%!   [cls, lo, hi] = cases{c, :};
%!   for s = {[256 64 128], [512 32 64], [1024 1024 1024], [256 4096 64]}
%!     m = s{1}(1); k = s{1}(2); n = s{1}(3);
%!     for levels = [true, false]
%!       if (levels)
%!         A = lo + (hi - lo) * randi ([0 4], m, k) / 4;
%!         B = lo + (hi - lo) * randi ([0 4], k, n) / 4;
%!       else
%!         A = randi ([lo hi], m, k); B = randi ([lo hi], k, n);
%!       endif
%!       A = cast (round (A), cls); B = cast (round (B), cls);
%!       A(rand (m, k) < 0.2) = hi;
%!       what = sprintf ("%s %dx%dx%d levels %d", cls, m, k, n, levels);
%!       R = check_ck_against_cpu (A, B, what);
%!       assert (isequal (gather (gpu_minplus (gpu_array (A), gpu_array (B))), R),
%!               [what ": C on gpu_arrays differs"]);
%!     endfor
%!   endfor
%! endfor
%! assert (__ck_released__ ());
