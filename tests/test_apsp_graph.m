## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## gpu_apsp on one graph by tiles: D alone of a graph of 257 to 2816 vertices on one GPU runs in
## one launch by 64-wide tiles (kernels/apsp/apsp_graph_tiled.cu), and must equal the rounds'
## D (the setting apsp_graph at "rounds") exactly where every sum is exact, up to rounding
## otherwise, in every work type and semiring the tiles take; an unbounded cycle is named as
## the rounds name it.  The plan and memory cases are in tests/test_plan.m.  Run by
## tests/run_tests.m.

%!function varargout = on_rounds (varargin)
%!  old = __cudakernels__ ("settings", "apsp_graph", "rounds");
%!  unwind_protect
%!    [varargout{1:max (nargout, 1)}] = gpu_apsp (varargin{:});
%!    assert (__cudakernels__ ("last_plan").tile, [0 0 0]);
%!  unwind_protect_cleanup
%!    __cudakernels__ ("settings", old);
%!  end_unwind_protect
%!endfunction
%!function msg = error_of (varargin)
%!  msg = "";
%!  try
%!    f = varargin{1};
%!    f (varargin{2:end});
%!  catch err
%!    msg = [err.identifier " " err.message];
%!  end_try_catch
%!endfunction
%!testif ; gpu_available ()
%! ## single with negative weights in its class; the integers (nonnegative: negative ones run
%! ## in double, on the rounds) on 16-bit halves (int8, uint8, int16) and 32-bit words
%! for n = [257 300 512 1000 1500]
%!   for cls = {"single", "int8", "uint8", "int16", "uint16", "int32"}
%!     W = __ck_graph__ (n, cls{1}, 0.02 + 0.2 * rand (), strcmp (cls{1}, "single"));
%!     W0 = W;
%!     D = gpu_apsp (W);
%!     pl = __cudakernels__ ("last_plan");
%!     assert ({pl.graph_tiles, pl.tile}, {true, [64 64 64]});
%!     assert (D, on_rounds (W), 0);
%!     assert (W, W0);
%!     assert (gather (gpu_apsp (gpu_array (W))), D, 0);
%!   endfor
%! endfor
%! ## integer-valued single on the integer words; the largest size by tiles
%! old = __cudakernels__ ("settings", "minplus_narrow", "always");
%! unwind_protect
%!   for n = [700 2816]
%!     W = __ck_graph__ (n, "single", 0.01, false);
%!     D = gpu_apsp (W);
%!     pl = __cudakernels__ ("last_plan");
%!     assert (any (strcmp (pl.work, {"uint16", "uint32"})) && isequal (pl.tile, [64 64 64]));
%!     assert (D, on_rounds (W), 0);
%!   endfor
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! W = single (rand (1000) * 10); W(rand (1000) > 0.03) = Inf;
%! D = gpu_apsp (W);
%! assert (__cudakernels__ ("last_plan").tile, [64 64 64]);
%! assert (double (D), double (on_rounds (W)), -64 * eps ("single"));
%! assert (__ck_released__ ());
%!function v = no_edge (sr, cls)
%!  if (strcmp (sr, "max.*"))
%!    v = 0;
%!  elseif (strcmp (cls, "single"))
%!    v = Inf * (2 * strcmp (sr, "min.max") - 1);
%!  elseif (strcmp (sr, "min.max"))
%!    v = intmax (cls);
%!  else
%!    v = intmin (cls);
%!  endif
%!endfunction
%!testif ; gpu_available ()
%! for sr = {"min.max", "max.min", "max.+", "max.*"}
%!   for cls = {"single", "int32"}
%!     if (strcmp (sr{1}, "max.*") && strcmp (cls{1}, "int32"))
%!       continue;
%!     endif
%!     none = no_edge (sr{1}, cls{1});
%!     W = cast (randi ([-50 50], 700), cls{1});
%!     if (any (strcmp (sr{1}, {"max.+", "max.*"})))
%!       W = abs (W);
%!     endif
%!     if (strcmp (sr{1}, "max.+"))
%!       W = -W;
%!     elseif (strcmp (sr{1}, "max.*"))
%!       W = W / 50;
%!     endif
%!     W(rand (700) > 0.03) = none;
%!     D = gpu_apsp (W, "semiring", sr{1});
%!     pl = __cudakernels__ ("last_plan");   # int32 max.+ (-W, intmin) runs in double
%!     assert (pl.tile, 64 * ones (1, 3) * ! strcmp (pl.work, "double"));
%!     R = on_rounds (W, "semiring", sr{1});
%!     if (strcmp (sr{1}, "max.*"))
%!       assert (double (D), double (R), -64 * eps ("single"));
%!     else
%!       assert (D, R, 0);
%!     endif
%!   endfor
%! endfor
%! assert (__ck_released__ ());
%!testif ; gpu_available ()
%! ## an unbounded cycle: the tiles find it (at the closure of its tile: the first, a middle
%! ## one, the last), the rounds run again from the weights and name the vertex (768: the
%! ## weights lie in D's buffer on the device); max.+ on -W
%! for n = [700 768]
%!   for c = [3 40 40; 400 17 523; n - 10 n - 50 n - 30]'
%!     W = __ck_graph__ (n, "single", 0.3, false);
%!     W(c(1), c(2)) = -1000; W(c(2), c(3)) = 0; W(c(3), c(1)) = 0;
%!     W0 = W;
%!     msg = error_of (@gpu_apsp, W);
%!     pl = __cudakernels__ ("last_plan");
%!     assert ({pl.graph_tiles, pl.tile}, {true, [0 0 0]});   # planned, and the rounds ran
%!     assert (msg, error_of (@on_rounds, W));
%!     assert (strncmp (msg, "cudakernels:negativecycle", 25), msg);
%!     assert (W, W0);
%!     assert (error_of (@gpu_apsp, gpu_array (W)), msg);
%!   endfor
%!   W = -abs (single (randi ([0 50], n))); W(rand (n) > 0.05) = -Inf;
%!   W(5, n - 3) = 5; W(n - 3, 5) = 5;
%!   msg = error_of (@gpu_apsp, W, "semiring", "max.+");
%!   assert (strncmp (msg, "cudakernels:positivecycle", 25), msg);
%!   assert (msg, error_of (@on_rounds, W, "semiring", "max.+"));
%!   ## max.*: one weight above 1 (the survey notes it: the tiles look for the cycle)
%!   W = single (rand (n) * 0.5); W(rand (n) > 0.05) = 0;
%!   W(7, 200) = 4; W(200, 7) = 0.5;
%!   msg = error_of (@gpu_apsp, W, "semiring", "max.*");
%!   assert (strncmp (msg, "cudakernels:positivecycle", 25), msg);
%!   assert (msg, error_of (@on_rounds, W, "semiring", "max.*"));
%! endfor
%! assert (__ck_released__ ());

## with P by tiles, in plain Floyd-Warshall's order from the histories: D and P the rounds'
## bit for bit, even where sums round (the same terms in the same order), in every work type
## the tiles take; ties everywhere (weights 0 to 3, cycles of weight 0) as the cpu kernel's
%!testif ; gpu_available ()
%! for n = [257 300 700 1000]
%!   for cls = {"single", "int16", "int32", "uint8"}
%!     W = __ck_graph__ (n, cls{1}, 0.02 + 0.2 * rand (), strcmp (cls{1}, "single"));
%!     W0 = W;
%!     [D, P] = gpu_apsp (W);
%!     pl = __cudakernels__ ("last_plan");
%!     assert ({pl.graph_tiles, pl.tile}, {true, [64 64 64]});
%!     [RD, RP] = on_rounds (W);
%!     assert (isequal (D, RD) && isequal (P, RP), sprintf ("%s n = %d", cls{1}, n));
%!     assert (W, W0);
%!   endfor
%! endfor
%! W = __ck_graph__ (2100, "int16", 0.01, false);   # 16-bit words past 2048 with P
%! [D, P] = gpu_apsp (W);
%! assert (__cudakernels__ ("last_plan").tile, [64 64 64]);
%! [RD, RP] = on_rounds (W);
%! assert (isequal (D, RD) && isequal (P, RP));
%! W = single (rand (700) * 10); W(rand (700) > 0.03) = Inf;   # sums that round
%! [D, P] = gpu_apsp (W);
%! [RD, RP] = on_rounds (W);
%! assert (isequal (D, RD) && isequal (P, RP));
%! [GD, GP] = gpu_apsp (gpu_array (W));
%! assert (isequal (gather (GD), RD) && isequal (gather (GP), RP));
%! clear GD GP
%! W = single (randi ([0 3], 500)); W(rand (500) > 0.1) = Inf;  # ties, zero-weight cycles
%! [D, P] = gpu_apsp (W);
%! assert (__cudakernels__ ("last_plan").tile, [64 64 64]);
%! [CD, CP] = gpu_apsp (W, "kernel", "cpu");
%! assert (isequal (D, CD) && isequal (P, CP));
%! assert (isequal (gpu_path (P, 1, 400), gpu_path (CP, 1, 400)));
%! for sr = {"min.max", "max.min", "max.+", "max.*"}
%!   W = single (randi ([1 50], 600));
%!   if (strcmp (sr{1}, "max.*"))
%!     W = W / 50;
%!   elseif (strcmp (sr{1}, "max.+"))
%!     W = -W;
%!   endif
%!   W(rand (600) > 0.03) = no_edge (sr{1}, "single");
%!   [D, P] = gpu_apsp (W, "semiring", sr{1});
%!   assert (__cudakernels__ ("last_plan").tile, [64 64 64]);
%!   [RD, RP] = on_rounds (W, "semiring", sr{1});
%!   assert (isequal (D, RD) && isequal (P, RP), sr{1});
%! endfor
%! W = __ck_graph__ (700, "single", 0.3, false);   # an unbounded cycle: named as the rounds name it
%! W(400, 17) = -1000; W(17, 523) = 0; W(523, 400) = 0;
%! msg = "";
%! try
%!   [D, P] = gpu_apsp (W);
%! catch err
%!   msg = [err.identifier " " err.message];
%! end_try_catch
%! assert (msg, error_of (@on_rounds, W));
%! assert (__ck_released__ ());
%!function [D, P] = with_paths (W)
%!  [D, P] = gpu_apsp (W);
%!endfunction
%!testif ; gpu_available ()
%! ## a gpu_array's graph whose work type is its own class whatever its weights (single and
%! ## double, narrowing off) runs before its weights' survey is read: the same D and P, and the
%! ## same errors, a refused weight first, then a weight to itself, then a cycle, as a host
%! ## array's call, which waits for the survey (by tiles, and the rounds in double; 40 vertices,
%! ## a batched page, waits as before); at 512 vertices the survey also writes the work matrix,
%! ## which lies in D and P as W's values do
%! old = __cudakernels__ ("settings", "minplus_narrow", "off");
%! unwind_protect
%!   for n = [40 300 512 1000]
%!     for cls = {"single", "double"}
%!       W = __ck_graph__ (n, cls{1}, 0.1, true);   # negative weights, no negative cycle
%!       [GD, GP] = gpu_apsp (gpu_array (W));
%!       [D, P] = gpu_apsp (W);
%!       what = sprintf ("%s n = %d", cls{1}, n);
%!       assert (isequal (gather (GD), D) && isequal (gather (GP), P), what);
%!       assert (isequal (gather (gpu_apsp (gpu_array (W))), D), what);
%!       U = W; U(5, 1) = NaN;   # straight after a success: its survey left the scratch cleared
%!       assert (error_of (@gpu_apsp, gpu_array (U)), error_of (@gpu_apsp, U), what);
%!       V = W; V(n, 2) = -1e4; V(2, n) = 0;   # a negative cycle through 2 and n
%!       want = {"negativecycle .* cycle through vertex", ...
%!               "negativecycle .* cycle: vertex 3 has a negative", "invalidinput .* must not be"};
%!       for e = 1:3
%!         if (e == 2) V(3, 3) = -1; endif
%!         if (e == 3) V(5, 1) = NaN; endif
%!         msg = error_of (@gpu_apsp, V);
%!         assert (! isempty (regexp (msg, want{e}, "once")), [what ": " msg]);
%!         assert (error_of (@gpu_apsp, gpu_array (V)), msg, what);
%!         assert (error_of (@with_paths, gpu_array (V)), error_of (@with_paths, V), what);
%!       endfor
%!     endfor
%!   endfor
%!   ## no negative weight: no cycle word read; min.max in place, max.+ on -W
%!   W = __ck_graph__ (512, "single", 0.1, false);
%!   V = -W;
%!   X = single (randi ([1 50], 512)); X(rand (512) > 0.05) = Inf;
%!   M = single (rand (512)); M(rand (512) > 0.05) = 0;
%!   for c = {W, "min.+"; V, "max.+"; X, "min.max"; M, "max.*"}'
%!     [GD, GP] = gpu_apsp (gpu_array (c{1}), "semiring", c{2});
%!     [D, P] = gpu_apsp (c{1}, "semiring", c{2});
%!     assert (isequal (gather (GD), D) && isequal (gather (GP), P), c{2});
%!     ## D alone against D alone: max.*'s products round as the blocks group them
%!     assert (isequal (gather (gpu_apsp (gpu_array (c{1}), "semiring", c{2})),
%!                      gpu_apsp (c{1}, "semiring", c{2})), c{2});
%!   endfor
%!   W = single (randi ([1 50], 500)); W(rand (500) > 0.05) = -Inf;   # max.min is never narrowed
%!   __cudakernels__ ("settings", old);
%!   [GD, GP] = gpu_apsp (gpu_array (W), "semiring", "max.min");
%!   [D, P] = gpu_apsp (W, "semiring", "max.min");
%!   assert (isequal (gather (GD), D) && isequal (gather (GP), P));
%!   W(7, 9) = NaN;
%!   assert (error_of (@gpu_apsp, gpu_array (W), "semiring", "max.min"), ...
%!           error_of (@gpu_apsp, W, "semiring", "max.min"));
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! clear GD GP
%! assert (__ck_released__ ());
