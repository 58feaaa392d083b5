## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## gpu_apsp over pages: W of size n-by-n-by-p (any trailing dimensions), a
## graph a page.  Every page against the "cpu" kernel's 2-D call on that page,
## D and P bit for bit, for every semiring and class, at ragged sizes on the
## batched kernels (1 to 256 vertices: a block's, a cluster's, and for D alone
## of many pages the tiled kernel, whose fractions round in their own order),
## D alone of many pages of up to 1024 vertices on the tiled kernel alone, and
## past them (with P many graphs by tiles: tests/test_apsp_graph_pages.m; else page by page
## on the rounds); the shapes
## (p = 0, p = 1, n = 1, 4-D), many pages, unbounded cycles named by page,
## gpu_arrays and gpu_path's page argument, Ctrl-C and out of memory.  Weights
## are integers (powers of two for max.*), so every length is exact.  Run by
## tests/run_tests.m.

%!function v = no_edge (cls, sr)
%!  ## the ADD's identity in the class: what W holds where there is no edge
%!  switch (sr)
%!    case {"min.+", "min.max"}, v = Inf;
%!    case "max.*",              v = 0;
%!    otherwise,                 v = -Inf;
%!  endswitch
%!  if (isinteger (zeros (1, cls)))
%!    v = ifelse_int (v, cls);
%!  endif
%!endfunction

%!function v = ifelse_int (v, cls)
%!  if (v > 0)
%!    v = intmax (cls);
%!  else
%!    v = intmin (cls);
%!  endif
%!endfunction

%!function w = ifelse_work (nonneg, words)
%!  w = "double";
%!  if (nonneg)
%!    w = words;
%!  endif
%!endfunction

%!function W = graph (n, cls, sr, density, nonneg)
%!  ## random integer weights without unbounded cycles: min.+ from potentials
%!  ## (w(i,j) = c + h(i) - h(j), every cycle >= 0), max.+ a DAG, max.* powers of
%!  ## two at most 1; unsigned classes (and nonneg) nonnegative
%!  unsigned = nonneg || any (strcmp (cls, {"uint8", "uint16", "uint32"}));
%!  switch (sr)
%!    case "min.+"
%!      h = randi ([0 20], n, 1) * ! unsigned;
%!      W = randi ([0 30], n) + h - h';
%!    case "max.+"
%!      W = randi ([-20 20], n); W(tril (true (n))) = -Inf;
%!      p = randperm (n); W = W(p, p);
%!    case "max.*"
%!      W = 2 .^ -randi ([0 6], n);
%!    otherwise
%!      W = randi ([-50 50], n) + 50 * unsigned;
%!  endswitch
%!  off = rand (n) > density;
%!  if (isinteger (zeros (1, cls)))
%!    W = cast (W, cls); W(off) = no_edge (cls, sr);
%!  else
%!    W(off) = no_edge (cls, sr); W = cast (W, cls);
%!  endif
%!endfunction

%!function W = pages_of (n, p, cls, sr, nonneg = false)
%!  W = zeros (n, n, p, cls);
%!  for q = 1:p
%!    W(:, :, q) = graph (n, cls, sr, 0.2 + 0.6 * mod (q, 2), nonneg);
%!  endfor
%!endfunction

%!function check_pages (W, sr, what)
%!  ## every page of the paged call equals the cpu kernel's call on that page
%!  [D, P] = gpu_apsp (W, "semiring", sr);
%!  Dalone = gpu_apsp (W, "semiring", sr);
%!  assert (size (D), size (W)); assert (size (P), size (W));
%!  assert (class (D), class (W)); assert (class (P), "int32");
%!  for q = 1:prod (size (W)(3:end))
%!    [C, CP] = gpu_apsp (W(:, :, q), "semiring", sr, "kernel", "cpu");
%!    assert (isequal (D(:, :, q), C), sprintf ("%s: D of page %d", what, q));
%!    assert (isequal (P(:, :, q), CP), sprintf ("%s: P of page %d", what, q));
%!    assert (isequal (Dalone(:, :, q), C), sprintf ("%s: D alone, page %d", what, q));
%!  endfor
%!endfunction

%!function D = with_paths (W)
%!  ## D of a call that computes P too
%!  [D, P] = gpu_apsp (W);
%!endfunction

%!function [W, C, CP, what, plan] = check_tiled (t, many)
%!  ## D alone of many pages against the cpu kernel's, and whether the tiled kernel ran
%!  [n, cls, sr, nonneg, tiled] = t{:};
%!  what = sprintf ("%d pages of %d, %s %s", many, n, sr, cls);
%!  W = pages_of (n, many, cls, sr, nonneg);
%!  D = gpu_apsp (W, "semiring", sr);
%!  plan = __cudakernels__ ("last_plan");
%!  assert (isequal (plan.tile, [64 64 64] * tiled), what);
%!  [C, CP] = gpu_apsp (W, "semiring", sr, "kernel", "cpu");
%!  assert (isequal (D, C), what);
%!endfunction

%!test
%! ## the cpu kernel takes pages too (page by page), on any machine: each page its own call,
%! ## the shapes, and an unbounded cycle named by its page
%! rand ("seed", 10);
%! for sr = {"min.+", "max.min"}
%!   W = pages_of (7, 4, "int16", sr{1});
%!   [D, P] = gpu_apsp (W, "semiring", sr{1}, "kernel", "cpu");
%!   for q = 1:4
%!     [C, CP] = gpu_apsp (W(:, :, q), "semiring", sr{1}, "kernel", "cpu");
%!     assert (isequal (D(:, :, q), C) && isequal (P(:, :, q), CP));
%!   endfor
%! endfor
%! [D, P] = gpu_apsp (reshape (W, 7, 7, 2, 2), "semiring", "max.min", "kernel", "cpu");
%! assert (size (D), [7 7 2 2]); assert (size (P), [7 7 2 2]);
%! assert (size (gpu_apsp (zeros (3, 3, 0), "kernel", "cpu")), [3 3 0]);
%! W = pages_of (5, 3, "double", "min.+"); W(1, 2, 3) = -50; W(2, 1, 3) = 1;
%! __ck_expect_error__ (@() gpu_apsp (W, "kernel", "cpu"), "cudakernels:negativecycle",
%!               "graph of page 3 has a negative cycle through vertex");
%! __ck_expect_error__ (@() gpu_apsp (zeros (0, 0, 2, "uint8"), "semiring", "max.+", "kernel", "cpu"),
%!               "cudakernels:invalidinput", "signed classes");
%! fail ("gpu_apsp (ones (2, 3, 2), \"kernel\", \"cpu\")", "square");

%!testif ; gpu_available ()
%! ## every semiring and class, ragged sizes on the batched kernels (a block's, a cluster's)
%! rand ("seed", 11);
%! all_classes = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32"};
%! for sr = {"min.+", "max.+", "max.min", "min.max", "max.*"}
%!   classes = all_classes;
%!   if (strcmp (sr{1}, "max.+"))
%!     classes = {"double", "single", "int8", "int16", "int32"};
%!   elseif (strcmp (sr{1}, "max.*"))
%!     classes = {"double", "single"};
%!   endif
%!   for c = classes
%!     for n = [1 2 17 33 65 100 128 129 256]
%!       check_pages (pages_of (n, 3, c{1}, sr{1}), sr{1}, sprintf ("%s %s n=%d", sr{1}, c{1}, n));
%!     endfor
%!   endfor
%! endfor
%! gpu_apsp (pages_of (20, 3, "single", "min.+"));
%! plan = __cudakernels__ ("last_plan");
%! assert (plan.pages, 3); assert (plan.batched_runs, 1); assert (plan.single_pages, 0);

%!testif ; gpu_available ()
%! ## past the batched kernels: with P as graphs by tiles (tests/test_apsp_graph_pages.m; D
%! ## alone of two pages of 257 on the tiles, of 300 in double page by page); integer-valued
%! ## single weights in their class on pages, on the integer words alone
%! rand ("seed", 12);
%! for c = {"single", "int16", "int32"}
%!   check_pages (pages_of (257, 2, c{1}, "min.+"), "min.+", ["257 " c{1}]);
%! endfor
%! W = pages_of (300, 2, "double", "max.min");
%! check_pages (W, "max.min", "300 double");
%! gpu_apsp (W, "semiring", "max.min");
%! plan = __cudakernels__ ("last_plan");
%! assert (plan.single_pages, 2);
%! W = pages_of (40, 4, "single", "min.+", true);
%! [D, P] = gpu_apsp (W);
%! plan = __cudakernels__ ("last_plan");
%! assert (plan.work, "single");   # pages stay in their class
%! [C, CP] = gpu_apsp (W, "kernel", "cpu");
%! assert (isequal (D, C) && isequal (P, CP));
%! [D2, P2] = gpu_apsp (W(:, :, 2));
%! plan = __cudakernels__ ("last_plan");
%! assert (plan.work, "uint16");   # one graph: integer weights on the 16-bit words
%! assert (isequal (D2, C(:, :, 2)) && isequal (P2, CP(:, :, 2)));
%! ## int16 and int32 guess their words, checked as the kernel loads the weights: a
%! ## negative weight runs the call again, in double
%! for c = {"int16", "uint16"; "int32", "uint32"}'
%!   for nonneg = [true false]
%!     W = pages_of (70, 3, c{1}, "min.+", nonneg);
%!     for where = {"host", "device"}
%!       if (strcmp (where{1}, "host"))
%!         [D, P] = gpu_apsp (W);
%!       else
%!         [D, P] = gpu_apsp (gpu_array (W)); D = gather (D); P = gather (P);
%!       endif
%!       plan = __cudakernels__ ("last_plan");
%!       assert (plan.work, ifelse_work (nonneg, c{2}));
%!       [C, CP] = gpu_apsp (W, "kernel", "cpu");
%!       assert (isequal (D, C) && isequal (P, CP), [c{1} " " where{1}]);
%!     endfor
%!   endfor
%! endfor
%! ## fractions: D alone and with P are the cpu kernel's (plain order), bit for bit
%! W = rand (50, 50, 3); W(W > 0.5) = Inf;
%! [D, P] = gpu_apsp (W);
%! [C, CP] = gpu_apsp (W, "kernel", "cpu");
%! assert (isequal (D, C) && isequal (P, CP) && isequal (gpu_apsp (W), C));

%!testif ; gpu_available ()
%! ## distances alone of many pages of 129 to 256 vertices: the tiled kernel (blocked by
%! ## 64-wide tiles), the cpu kernel's D wherever sums are exact; few pages, the cluster kernel
%! ## (plain order); with P, graphs by tiles in plain order (8-byte values: the cluster kernel)
%! rand ("seed", 15);
%! gpus = gpu_device ();
%! many = ceil (gpus([gpus.selected]).multiprocessors / 2) + 3;
%! ## (int16 with a negative weight runs in double, 8-byte values: the cluster kernel)
%! for t = {{256, "single", "min.+", false, true}, {129, "int16", "min.+", true, true}, ...
%!          {200, "int32", "min.+", true, true}, {200, "single", "max.+", false, true}, ...
%!          {150, "uint8", "max.min", false, true}, {193, "single", "min.max", false, true}, ...
%!          {140, "single", "max.*", false, true}, {130, "int16", "min.+", false, false}, ...
%!          {160, "int32", "max.min", false, true}}
%!   [W, C, CP, what] = check_tiled (t{1}, many);
%!   sr = t{1}{3};
%!   [Dg, Pg] = gpu_apsp (gpu_array (W), "semiring", sr);
%!   plan = __cudakernels__ ("last_plan");
%!   assert (isequal (plan.tile, [64 64 64] * t{1}{5}), what);
%!   assert (isequal (gather (Dg), C) && isequal (gather (Pg), CP), [what ", with P"]);
%!   clear Dg Pg;
%! endfor
%! ## fractions: sums round in the blocked order, within a few units of the cpu kernel's
%! W = rand (256, 256, many, "single") * 10; W(W > 5) = Inf;
%! D = gpu_apsp (W);
%! C = gpu_apsp (W, "kernel", "cpu");
%! assert (D, C, -32 * eps ("single"));
%! assert (isequal (isinf (D), isinf (C)));
%! ## few pages take the cluster kernel, in the cpu kernel's order, bit for bit
%! D3 = gpu_apsp (W(:, :, 1:3));
%! plan = __cudakernels__ ("last_plan");
%! assert (plan.tile, [0 0 0]); assert (isequal (D3, C(:, :, 1:3)));
%! ## an unbounded cycle in one page is found, named by the plain order's second run
%! W = pages_of (180, many, "single", "min.+");
%! W(1, 2, 7) = -100; W(2, 1, 7) = 1;
%! __ck_expect_error__ (@() gpu_apsp (W), "cudakernels:negativecycle",
%!               "graph of page 7 has a negative cycle through vertex [12]\\>");
%! W = pages_of (180, many, "single", "min.+");
%! W(3, 3, 5) = -1;   # a weight to itself, as the tiled kernel loads it
%! __ck_expect_error__ (@() gpu_apsp (W), "cudakernels:negativecycle",
%!               "page 5 has a negative cycle: vertex 3 has a negative");
%! W = pages_of (180, many, "double", "min.+");   # 8-byte values: the cluster kernel
%! D = gpu_apsp (W);
%! plan = __cudakernels__ ("last_plan");
%! assert (plan.tile, [0 0 0]);
%! assert (isequal (D, gpu_apsp (W, "kernel", "cpu")));
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## 16-bit pages, at least two an SM: the tiled kernel's wide piece (4 x 8 values a
%! ## thread), the cpu kernel's D bit for bit; where part of the row strip is staged again,
%! ## each page its own 2-D call's
%! rand ("seed", 18);
%! gpus = gpu_device ();
%! many = 2 * gpus([gpus.selected]).multiprocessors + 5;
%! ## (200 and 136: whole 8-value rows in vector accesses, a partial last tile)
%! for t = {{129, "int16", "min.+", true, true}, {150, "uint8", "max.min", false, true}, ...
%!          {200, "int16", "min.+", true, true}, {136, "uint8", "max.min", false, true}, ...
%!          {300, "int16", "min.+", true, true}}
%!   check_tiled (t{1}, many);
%! endfor
%! W = pages_of (704, many, "int16", "min.+", true);
%! D = gpu_apsp (W);
%! assert (isequal (__cudakernels__ ("last_plan").tile, [64 64 64]));
%! for q = [1 2]   # a dense page and a sparse one
%!   C = gpu_apsp (W(:, :, q), "kernel", "cpu");
%!   assert (isequal (D(:, :, q), C), sprintf ("page %d of 704", q));
%! endfor

%!testif ; gpu_available ()
%! ## the tiled kernel's look at the weights (each tile's rows all read before the first look),
%! ## on the square piece and (16-bit values, one and a half pages an SM) the wide one, whole
%! ## and partial rows: a refused weight, a negative weight to itself and a negative integer
%! ## weight (the guess missed: again in double), each in the last page
%! gpus = gpu_device ();
%! sms = gpus([gpus.selected]).multiprocessors;
%! for many = [ceil(sms / 2) + 3, ceil(1.5 * sms) + 3]
%!   for n = [130 199 256]
%!     what = sprintf ("%d pages of %d", many, n);
%!     W = single (randi ([1 9], n, n, many));
%!     for c = {"single", "int16"}
%!       X = cast (W, c{1});
%!       D = gpu_apsp (X);
%!       assert (isequal (__cudakernels__ ("last_plan").tile, [64 64 64]), [what ", " c{1}]);
%!       assert (isequal (D, gpu_apsp (X, "kernel", "cpu")), [what ", " c{1}]);
%!     endfor
%!     X = W; X(n, n - 1, many) = NaN;
%!     __ck_expect_error__ (@() gpu_apsp (X), "cudakernels:invalidinput", "NaN");
%!     X = W; X(n - 2, n - 2, many) = -1;
%!     __ck_expect_error__ (@() gpu_apsp (X), "cudakernels:negativecycle",
%!                          sprintf ("page %d has a negative cycle: vertex %d", many, n - 2));
%!     X = int16 (W); X(n, 1, many) = -1;
%!     assert (isequal (gpu_apsp (X), gpu_apsp (X, "kernel", "cpu")), [what ", int16 < 0"]);
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## distances alone of many pages (at least one an SM) of 257 to 1024 vertices: the tiled
%! ## kernel alone (part of the row strip staged again where it does not fit: below); pages it
%! ## does not take in 8-byte values (int16 with a negative weight runs in double) run on the
%! ## rounds one by one, as 2-D calls of them would
%! rand ("seed", 16);
%! gpus = gpu_device ();
%! many = gpus([gpus.selected]).multiprocessors + 3;
%! for t = {{512, "single", "min.+", false, true}, {300, "int16", "min.+", true, true}, ...
%!          {257, "int32", "min.+", true, true}, {400, "single", "max.+", false, true}, ...
%!          {320, "uint8", "max.min", false, true}, {300, "int16", "min.+", false, false}, ...
%!          {260, "double", "min.+", false, false}, {700, "single", "min.+", false, true}, ...
%!          {640, "int16", "min.+", true, true}}
%!   [W, C, ~, what, plan] = check_tiled (t{1}, many);
%!   tiled = t{1}{5};
%!   assert (isequal ([plan.batched_runs > 0, plan.single_pages], [tiled, many * ! tiled]), what);
%!   if (t{1}{1} == 512)
%!     assert (isequal (gather (gpu_apsp (gpu_array (W))), C), [what ", gpu_array"]);
%!   endif
%! endfor
%! ## more pages than SMs of 400 vertices: two blocks an SM, part of the row strip staged
%! ## again for each product; the same bits as with every tile kept (fewer pages)
%! sms = gpus([gpus.selected]).multiprocessors;
%! check_tiled ({400, "single", "min.+", false, true}, sms + 8);
%! W = rand (400, 400, sms + 8, "single") * 10; W(W > 5) = Inf;
%! D = gpu_apsp (W);
%! assert (isequal (D(:, :, 1:9), gpu_apsp (W(:, :, 1:9))));
%! assert (isequal (D(:, :, end), gpu_apsp (W(:, :, end - 8:end))(:, :, end)));
%! ## fractions within a few units of the cpu kernel's
%! W = rand (300, 300, many, "single") * 10; W(W > 5) = Inf;
%! D = gpu_apsp (W);
%! C = gpu_apsp (W, "kernel", "cpu");
%! assert (D, C, -32 * eps ("single"));
%! assert (isequal (isinf (D), isinf (C)));
%! ## fewer pages than SMs: graphs by tiles, all in one launch, each its 2-D call bit for bit
%! W = rand (512, 512, 8, "single") * 10; W(W > 5) = Inf;
%! D7 = gpu_apsp (W(:, :, 1:7));
%! plan = __cudakernels__ ("last_plan");
%! assert ([plan.tile, plan.single_pages, plan.batched_runs], [64 64 64 0 1]);
%! for q = 1:7
%!   assert (isequal (D7(:, :, q), gpu_apsp (W(:, :, q))));
%! endfor
%! D8 = gpu_apsp (W);
%! plan = __cudakernels__ ("last_plan");
%! assert ([plan.tile, plan.single_pages], [64 64 64 0]);
%! assert (D8, gpu_apsp (W, "kernel", "cpu"), -32 * eps ("single"));
%! D2 = gpu_apsp (rand (300, 300, 2, "single"));
%! plan = __cudakernels__ ("last_plan");
%! assert ([plan.tile, plan.single_pages], [64 64 64 0]);
%! ## shared by devices (here one GPU twice): whole pages, each as one device closes it
%! W = W(:, :, 1:3);
%! D = gpu_apsp (W, "devices", [1 1]);
%! plan = __cudakernels__ ("last_plan");
%! assert ([plan.tile, plan.single_pages, plan.batched_runs], [64 64 64 0 2]);
%! for q = 1:3
%!   assert (isequal (D(:, :, q), gpu_apsp (W(:, :, q))));
%! endfor
%! ## an unbounded cycle: its page runs again on the rounds, which name its vertex
%! W = pages_of (300, many, "single", "min.+");
%! W(1, 2, 7) = -100; W(2, 1, 7) = 1; W(5, 6, 9) = -100; W(6, 5, 9) = 1;
%! __ck_expect_error__ (@() gpu_apsp (W), "cudakernels:negativecycle",
%!               "graph of page 7 has a negative cycle through vertex [12]\\>");
%! __ck_expect_error__ (@() gpu_apsp (gpu_array (W)), "cudakernels:negativecycle",
%!               "graph of page 7 has a negative cycle through vertex [12]\\>");
%! W(3, 3, 5) = -1;   # a weight to itself in an earlier page, as the tiled kernel loads it
%! __ck_expect_error__ (@() gpu_apsp (W), "cudakernels:negativecycle",
%!               "page 5 has a negative cycle: vertex 3 has a negative");
%! W = pages_of (300, many, "single", "max.+");   # on a converted copy (-W)
%! W(1, 2, 6) = 5; W(2, 1, 6) = 5;
%! __ck_expect_error__ (@() gpu_apsp (W, "semiring", "max.+"), "cudakernels:positivecycle",
%!               "graph of page 6 has a positive cycle through vertex [12]\\>");
%! W = int16 (pages_of (270, many, "int16", "min.+"));
%! W(1, 2, 4) = -100; W(2, 1, 4) = 1;   # in double, page by page
%! __ck_expect_error__ (@() gpu_apsp (W), "cudakernels:negativecycle",
%!               "graph of page 4 has a negative cycle through vertex [12]\\>");
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## shapes: p = 0, n = 0, p = 1, n = 1, 4-D pages
%! D = gpu_apsp (zeros (4, 4, 0));
%! assert (size (D), [4 4 0]); assert (class (D), "double");
%! [D, P] = gpu_apsp (zeros (0, 0, 3, "int16"));
%! assert (size (D), [0 0 3]); assert (class (D), "int16"); assert (size (P), [0 0 3]);
%! [D, P] = gpu_apsp (single ([0 Inf; 1 0]));
%! assert (D, single ([0 Inf; 1 0])); assert (P, int32 ([0 0; 2 0]));
%! [D, P] = gpu_apsp (reshape (single ([5 2 3]), 1, 1, 3));
%! assert (D, zeros (1, 1, 3, "single")); assert (P, zeros (1, 1, 3, "int32"));
%! W = pages_of (9, 6, "int32", "min.+");
%! W = reshape (W, 9, 9, 2, 3);
%! [D, P] = gpu_apsp (W);
%! assert (size (D), [9 9 2 3]); assert (size (P), [9 9 2 3]);
%! [C, CP] = gpu_apsp (W(:, :, 1, 3), "kernel", "cpu");
%! assert (isequal (D(:, :, 1, 3), C) && isequal (P(:, :, 1, 3), CP));
%! [C, CP] = gpu_apsp (W, "kernel", "cpu");
%! assert (isequal (D, C) && isequal (P, CP));

%!testif ; gpu_available ()
%! ## many pages: several blocks of graphs, a last block partly empty
%! rand ("seed", 13);
%! for t = {{16, 20001, "single", false}, {64, 1001, "int16", false}, ...
%!          {32, 3001, "double", false}, {128, 31, "int8", false}, {64, 1001, "int16", true}, ...
%!          {100, 101, "int8", true}, {48, 300, "uint16", true}, {16, 5000, "int32", true}, ...
%!          {256, 40, "single", false}, {200, 30, "int16", true}, {150, 20, "double", false}}
%!   [n, p, cls, nonneg] = t{1}{:};
%!   W = pages_of (n, p, cls, "min.+", nonneg);
%!   [D, P] = gpu_apsp (W);
%!   [C, CP] = gpu_apsp (W, "kernel", "cpu");
%!   assert (isequal (D, C) && isequal (P, CP), sprintf ("%d pages of %d, %s", p, n, cls));
%! endfor

%!testif ; gpu_available ()
%! ## distances alone of many int16 pages of 16 vertices run a page a thread, of 64 a page
%! ## a warp (min.+ on the 16-bit words): against the cpu kernel and against the same pages
%! ## with P (a group of threads a page), host and gpu_array, a last warp and block partly
%! ## empty; the other semirings and classes beside them; a negative weight (the guess
%! ## missed) runs the call again in double
%! rand ("seed", 17);
%! s = gpu_info (); many = 16 * max ([s.multiprocessors]) + 45;
%! for n = [16 64]
%!   for t = {{"min.+", {"int16", "uint16", "int8", "uint8"}}, {"max.+", {"int16", "int8"}}, ...
%!            {"max.min", {"int16", "uint16"}}, {"min.max", {"uint16", "uint8"}}}
%!     [sr, classes] = t{1}{:};
%!     for c = classes
%!       what = sprintf ("%d pages of %d, %s %s", many, n, sr, c{1});
%!       W = pages_of (n, many, c{1}, sr, true);
%!       if (strcmp (sr, "max.+"))
%!         W(W > 0) = -W(W > 0);   # on the words where no weight is above 0
%!       endif
%!       D = gpu_apsp (W, "semiring", sr);
%!       plan = __cudakernels__ ("last_plan");
%!       if (strcmp (sr, "min.+") && strcmp (c{1}, "int16"))
%!         assert (plan.work, "uint16");   # on the 16-bit words: a page a thread or a warp
%!       endif
%!       [DP, P] = gpu_apsp (W, "semiring", sr);
%!       [C, CP] = gpu_apsp (W, "semiring", sr, "kernel", "cpu");
%!       assert (isequal (D, C), what); assert (isequal (DP, C) && isequal (P, CP), what);
%!       assert (isequal (gather (gpu_apsp (gpu_array (W), "semiring", sr)), C), what);
%!     endfor
%!   endfor
%!   W = pages_of (n, many, "int16", "min.+", false);   # potentials: negative weights
%!   assert (any (W(:) < 0));
%!   D = gpu_apsp (W);
%!   plan = __cudakernels__ ("last_plan");
%!   assert (plan.work, "double");
%!   assert (isequal (D, gpu_apsp (W, "kernel", "cpu")));
%!   W = pages_of (n, many, "int16", "min.+", true);    # a negative weight to itself, last page
%!   W(n, n, many) = -1;
%!   __ck_expect_error__ (@() gpu_apsp (W), "cudakernels:negativecycle",
%!                        sprintf ("page %d has a negative cycle: vertex %d", many, n));
%! endfor

%!testif ; gpu_available ()
%! ## unbounded cycles name their page, on the batched kernel, page by page and the cpu kernel
%! neg = "cudakernels:negativecycle"; pos = "cudakernels:positivecycle";
%! for n = [5 130 260]
%!   W = pages_of (n, 3, "double", "min.+");
%!   W(1, 2, 2) = -100; W(2, 1, 2) = 1;
%!   for k = {"gpu", "cpu"}
%!     __ck_expect_error__ (@() gpu_apsp (W, "kernel", k{1}), neg,
%!                   "graph of page 2 has a negative cycle through vertex [12]\\>");
%!     __ck_expect_error__ (@() gpu_apsp (gpu_array (W)), neg, "page 2");
%!   endfor
%! endfor
%! W = pages_of (5, 3, "double", "min.+");
%! W(3, 3, 3) = -1;   # a weight to itself, found before the rounds
%! __ck_expect_error__ (@() gpu_apsp (W), neg, "page 3 has a negative cycle: vertex 3 has a negative");
%! __ck_expect_error__ (@() gpu_apsp (int32 (W)), neg, "page 3 has a negative cycle: vertex 3 has");
%! W(1, 2, 2) = -100; W(2, 1, 2) = 1;   # and a cycle in an earlier page: that page first
%! for k = {"gpu", "cpu"}
%!   __ck_expect_error__ (@() gpu_apsp (W, "kernel", k{1}), neg, "page 2 has a negative cycle through");
%!   __ck_expect_error__ (@() gpu_apsp (int32 (W), "kernel", k{1}), neg, "page 2 has a negative cycle");
%! endfor
%! ## the vertex named is the cpu kernel's: the first step's smallest, on the cycle (at the
%! ## end vertex 1 reaches it and comes back below 0 too)
%! G = Inf (6); G(1:7:end) = 0; G(1, 2) = 1; G(2, 1) = 1; G(2, 3) = -10; G(3, 2) = 1;
%! for sz = [6 200]
%!   H = Inf (sz); H(1:sz+1:end) = 0; H(1:6, 1:6) = G;
%!   for k = {"gpu", "cpu"}
%!     __ck_expect_error__ (@() gpu_apsp (H, "kernel", k{1}), neg, "cycle through vertex 3\\>");
%!     __ck_expect_error__ (@() gpu_apsp (cat (3, zeros (sz), H), "kernel", k{1}), neg,
%!                   "page 2 has a negative cycle through vertex 3\\>");
%!   endfor
%!   ## with P (200 vertices: pages as graphs by tiles, the page named by its 2-D call's kernel)
%!   __ck_expect_error__ (@() with_paths (cat (3, zeros (sz), H)), neg,
%!                 "page 2 has a negative cycle through vertex 3\\>");
%! endfor
%! W = pages_of (6, 4, "int16", "max.+");
%! W(4, 5, 4) = 3; W(5, 4, 4) = 2;
%! __ck_expect_error__ (@() gpu_apsp (W, "semiring", "max.+"), pos, "page 4 has a positive cycle");
%! W = pages_of (6, 2, "single", "max.*");
%! W(1, 2, 1) = 1; W(2, 1, 1) = 4;
%! __ck_expect_error__ (@() gpu_apsp (W, "semiring", "max.*"), pos, "page 1 has a cycle whose product");
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## a call after one whose kernels found something (an unbounded cycle, a negative integer
%! ## weight: the guess missed) finds nothing that is not there, on every batched kernel (the
%! ## device's notes are kept between calls and cleared again after a finding)
%! neg = "cudakernels:negativecycle";
%! for c = {"single", "int16", "int32"}
%!   for np = [16 40 300; 2200 40 3]
%!     n = np(1); p = np(2);
%!     W = cast (randi ([1 9], n, n, p), c{1});
%!     B = W; B(2, 3, 2) = -50; B(3, 2, 2) = 1;    # a negative cycle in page 2
%!     N = W; N(4, 5, p) = -1; N(5, 4, p) = 3;     # a negative weight, no cycle
%!     S = W; S(3, 3, p) = -1;                     # a negative weight to itself
%!     ref = gpu_apsp (W, "kernel", "cpu");
%!     refN = gpu_apsp (N, "kernel", "cpu");
%!     for rep = 1:2
%!       __ck_expect_error__ (@() gpu_apsp (B), neg, "page 2 has a negative cycle");
%!       assert (isequal (gpu_apsp (W), ref));
%!       __ck_expect_error__ (@() gpu_apsp (S), neg, sprintf ("page %d has a negative cycle", p));
%!       if (strcmp (c{1}, "single"))                # a refused weight
%!         X = W; X(1, 2, 1) = NaN;
%!         __ck_expect_error__ (@() gpu_apsp (X), "cudakernels:invalidinput", "NaN");
%!       endif
%!       assert (isequal (gpu_apsp (W), ref));
%!       assert (isequal (gpu_apsp (N), refN));
%!       assert (isequal (gather (gpu_apsp (gpu_array (W))), ref));
%!     endfor
%!   endfor
%! endfor

%!testif ; gpu_available ()
%! ## gpu_arrays in and out; gpu_path walks a page
%! rand ("seed", 14);
%! W = pages_of (30, 5, "single", "min.+");
%! [D, P] = gpu_apsp (W);
%! [Dg, Pg] = gpu_apsp (gpu_array (W));
%! assert (size (Dg), [30 30 5]);
%! assert (isequal (gather (Dg), D) && isequal (gather (Pg), P));
%! assert (isequal (gather (gpu_apsp (gpu_array (W))), D));
%! for q = [1 3 5]
%!   [s, t] = find (P(:, :, q), 1);
%!   assert (gpu_path (Pg, s, t, q), gpu_path (P(:, :, q), s, t));
%!   assert (gpu_path (P, s, t, q), gpu_path (P(:, :, q), s, t));
%! endfor
%! fail ("gpu_path (P, 1, 2, 6)", "q must be a page of P");
%! fail ("gpu_path (Pg, 1, 2, 0)", "q must be a page of P");
%! clear Dg Pg;
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## Ctrl-C (the test hook) and out of memory leave nothing behind: the batched kernels, and
%! ## graphs by tiles with P (Ctrl-C heard before each launch)
%! for t = {{pages_of(64, 40, "int8", "min.+"), 1}, {pages_of(300, 4, "single", "min.+"), 2}}
%!   [W, nout] = t{1}{:};
%!   for where = {"host", "device"}
%!     X = W;
%!     if (strcmp (where{1}, "device"))
%!       X = gpu_array (W);
%!     endif
%!     call = {@() gpu_apsp(X), @() with_paths(X)}{nout};
%!     __cudakernels__ ("settings", "test_cancel_after", 0);
%!     unwind_protect
%!       __ck_expect_error__ (call, "cudakernels:interrupted", "interrupted after 0 pages");
%!     unwind_protect_cleanup
%!       __cudakernels__ ("settings", "test_cancel_after", -1);
%!     end_unwind_protect
%!     __cudakernels__ ("settings", "test_alloc_limit", [2^14, 2^20](nout));
%!     unwind_protect
%!       __ck_expect_error__ (call, "cudakernels:outofmemory", ".");
%!     unwind_protect_cleanup
%!       __cudakernels__ ("settings", "test_alloc_limit", 0);
%!     end_unwind_protect
%!     clear X call;
%!   endfor
%!   assert (__ck_released__ ());
%!   [D, P] = gpu_apsp (W);   # and it works after
%!   [C, CP] = gpu_apsp (W, "kernel", "cpu");
%!   assert (isequal (D, C) && isequal (P, CP));
%! endfor
