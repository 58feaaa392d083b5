## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## gpu_apsp over pages as graphs by tiles: pages with P of 129 to 2816 vertices, and D alone of
## pages the tiled kernel does not take (few pages, or past 1024 vertices), run on one GPU as
## many graphs by tiles, with P in plain Floyd-Warshall's order, all in one launch or a few
## (kernels/apsp/apsp_graph_tiled.cu, apsp_graph_paths.cu, apsp_pages_run.cuh).  Each page
## must equal its own 2-D call, D and P bit for bit, and the "cpu" kernel's where every sum is
## exact, in every work type and semiring the tiles take; an
## unbounded cycle is named by page and vertex as the page's 2-D call names it (Ctrl-C and out
## of memory: tests/test_apsp_pages.m).  Run by tests/run_tests.m.

%!function check_each (W, sr, what, cpu = true)
%!  [D, P] = gpu_apsp (W, "semiring", sr);
%!  pl = __cudakernels__ ("last_plan");
%!  assert (isequal ([pl.tile, pl.single_pages], [64 64 64 0]) && pl.batched_runs >= 1, what);
%!  for q = 1:size (W, 3)
%!    [C, CP] = gpu_apsp (W(:, :, q), "semiring", sr);
%!    assert (isequal (D(:, :, q), C) && isequal (P(:, :, q), CP), "%s: page %d", what, q);
%!    if (cpu)
%!      [C, CP] = gpu_apsp (W(:, :, q), "semiring", sr, "kernel", "cpu");
%!      assert (isequal (D(:, :, q), C) && isequal (P(:, :, q), CP), "%s: cpu, page %d", what, q);
%!    endif
%!  endfor
%!endfunction
%!function W = pages (n, p, cls, negative, sr = "min.+")
%!  W = zeros (n, n, p, cls);
%!  for q = 1:p
%!    G = __ck_graph__ (n, cls, 0.02 + 0.3 * mod (q, 2), negative, q == 2);
%!    switch (sr)
%!      case "max.+"     # a DAG's longest paths
%!        G = -G; G(tril (true (n), -1)) = -Inf;
%!      case "max.*"     # powers of two, at most 1
%!        none = isinf (G); G = 2 .^ -min (G, 6); G(none) = 0;
%!      case "max.min"
%!        G(isinf (G)) = -Inf;
%!    endswitch
%!    W(:, :, q) = G;
%!  endfor
%!endfunction
%!function msg = error_of (varargin)
%!  ## the error of a call with D and P
%!  msg = "";
%!  try
%!    f = varargin{1};
%!    [~, ~] = f (varargin{2:end});
%!  catch err
%!    msg = [err.identifier " " err.message];
%!  end_try_catch
%!endfunction

%!testif ; gpu_available ()
%! ## every work type the tiles take: single in its class (negative weights, padded; 320 lies in
%! ## D and P as it is), the integers on 16-bit halves and 32-bit words; ties and zero cycles
%! rand ("seed", 41);
%! for t = {{129, "single", true}, {200, "int16", false}, {256, "int32", false}, ...
%!          {257, "single", true}, {320, "single", true}, {300, "int16", false}, ...
%!          {300, "uint8", false}, {384, "int32", false}, {270, "uint16", false}}
%!   [n, cls, negative] = t{1}{:};
%!   check_each (pages (n, 3, cls, negative), "min.+", sprintf ("%d %s", n, cls));
%! endfor
%! ## int16 with a negative weight runs in double: page by page on the rounds
%! W = pages (260, 2, "int16", true);
%! [D, P] = gpu_apsp (W);
%! assert (__cudakernels__ ("last_plan").single_pages, 2);
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## the other semirings on single pages; sums that round (each page's 2-D call, bit for bit)
%! rand ("seed", 42);
%! for sr = {"max.+", "max.min", "min.max", "max.*"}
%!   W = pages (300, 2, "single", false, sr{1});
%!   check_each (W, sr{1}, sr{1}, ! strcmp (sr{1}, "max.*"));
%! endfor
%! W = single (rand (400, 400, 3) * 10); W(rand (size (W)) > 0.05) = Inf;
%! check_each (W, "min.+", "fractions", false);
%! [D, P] = gpu_apsp (gpu_array (W));   # device arrays in place
%! [HD, HP] = gpu_apsp (W);
%! assert (isequal (gather (D), HD) && isequal (gather (P), HP));
%! clear D P
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## more pages than a launch takes (2^35 pair updates: 32 pages of 1024 padded vertices), a
%! ## 4-D call, and the largest 16-bit size
%! rand ("seed", 43);
%! W = pages (1000, 33, "single", false);
%! [D, P] = gpu_apsp (W);
%! pl = __cudakernels__ ("last_plan");
%! assert (pl.batched_runs >= 2 && pl.single_pages == 0);
%! for q = [1 32 33]
%!   [C, CP] = gpu_apsp (W(:, :, q));
%!   assert (isequal (D(:, :, q), C) && isequal (P(:, :, q), CP), "page %d", q);
%! endfor
%! [D4, P4] = gpu_apsp (reshape (W(:, :, 1:4), 1000, 1000, 2, 2));
%! assert (isequal (D4(:, :, :), D(:, :, 1:4)) && isequal (P4(:, :, :), P(:, :, 1:4)));
%! clear W D P D4 P4
%! W = pages (2000, 2, "int16", false);
%! [D, P] = gpu_apsp (W);
%! assert ([__cudakernels__("last_plan").tile, __cudakernels__("last_plan").single_pages], ...
%!         [64 64 64 0]);
%! [C, CP] = gpu_apsp (W(:, :, 2));
%! assert (isequal (D(:, :, 2), C) && isequal (P(:, :, 2), CP));
%! W = pages (2100, 2, "int16", false);   # 16-bit words past 2048 with P: by tiles too
%! [D, P] = gpu_apsp (W);
%! assert ([__cudakernels__("last_plan").tile, __cudakernels__("last_plan").single_pages], ...
%!         [64 64 64 0]);
%! old = __cudakernels__ ("settings", "apsp_graph", "rounds");
%! unwind_protect
%!   [RD, RP] = gpu_apsp (W(:, :, 1));
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert (isequal (D(:, :, 1), RD) && isequal (P(:, :, 1), RP));
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## unbounded cycles: the first page with one is named, with the vertex its 2-D call names
%! ## (the rounds run it again from the weights); a weight to itself in an earlier page first
%! rand ("seed", 44);
%! W = pages (300, 6, "single", true);
%! W(40, 17, 5) = -1000; W(17, 260, 5) = 0; W(260, 40, 5) = 0;
%! W(3, 200, 3) = -1000; W(200, 3, 3) = 0;
%! msg = error_of (@gpu_apsp, W);
%! assert (strncmp (msg, "cudakernels:negativecycle", 25), msg);
%! assert (! isempty (strfind (msg, "page 3 ")), msg);
%! assert (msg, strrep (error_of (@gpu_apsp, W(:, :, 3)), "the graph", "the graph of page 3"));
%! assert (error_of (@gpu_apsp, gpu_array (W)), msg);
%! W = pages (320, 3, "single", true);   # in D and P as they lie: the page named from W
%! W(7, 300, 2) = -1000; W(300, 7, 2) = 0;
%! msg = error_of (@gpu_apsp, gpu_array (W));
%! assert (strncmp (msg, "cudakernels:negativecycle", 25), msg);
%! assert (msg, strrep (error_of (@gpu_apsp, W(:, :, 2)), "the graph", "the graph of page 2"));
%! W(9, 9, 2) = -1;
%! msg = error_of (@gpu_apsp, W);
%! assert (! isempty (regexp (msg, "page 2 has a negative cycle: vertex 9 has a negative")), msg);
%! W = pages (300, 3, "single", false, "max.+");
%! W(5, 250, 2) = 5; W(250, 5, 2) = 5;
%! msg = error_of (@gpu_apsp, W, "semiring", "max.+");
%! assert (strncmp (msg, "cudakernels:positivecycle", 25), msg);
%! assert (! isempty (strfind (msg, "page 2 ")), msg);
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## D alone of pages the tiled kernel does not take (few pages; past 1024 vertices): graphs
%! ## by tiles in one launch, each page its 2-D call bit for bit, sums that round too
%! rand ("seed", 45);
%! for t = {{1000, 3, "single"}, {700, 2, "int16"}, {1100, 2, "single"}, {1500, 2, "int32"}}
%!   [n, p, cls] = t{1}{:};
%!   W = pages (n, p, cls, false);
%!   D = gpu_apsp (W);
%!   pl = __cudakernels__ ("last_plan");
%!   what = sprintf ("%d x %d %s", n, p, cls);
%!   assert (isequal ([pl.tile, pl.single_pages, pl.batched_runs], [64 64 64 0 1]), what);
%!   for q = 1:p
%!     assert (isequal (D(:, :, q), gpu_apsp (W(:, :, q))), "%s: page %d", what, q);
%!   endfor
%!   assert (isequal (D(:, :, p), gpu_apsp (W(:, :, p), "kernel", "cpu")), what);
%! endfor
%! W = single (rand (1100, 1100, 2) * 10); W(rand (size (W)) > 0.02) = Inf;
%! D = gpu_apsp (gpu_array (W));
%! assert (isequal (gather (D), cat (3, gpu_apsp (W(:, :, 1)), gpu_apsp (W(:, :, 2)))));
%! clear D
%! W = pages (1100, 3, "single", true);   # an unbounded cycle, named as its 2-D call names it
%! W(40, 17, 2) = -1000; W(17, 900, 2) = 0; W(900, 40, 2) = 0;
%! try
%!   gpu_apsp (W);
%!   msg = "";
%! catch err
%!   msg = [err.identifier " " err.message];
%! end_try_catch
%! try
%!   gpu_apsp (W(:, :, 2));
%!   m2 = "";
%! catch err
%!   m2 = [err.identifier " " strrep(err.message, "the graph", "the graph of page 2")];
%! end_try_catch
%! assert (strncmp (msg, "cudakernels:negativecycle", 25), msg);
%! assert (msg, m2);
%! assert (__ck_released__ ());
