## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## gpu_apsp on integer-valued single and double (issue 17): they run in an
## integer work type, and D and P must be those of their own class, bit for
## bit (signs of zero included), host and gpu_array; and what keeps them in
## their class (a fraction, a negative value, -0, sums past the work type's
## exact range).  Run by tests/run_tests.m.

%!function [D, P, ran, Df, Pf] = both_ways (W)
%!  ## with and without narrowing, on the host (gpu_array results gathered)
%!  dev = isa (W, "gpu_array");
%!  [D, P] = gpu_apsp (W);
%!  ran = __cudakernels__ ("last_plan").work;
%!  D1 = gpu_apsp (W);
%!  old = __cudakernels__ ("settings", "minplus_narrow", "off");
%!  unwind_protect
%!    [Df, Pf] = gpu_apsp (W);
%!    fpath = __cudakernels__ ("last_plan").work;
%!  unwind_protect_cleanup
%!    __cudakernels__ ("settings", old);
%!  end_unwind_protect
%!  if (dev)
%!    [D, P, D1, Df, Pf] = deal (gather (D), gather (P), gather (D1), gather (Df), gather (Pf));
%!  endif
%!  assert (fpath, class (D));
%!  assert (D1, D, 0);
%!endfunction
%!testif ; gpu_available ()
%! for cls = {"double", "single"}
%!   for c = {30, 9, "uint16"; 300, 999, "uint32"}'
%!     n = c{1};
%!     W = cast (randi ([0 c{2}], n), cls{1}); W(rand (n) < 0.5) = Inf; W(1:n+1:end) = 0;
%!     [D, P, ran, Df, Pf] = both_ways (W);
%!     assert (ran, c{3});
%!     assert (class (D), cls{1}); assert (D, Df, 0); assert (P, Pf);
%!     [Dr, Pr] = gpu_apsp (W, "kernel", "cpu");
%!     assert (D, Dr, 0); assert (P, Pr);
%!   endfor
%! endfor
%! [D, P, ran, Df, Pf] = both_ways (gpu_array (W));
%! assert (ran, "uint32"); assert (D, Df, 0); assert (P, Pf);
%! W = randi ([1 9], 40); W(1:41:end) = 0;
%! for c = {0.5, "double"; -1, "double"; -0, "double"; 2^26, "double"; 2^24, "uint32"}'
%!   X = W; X(2, 3) = c{1};
%!   [D, P, ran, Df, Pf] = both_ways (X);
%!   assert (ran, c{2}); assert (D, Df, 0); assert (P, Pf);
%!   assert (isequal (signbit (D), signbit (Df)));
%! endfor
%! [~, ~, ran] = both_ways (single (X));   # 39 * 2^24 is past single's exact sums
%! assert (ran, "single");
%! assert (__ck_released__ ());

