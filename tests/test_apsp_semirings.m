## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## gpu_apsp's other path problems ("semiring"): longest (max.+), widest
## (max.min), minimax (min.max) and most reliable (max.*) paths.  The "cpu"
## kernel against Octave's own plain Floyd-Warshall over each semiring (D and
## P, integer lengths exact and saturated at the end), every path walked
## through P against D, the no-edge and diagonal rules, the errors; the GPU's
## rounds against the cpu kernel bit for bit for every semiring and class, over
## several rounds, at the classes' extremes, with ties, on gpu_arrays and
## shares.  Weights
## are integers (or powers of two for max.*), so every length is exact.  Run by
## tests/run_tests.m.

%!function [add_better, mul, none, one] = rules (sr)
%!  switch (sr)
%!    case "min.+",   add_better = @(s, d) s < d; mul = @plus;  none = Inf;  one = 0;
%!    case "max.+",   add_better = @(s, d) s > d; mul = @plus;  none = -Inf; one = 0;
%!    case "max.min", add_better = @(s, d) s > d; mul = @min;   none = -Inf; one = Inf;
%!    case "min.max", add_better = @(s, d) s < d; mul = @max;   none = Inf;  one = -Inf;
%!    case "max.*",   add_better = @(s, d) s > d; mul = @times; none = 0;    one = 1;
%!  endswitch
%!endfunction

%!function [D, P] = ref_fw (W, sr)
%!  ## plain Floyd-Warshall in double (exact here), strict improvements in k order
%!  [better, mul, none, one] = rules (sr);
%!  n = rows (W); cls = class (W);
%!  D = double (W);
%!  if (isinteger (W))
%!    D(W == no_edge (cls, sr)) = none;
%!  elseif (strcmp (sr, "max.*"))
%!    D(D == -Inf) = 0;
%!  endif
%!  P = zeros (n, "int32");
%!  [i, ~] = find (D != none);
%!  P(D != none) = i;
%!  d = logical (eye (n));
%!  D(d) = one;
%!  P(d) = 0;
%!  for k = 1:n
%!    S = mul (D(:, k), D(k, :));
%!    upd = better (S, D) & (D(:, k) != none) & (D(k, :) != none);
%!    Pk = repmat (P(k, :), n, 1);
%!    D(upd) = S(upd);
%!    P(upd) = Pk(upd);
%!  endfor
%!  if (isinteger (W))   # exact, saturated at the end; no better than "no edge" is none
%!    lo = double (intmin (cls)); hi = double (intmax (cls));
%!    gone = ! better (D, double (no_edge (cls, sr)));
%!    P(gone & ! d) = 0;
%!    D = cast (min (max (D, lo), hi), cls);
%!  else
%!    D = cast (D, cls);
%!  endif
%!endfunction

%!function v = no_edge (cls, sr)
%!  ## the ADD's identity in the class: what W holds where there is no edge
%!  [better, mul, none] = rules (sr);
%!  if (any (strcmp (cls, {"double", "single"})))
%!    v = none;
%!  elseif (none == Inf)
%!    v = intmax (cls);
%!  else
%!    v = intmin (cls);
%!  endif
%!endfunction

%!function W = graph (n, cls, sr, density)
%!  ## random integer weights (powers of two for max.*), so every length is exact;
%!  ## for max.+ a DAG, with no positive cycle
%!  [better, mul, none] = rules (sr);
%!  switch (sr)
%!    case "max.+", W = randi ([-20 20], n); W(tril (true (n))) = none;   # a DAG
%!    case "max.*", W = 2 .^ -randi ([0 6], n);
%!    otherwise,    W = randi ([-50 50], n);
%!  endswitch
%!  W(rand (n) > density) = none;
%!  if (strcmp (sr, "max.+") && n > 1)
%!    p = randperm (n); W = W(p, p);   # no longer upper triangular, still acyclic
%!  endif
%!  if (isinteger (zeros (1, cls)))
%!    X = cast (W, cls); X(W == none) = no_edge (cls, sr); W = X;
%!  else
%!    W = cast (W, cls);
%!  endif
%!endfunction

%!function check_walks (W, D, P, sr)
%!  ## every path walked back through P has the value D has (exact weights)
%!  [better, mul, none, one] = rules (sr);
%!  n = rows (W); Wd = double (W); Dd = double (D);
%!  for q = 1:min (n * n, 60)
%!    s = randi (n); t = randi (n);
%!    if (P(s, t) == 0)
%!      continue;
%!    endif
%!    v = one; j = t; steps = 0;
%!    while (j != s || steps == 0)
%!      i = double (P(s, j));
%!      v = mul (Wd(i, j), v);
%!      j = i; steps += 1;
%!      assert (steps <= n, "a walk through P does not end");
%!    endwhile
%!    assert (v == Dd(s, t), sprintf ("%s: path %d -> %d walks to %g, D has %g", sr, s, t, v, Dd(s, t)));
%!  endfor
%!endfunction

%!test
%! ## the cpu kernel against Octave's plain Floyd-Warshall, every semiring and class
%! rand ("seed", 7); randn ("seed", 7);
%! for sr = {"max.+", "max.min", "min.max", "max.*", "min.+"}
%!   classes = {"double", "single", "int8", "int16", "int32", "uint8", "uint16", "uint32"};
%!   if (strcmp (sr{1}, "max.*"))
%!     classes = {"double", "single"};
%!   elseif (strcmp (sr{1}, "max.+"))
%!     classes = {"double", "single", "int8", "int16", "int32"};
%!   elseif (strcmp (sr{1}, "min.+"))
%!     classes = {"double", "int16"};
%!   endif
%!   for c = classes
%!     for n = [1 2 7 31 40]
%!       if (strcmp (sr{1}, "min.+") || any (strcmp (c{1}, {"uint8", "uint16", "uint32"})))
%!         G = abs (graph (n, "double", "min.max", 0.3));   # nonnegative, Inf no edge
%!         W = cast (G, c{1}); W(isinf (G)) = no_edge (c{1}, sr{1});
%!       else
%!         W = graph (n, c{1}, sr{1}, 0.3);
%!       endif
%!       [D, P] = gpu_apsp (W, "semiring", sr{1}, "kernel", "cpu");
%!       [R, RP] = ref_fw (W, sr{1});
%!       what = sprintf ("%s %s n = %d", sr{1}, c{1}, n);
%!       assert (strcmp (class (D), c{1}), [what ": class"]);
%!       assert (isequal (D, R), [what ": D differs"]);
%!       assert (isequal (P, RP), [what ": P differs"]);
%!       assert (isequal (gpu_apsp (W, "semiring", sr{1}, "kernel", "cpu"), D), what);
%!       if (! isinteger (W))
%!         check_walks (W, D, P, sr{1});
%!       endif
%!     endfor
%!   endfor
%! endfor

%!test
%! ## the rules: no edge, the diagonal, sparse input, spellings, saturation
%! W = [0 5 -Inf; -Inf 0 3; 2 -Inf 7];
%! [D, P] = gpu_apsp (W, "semiring", "max.min", "kernel", "cpu");
%! assert (D, [Inf 5 3; 2 Inf 3; 2 2 Inf]);
%! assert (P, int32 ([0 1 2; 3 0 2; 3 1 0]));
%! D = gpu_apsp (-W, "semiring", "min.max", "kernel", "cpu");
%! assert (D, -[Inf 5 3; 2 Inf 3; 2 2 Inf]);
%! S = sparse ([1 2 3], [2 3 1], [5 3 2], 3, 3);   # stored entries are edges
%! assert (gpu_apsp (S, "semiring", "max.min", "kernel", "cpu"), [Inf 5 3; 2 Inf 3; 2 2 Inf]);
%! S = sparse ([1 2 3], [2 3 1], [0.5 0.5 0.25], 3, 3);
%! assert (gpu_apsp (S, "semiring", "max.times", "kernel", "cpu"),
%!         [1 0.5 0.25; 0.125 1 0.5; 0.25 0.125 1]);
%! assert (gpu_apsp ([0 0.5; 0.25 0], "semiring", "MAX.*", "kernel", "cpu"), [1 0.5; 0.25 1]);
%! assert (gpu_apsp ([0 -Inf; 0.5 0.75], "semiring", "max.*", "kernel", "cpu"), [1 0; 0.5 1]);
%! [D, P] = gpu_apsp (int8 ([0 100 -128; -128 0 100; -128 -128 0]), "semiring", "max.+",
%!                    "kernel", "cpu");
%! assert (D, int8 ([0 100 127; -128 0 100; -128 -128 0]));   # 200 saturates
%! assert (P, int32 ([0 1 2; 0 0 2; 0 0 0]));
%! assert (gpu_apsp ([-3 1; -Inf -3], "semiring", "max.+", "kernel", "cpu"), [0 1; -Inf 0]);
%! assert (gpu_apsp (zeros (0), "semiring", "max.min", "kernel", "cpu"), zeros (0));

%!test
%! ## errors: unbounded cycles name a vertex; invalid weights and classes
%! pos = "cudakernels:positivecycle";
%! __ck_expect_error__ (@() gpu_apsp ([0 1 -Inf; -Inf 0 2; -1 -Inf 0], "semiring", "max.+",
%!                             "kernel", "cpu"), pos, "positive cycle through vertex");
%! __ck_expect_error__ (@() gpu_apsp ([0.5 1; 0 1.5], "semiring", "max.*", "kernel", "cpu"), pos,
%!               "vertex 2");
%! __ck_expect_error__ (@() gpu_apsp ([0 2; 0.75 0], "semiring", "max.*", "kernel", "cpu"), pos,
%!               "product exceeds 1");

%!error <positive cycle> gpu_apsp ([2 -Inf; -Inf 0], "semiring", "max.+", "kernel", "cpu")
%!error id=cudakernels:invalidinput gpu_apsp ([0 -0.5; 1 0], "semiring", "max.*", "kernel", "cpu")
%!error id=cudakernels:invalidinput gpu_apsp ([0 Inf; 1 0], "semiring", "max.+", "kernel", "cpu")
%!error id=cudakernels:invalidinput gpu_apsp ([0 NaN; 1 0], "semiring", "max.min", "kernel", "cpu")
%!error <signed classes> gpu_apsp (uint8 ([0 1; 1 0]), "semiring", "max.+", "kernel", "cpu")
%!error <max.\*> gpu_apsp (int8 ([0 1; 1 0]), "semiring", "max.*", "kernel", "cpu")
%!error <not or.and> gpu_apsp ([0 1; 1 0], "semiring", "or.and", "kernel", "cpu")
%!error <unknown semiring "min.min"> gpu_apsp ([0 1; 1 0], "semiring", "min.min")

%!function v = ifelse_none (sr, lo, hi)
%!  ## "no edge" of the class for the semiring: hi for min.max, lo for max.min
%!  if (strcmp (sr, "min.max"))
%!    v = hi;
%!  else
%!    v = lo;
%!  endif
%!endfunction

%!testif ; gpu_available ()
%! ## the GPU's widest, minimax and most reliable paths are the cpu kernel's, bit
%! ## for bit: single and double in their class (max.min on -W), integers on
%! ## keys (32-bit words, 16-bit halves), over one round and several
%! rand ("seed", 13);
%! for sr = {"max.min", "min.max", "max.*"}
%!   classes = {"double", "single", "int8", "int16", "int32", "uint8", "uint16", "uint32"};
%!   if (strcmp (sr{1}, "max.*"))
%!     classes = {"double", "single"};
%!   endif
%!   for c = classes
%!     for n = [1 2 31 257 300]
%!       W = graph (n, c{1}, sr{1}, 0.2);
%!       [D, P] = gpu_apsp (W, "semiring", sr{1});
%!       [R, RP] = gpu_apsp (W, "semiring", sr{1}, "kernel", "cpu");
%!       what = sprintf ("%s %s n = %d", sr{1}, c{1}, n);
%!       assert (strcmp (class (D), c{1}), [what ": class"]);
%!       assert (isequal (D, R), [what ": D differs"]);
%!       assert (isequal (P, RP), [what ": P differs"]);
%!       assert (isequal (gpu_apsp (W, "semiring", sr{1}), R), [what ": D alone differs"]);
%!     endfor
%!   endfor
%! endfor
%! ## the whole range of each integer class, its extremes included: "no edge" is
%! ## intmax (min.max) or intmin (max.min), the other extreme a weight
%! for c = {"int8", "uint8", "int16", "uint16", "int32", "uint32"}
%!   lo = double (intmin (c{1})); hi = double (intmax (c{1}));
%!   for sr = {"max.min", "min.max"}
%!     W = lo + floor (rand (200) * (hi - lo + 1));
%!     W(rand (200) > 0.05) = ifelse_none (sr{1}, lo, hi);
%!     W(1, 2) = ifelse_none (sr{1}, hi, lo);   # the opposite extreme is an edge
%!     W = cast (W, c{1});
%!     [D, P] = gpu_apsp (W, "semiring", sr{1});
%!     [R, RP] = gpu_apsp (W, "semiring", sr{1}, "kernel", "cpu");
%!     assert (isequal (D, R) && isequal (P, RP), sprintf ("%s %s: extremes", sr{1}, c{1}));
%!   endfor
%! endfor
%! ## ties everywhere (few distinct weights), gpu_arrays on two and three shares
%! for sr = {"max.min", "min.max", "max.*"}
%!   for c = {"single", "int16"}
%!     if (strcmp (sr{1}, "max.*") && strcmp (c{1}, "int16"))
%!       continue;
%!     endif
%!     W = graph (600, c{1}, sr{1}, 0.05);
%!     if (! strcmp (sr{1}, "max.*"))
%!       W(W != no_edge (c{1}, sr{1})) = mod (W(W != no_edge (c{1}, sr{1})), 3);
%!     endif
%!     [R, RP] = gpu_apsp (W, "semiring", sr{1}, "kernel", "cpu");
%!     for shares = {[1 1], [1 1 1]}
%!       [GD, GP] = gpu_apsp (gpu_array (W), "semiring", sr{1}, "devices", shares{1});
%!       what = sprintf ("%s %s, %d shares", sr{1}, c{1}, numel (shares{1}));
%!       assert (isequal (gather (GD), R) && isequal (gather (GP), RP), what);
%!       clear GD GP;
%!     endfor
%!   endfor
%! endfor
%! ## single and double on the ranks of their values (from n = 1024): the class
%! ## path's D and P (narrowing off), uint16 keys for few distinct values, int32
%! ## for many (double), and ranks ruled out by -0 beside +0
%! for sr = {"max.min", "min.max"}
%!   for c = {"double", "single"}
%!     for distinct = [40 1e9]
%!       W = graph (1100, "double", sr{1}, 0.01);
%!       e = W != no_edge ("double", sr{1});
%!       W(e) = ceil (rand (nnz (e), 1) * distinct) / 8;
%!       if (distinct > 1e6)
%!         W(3, 5) = -0; W(5, 3) = 0;   # rules ranks out
%!       endif
%!       W = cast (W, c{1});
%!       [D, P] = gpu_apsp (W, "semiring", sr{1});
%!       plan = __cudakernels__ ("last_plan");
%!       old = __cudakernels__ ("settings", "minplus_narrow", "off");
%!       [R, RP] = gpu_apsp (W, "semiring", sr{1});
%!       __cudakernels__ ("settings", old);
%!       what = sprintf ("%s %s, %g distinct, %s", sr{1}, c{1}, distinct, plan.work);
%!       assert (isequal (D, R) && isequal (P, RP), [what ": not the class path's"]);
%!       if (distinct < 100)
%!         assert (plan.work, "uint16", what);
%!         [C, CP] = gpu_apsp (W, "semiring", sr{1}, "kernel", "cpu");
%!         assert (isequal (D, C) && isequal (P, CP), [what ": not the cpu kernel's"]);
%!       else
%!         assert (plan.work, c{1}, what);
%!       endif
%!     endfor
%!   endfor
%! endfor
%! ## n = 1000 against the cpu kernel, and 4099 (ranks, 17 rounds) against the class path
%! for sr = {"max.min", "max.*"}
%!   W = graph (1000, "single", sr{1}, 0.01);
%!   [D, P] = gpu_apsp (W, "semiring", sr{1});
%!   [C, CP] = gpu_apsp (W, "semiring", sr{1}, "kernel", "cpu");
%!   assert (isequal (D, C) && isequal (P, CP), [sr{1} " single n = 1000"]);
%! endfor
%! W = graph (4099, "single", "min.max", 0.002);
%! [D, P] = gpu_apsp (W, "semiring", "min.max");
%! plan = __cudakernels__ ("last_plan");
%! old = __cudakernels__ ("settings", "minplus_narrow", "off");
%! [R, RP] = gpu_apsp (W, "semiring", "min.max");
%! __cudakernels__ ("settings", old);
%! assert (plan.work, "uint16");
%! assert (isequal (D, R) && isequal (P, RP), "min.max single n = 4099: ranks against the class");
%! ## 65535 and 65536 distinct values: uint16 ranks, int32 keys
%! for extra = [0 1]
%!   W = Inf (1100); W(1:1101:end) = 0;
%!   e = find (rand (1100) < 0.06 & W == Inf, 65533 + extra);
%!   W(e) = (1:numel (e)) / 4;   # with 0 and Inf: 65535 + extra distinct values
%!   [D, P] = gpu_apsp (W, "semiring", "min.max");
%!   plan = __cudakernels__ ("last_plan");
%!   old = __cudakernels__ ("settings", "minplus_narrow", "off");
%!   [R, RP] = gpu_apsp (W, "semiring", "min.max");
%!   __cudakernels__ ("settings", old);
%!   assert (plan.work, "uint32");
%!   assert (isequal (D, R) && isequal (P, RP), sprintf ("%d distinct", 65535 + extra));
%! endfor
%! ## Ctrl-C (the test hook) and out of memory on the ranks' path leave nothing behind
%! W = graph (1100, "double", "max.min", 0.05);
%! __cudakernels__ ("settings", "test_cancel_after", 0);
%! unwind_protect
%!   __ck_expect_error__ (@() gpu_apsp (W, "semiring", "max.min"), "cudakernels:interrupted", ".");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", "test_cancel_after", -1);
%! end_unwind_protect
%! __cudakernels__ ("settings", "test_alloc_limit", 2^20);
%! unwind_protect
%!   __ck_expect_error__ (@() gpu_apsp (W, "semiring", "max.min"), "cudakernels:outofmemory", ".");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", "test_alloc_limit", 0);
%! end_unwind_protect
%! assert (__ck_released__ ());
%! W = graph (1100, "double", "min.max", 0.1); W(W < Inf) = rand (nnz (W < Inf), 1);
%! [D, P] = gpu_apsp (W, "semiring", "min.max");
%! plan = __cudakernels__ ("last_plan");
%! [C, CP] = gpu_apsp (W, "semiring", "min.max", "kernel", "cpu");
%! assert (plan.work, "uint32");
%! assert (isequal (D, C) && isequal (P, CP), "double on int32 ranks: not the cpu kernel's");
%! ## max.* on weights whose products round: with P the cpu kernel's bit for bit,
%! ## D alone within a few units in the last place (the blocks group the products)
%! for c = {"double", "single"}
%!   W = graph (600, c{1}, "max.*", 0.05);
%!   W(W > 0) = cast (rand (nnz (W > 0), 1) * 0.99 + 0.005, c{1});
%!   [D, P] = gpu_apsp (W, "semiring", "max.*");
%!   [R, RP] = gpu_apsp (W, "semiring", "max.*", "kernel", "cpu");
%!   assert (isequal (D, R) && isequal (P, RP), [c{1} ": max.* with P"]);
%!   D = gpu_apsp (W, "semiring", "max.*");
%!   assert (D, R, -8 * eps (c{1}));
%! endfor
%! ## max.*: a cycle whose product exceeds 1, found in the rounds and on the diagonal
%! C = graph (300, "double", "max.*", 0.1); C(C > 0.5) = 0.5; C(7, 200) = 4; C(200, 7) = 0.5;
%! __ck_expect_error__ (@() gpu_apsp (C, "semiring", "max.*"), "cudakernels:positivecycle",
%!               "product exceeds 1");
%! __ck_expect_error__ (@() gpu_apsp ([0.5 1; 0 1.5], "semiring", "max.*"), "cudakernels:positivecycle",
%!               "vertex 2");
%! __ck_expect_error__ (@() gpu_apsp ([0 -0.5; 1 0], "semiring", "max.*"), "cudakernels:invalidinput",
%!               "negative");
%! __ck_expect_error__ (@() gpu_apsp ([0 1; NaN 0], "semiring", "max.min"), "cudakernels:invalidinput",
%!               "NaN");
%! __ck_expect_error__ (@() gpu_apsp ([NaN 1; 2 0], "semiring", "min.max"), "cudakernels:invalidinput",
%!               "NaN");
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## the GPU's max.+ (shortest paths on -W) is the cpu kernel's, bit for bit
%! rand ("seed", 11);
%! for c = {"double", "single", "int8", "int16", "int32"}
%!   for n = [1 2 31 257 300]
%!     W = graph (n, c{1}, "max.+", 0.2);
%!     [D, P] = gpu_apsp (W, "semiring", "max.+");
%!     [R, RP] = gpu_apsp (W, "semiring", "max.+", "kernel", "cpu");
%!     what = sprintf ("max.+ %s n = %d", c{1}, n);
%!     assert (isequal (D, R), [what ": D differs"]);
%!     assert (isequal (P, RP), [what ": P differs"]);
%!     assert (isequal (gpu_apsp (W, "semiring", "max.+"), R), [what ": D alone differs"]);
%!     if (! isinteger (W))
%!       assert (isequal (-gpu_apsp (-W), D), [what ": not -min.+ (-W)"]);
%!     endif
%!   endfor
%! endfor
%! ## nonnegative integer-valued doubles in an integer work type; int8 sums that
%! ## saturate; gpu_array on two shares; the positive cycle
%! W = graph (700, "double", "max.+", 0.1); W(W < 0 & W > -Inf) *= -1;
%! [D, P] = gpu_apsp (W, "semiring", "max.+");
%! [R, RP] = gpu_apsp (W, "semiring", "max.+", "kernel", "cpu");
%! assert (isequal (D, R) && isequal (P, RP), "integer-valued double");
%! [GD, GP] = gpu_apsp (gpu_array (W), "semiring", "max.+", "devices", [1 1]);
%! assert (isequal (gather (GD), R) && isequal (gather (GP), RP), "gpu_array, two shares");
%! clear GD GP;
%! W8 = graph (300, "int8", "max.+", 0.3);
%! [D, P] = gpu_apsp (W8, "semiring", "max.+");
%! [R, RP] = gpu_apsp (W8, "semiring", "max.+", "kernel", "cpu");
%! assert (any (R(:) == intmax ("int8")), "the test's sums should saturate");
%! assert (isequal (D, R) && isequal (P, RP), "int8 saturation");
%! ## the lengths next to intmin: -intmax is a path, intmin none
%! for c = {"int8", "int16", "int32"}
%!   lo = double (intmin (c{1}));
%!   W = cast ([0 lo+1 lo; lo 0 -1; lo lo 0], c{1});   # 1->2->3 sums to intmin: none
%!   [D, P] = gpu_apsp (W, "semiring", "max.+");
%!   [R, RP] = gpu_apsp (W, "semiring", "max.+", "kernel", "cpu");
%!   assert (R(1, 2) == lo + 1 && RP(1, 2) == 1 && R(1, 3) == lo && RP(1, 3) == 0, c{1});
%!   assert (isequal (D, R) && isequal (P, RP), [c{1} ": next to intmin"]);
%! endfor
%! ## W none above 0: -W's sums on the integer words ("no path" -intmin for int8
%! ## and int16), the lengths next to intmin exact there too
%! for c = {"int8", "int16", "int32"}
%!   lo = double (intmin (c{1}));
%!   W = -randi ([0 20], 300); W(rand (300) > 0.05) = lo;
%!   W(1:4, :) = lo; W(:, 1:4) = lo;   # vertices 1 to 4 apart from the rest
%!   W(1:4, 1:4) = [0 -27 lo lo; lo 0 lo+28 lo; lo lo 0 -1; lo lo lo 0];
%!   W = cast (W, c{1});
%!   [D, P] = gpu_apsp (W, "semiring", "max.+");
%!   plan = __cudakernels__ ("last_plan");
%!   [R, RP] = gpu_apsp (W, "semiring", "max.+", "kernel", "cpu");
%!   assert (R(1, 3) == lo + 1 && RP(1, 3) == 2 && R(1, 4) == lo && RP(1, 4) == 0, c{1});
%!   assert (isequal (D, R) && isequal (P, RP), [c{1} ": on words"]);
%!   assert (isequal (gpu_apsp (W, "semiring", "max.+"), R), [c{1} ": D alone on words"]);
%!   if (! strcmp (c{1}, "int32"))   # int32's longest paths could reach intmax: double
%!     assert (any (strcmp (plan.work, {"uint16", "uint32"})), [c{1} ": " plan.work]);
%!   endif
%! endfor
%! C = graph (300, "double", "max.+", 0.1); C(7, 200) = 5; C(200, 7) = -4;
%! __ck_expect_error__ (@() gpu_apsp (C, "semiring", "max.+"), "cudakernels:positivecycle",
%!               "positive cycle");
%! assert (__ck_released__ ());
