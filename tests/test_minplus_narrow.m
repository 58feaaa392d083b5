## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## Integer-valued single and double operands on gpu_minplus's integer paths
## (kernels/semiring/minplus_narrow.cu): C and K must be the float path's, element for
## element (NaN pattern and signs of zero included), at the edges of the 16-bit
## and 32-bit paths, with Inf rows and columns, all Inf, k = 1, negative values,
## the largest values that still narrow and the first that do not, and every
## value that rules narrowing out (NaN, -Inf, a fraction, -0), host and
## gpu_array.  The tests force the look at every size ("always"); the automatic
## mode looks only at large products.  Run by tests/run_tests.m.

%!function check_narrowing (A, B, path)
%!  ## C and [C, K] with the look forced, against the float path, and the path that ran
%!  old = __cudakernels__ ("settings", "minplus_narrow", "off");
%!  unwind_protect
%!    Rc = gpu_minplus (A, B);
%!    [R, RK] = gpu_minplus (A, B);
%!    float_path = __cudakernels__ ("last_plan").work;
%!    __cudakernels__ ("settings", "minplus_narrow", "always");
%!    C = gpu_minplus (A, B);
%!    ran = __cudakernels__ ("last_plan").work;
%!    [CK, K] = gpu_minplus (A, B);
%!  unwind_protect_cleanup
%!    __cudakernels__ ("settings", old);
%!  end_unwind_protect
%!  what = sprintf ("%s %dx%dx%d", class (A), rows (A), columns (A), columns (B));
%!  assert (float_path, class (R));
%!  assert (ran, path, [what ": path"]);
%!  __ck_same_bits__ (C, Rc, what);
%!  __ck_same_bits__ (CK, R, what);
%!  assert (isequal (K, RK), [what ": K differs"]);
%!endfunction

%!test
%! ## the mode: "auto" unless set; a bad one is refused
%! assert (__cudakernels__ ("settings").minplus_narrow, "auto");
%!error <narrowing mode> __cudakernels__ ("settings", "minplus_narrow", "sometimes")

%!testif ; gpu_available ()
%! for cls = {"double", "single"}
%!   c = cls{1};
%!   A = cast (randi ([0 1000], 63, 65), c); B = cast (randi ([0 1000], 65, 70), c);
%!   A(5, :) = Inf; B(:, 7) = Inf; A(rand (size (A)) < 0.1) = Inf;
%!   check_narrowing (A, B, "int16");
%!   assert (gpu_minplus (A, B), min (A + permute (B, [3 1 2]), [], 2)(:, :), 0);
%!   check_narrowing (A(:, 1), B(1, :), "int16");                      # k = 1
%!   check_narrowing (A, A', "int16");                                 # ragged
%!   check_narrowing (Inf (3, 4, c), Inf (4, 2, c), "int16");          # all Inf: K = 1
%!   check_narrowing (cast ([Inf 3; Inf 1], c), cast ([2 Inf; 5 Inf], c), "int16");
%!   check_narrowing (cast (randi ([-500 500], 7, 1), c), cast (randi ([-9 9], 1, 9), c), "int16");
%!   check_narrowing (cast ([-3e6 -3e6+5], c), cast ([7e6; 7e6+9], c), "int16");
%!   ## the spreads at the edges: max A - min A + max B - min B below 32767 packs
%!   check_narrowing (cast ([0 16383], c), cast ([0; 16383], c), "int16");
%!   check_narrowing (cast ([0 16383], c), cast ([0; 16384], c), "int32");
%!   check_narrowing (cast ([0 16383 Inf], c), cast ([0; 16384; 2], c), "int32");
%! endfor
%! ## 32-bit spreads and the largest values whose sums are exact in the class
%! check_narrowing ([0 2^30], [0; 2^31-2-2^30], "int32");
%! check_narrowing ([0 2^30], [0; 2^31-1-2^30], "double");
%! check_narrowing ([2^52 2^52-7], [-2^52; -2^52+3], "int16");
%! check_narrowing ([2^52+2 1], [0; 1], "double");
%! check_narrowing (single ([2^23 1]), single ([0; 1]), "int32");
%! check_narrowing (single ([2^23+1 1]), single ([0; 1]), "single");
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## whatever rules narrowing out falls back for the call, with the float path's answer
%! for cls = {"double", "single"}
%!   c = cls{1};
%!   A = cast (randi ([0 9], 40, 30), c); B = cast (randi ([0 9], 30, 20), c);
%!   for bad = {NaN, -Inf, 0.5, -0}
%!     X = A; X(7) = bad{1}; check_narrowing (X, B, c);
%!     Y = B; Y(end) = bad{1}; check_narrowing (A, Y, c);
%!   endfor
%!   check_narrowing (cast (-0, c), cast (-0, c), c);                 # -0 + -0 is -0
%! endfor
%! ## one NaN or -Inf among a million integers is found
%! A = randi ([0 1000], 1000); B = randi ([0 1000], 1000, 3);
%! A(end) = NaN; check_narrowing (A, B, "double");
%! A(end) = -Inf; check_narrowing (A, B, "double");
%! A(end) = 4; check_narrowing (A, B, "int16");

%!testif ; gpu_available ()
%! ## gpu_arrays in, gpu_arrays out
%! A = randi ([0 100], 50, 40); B = randi ([0 100], 40, 30); B(3, :) = Inf;
%! [R, RK] = gpu_minplus (A, B, "kernel", "cpu");
%! GA = gpu_array (single (A)); GB = gpu_array (single (B));
%! old = __cudakernels__ ("settings", "minplus_narrow", "always");
%! unwind_protect
%!   [C, K] = gpu_minplus (GA, GB);
%!   ran = __cudakernels__ ("last_plan").work;
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert (ran, "int16");
%! assert (gather (C), single (R)); assert (gather (K), RK);
%! clear GA GB C K
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## a call is judged whole: [C, K] of 4096^3 single from host arrays moves in
%! ## panels of fewer columns, each below the look's threshold, and narrows; one
%! ## panel that cannot (a fraction in its columns of B) runs in the class
%! n = 4096;
%! A = single (randi ([0 999], n)); B = single (randi ([0 999], n)); A(7, :) = Inf;
%! B(3, end) = 0.5;
%! [C, K] = gpu_minplus (A, B);
%! plan = __cudakernels__ ("last_plan");
%! assert ({plan.move, plan.narrow, plan.work, plan.words}, {"panels", true, "int16", "u16x2"});
%! assert (plan.panel < n);
%! old = __cudakernels__ ("settings", "minplus_narrow", "off");
%! unwind_protect
%!   [R, RK] = gpu_minplus (A, B);
%!   plan = __cudakernels__ ("last_plan");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert ({plan.narrow, plan.work}, {false, "single"});
%! __ck_same_bits__ (C, R, "4096^3 from host arrays");
%! assert (isequal (K, RK));
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## the automatic mode does not look at small products
%! C = gpu_minplus (ones (10));
%! assert (__cudakernels__ ("last_plan").work, "double");
