## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## The plans (kernels/runtime/plan.c, ck_plan.h): what __cudakernels__
## ("last_plan") reports after a product, a timing and a shortest-path call on
## the GPU: the decisions made before the call ran (devices, how host arrays
## move, narrowing, looking ahead) and what the executors found (the class and
## words the arithmetic ran on, the shifts, read as they are, the tile and the
## split).  Each product's answer is checked too.  The CPU kernels' plans are in
## tests/test_gateway.m.  Run by tests/run_tests.m.

%!function plan = ran (what)
%!  plan = __cudakernels__ ("last_plan");
%!  assert (plan.op, what);
%!endfunction

## Host arrays: one device, panels, the class's own words on the warp tile.
%!testif ; gpu_available ()
%! A = single (randi (99, 300, 200)); B = single (randi (99, 200, 500));
%! C = gpu_minplus (A, B);
%! plan = ran ("product");
%! gpus = gpu_info ();
%! selected = find ([gpus.selected]);
%! assert ({plan.where, plan.move, plan.panel, plan.devices, plan.narrow},
%!         {"host", "panels", 500, selected, false});
%! assert ({plan.work, plan.words, plan.shifts, plan.tile}, {"single", "class", "none", [64 128 8]});
%! assert (plan.split >= 1 && plan.clusters >= 1);
%! assert (C, gpu_minplus (A, B, "kernel", "cpu"));

## gpu_arrays of int16: DPX on packed words, read as they are at whole tiles,
## on the guess of shift 0 (the second call: the first may follow a miss).
%!testif ; gpu_available ()
%! A = gpu_array (int16 (randi ([0 999], 1024))); B = gpu_array (int16 (randi ([0 999], 1024)));
%! C = gpu_minplus (A, B); C = gpu_minplus (A, B);
%! plan = ran ("product");
%! assert ({plan.where, plan.move, plan.work, plan.words, plan.shifts, plan.raw},
%!         {"device", "none", "int16", "u16x2", "guessed", true});
%! [C, K] = gpu_minplus (A, B);
%! plan = ran ("product");
%! assert ({plan.witness, plan.words}, {true, "u16x2"});
%! clear A B C K
%! assert (__ck_released__ ());

## The guess missed (negative values): the product ran again from the ranges,
## and the class's next call finds the ranges first; 8-bit classes know theirs;
## sums no 32-bit word holds run on v2's wide accumulation.
%!testif ; gpu_available ()
%! fit = int32 (randi ([0 99], 64)); neg = int32 (randi ([-99 99], 64));
%! gpu_minplus (fit, fit);
%! C = gpu_minplus (neg, neg);
%! assert ({ran("product").words, ran("product").shifts}, {"u32", "missed"});
%! C1 = gpu_minplus (neg, neg);
%! assert (ran ("product").shifts, "ranges");
%! R = gpu_minplus (neg, neg, "kernel", "cpu");
%! assert ({C, C1}, {R, R});
%! gpu_minplus (uint8 (randi ([0 255], 64)), uint8 (randi ([0 255], 64)));
%! assert ({ran("product").words, ran("product").shifts}, {"u16x2", "known"});
%! W = int32 ([-2^31 2^31-1; 0 1]);
%! C = gpu_minplus (W, W);
%! assert (ran ("product").words, "wide");
%! assert (C, gpu_minplus (W, W, "kernel", "cpu"));
%! gpu_minplus (fit, fit);   # the class guesses again

## A small output with a long k: split-K; the ladder kernels run in the class.
%!testif ; gpu_available ()
%! A = single (randi (99, 64, 65536)); B = single (randi (99, 65536, 64));
%! C = gpu_minplus (A, B);
%! assert (ran ("product").split > 1);
%! assert (C, gpu_minplus (A, B, "kernel", "cpu"));
%! gpu_minplus (A(:, 1:100), B(1:100, :), "kernel", "regblock");
%! plan = ran ("product");
%! assert ({plan.kernel, plan.words, plan.split, plan.tile}, {"regblock", "class", 1, [0 0 0]});

## Devices: two shares on one GPU, each planned on its device; matmul.
%!testif ; gpu_available ()
%! gpus = gpu_info ();
%! d = find ([gpus.selected]);
%! A = randi (99, 40, 30); B = randi (99, 30, 300);
%! C = gpu_minplus (A, B, "devices", [d d]);
%! plan = ran ("product");
%! assert ({plan.devices, plan.move, plan.words}, {[d d], "panels", "class"});
%! assert (C, gpu_minplus (A, B, "kernel", "cpu"));
%! gpu_matmul (single (A), single (B));
%! plan = ran ("product");
%! assert ({plan.semiring, plan.move, plan.devices}, {"+.*", "whole", d});

## A timing plans once, on random device operands; "time" reports its plan.
%!testif ; gpu_available ()
%! t = __cudakernels__ ("time", "product", "min.+", "int16", "warptile", [256 256 256], 1, 2);
%! assert (size (t), [1 2]);
%! plan = ran ("product");
%! assert ({plan.where, plan.class, plan.words, plan.m}, {"random", "int16", "u16x2", 256});
%! t = __cudakernels__ ("time", "product", "min.+", "single", "warptile", [64 64 64 50], 1, 2);
%! plan = ran ("product");
%! assert ({plan.pages, plan.batched_runs, plan.single_pages}, {50, 1, 0});
%! t = __cudakernels__ ("time", "product", "min.+", "single", "warptile", [64 64 64], 1, 2, "witness");
%! assert (ran ("product").witness, true);

## Shortest paths: the work type found by the survey, the look ahead (with and without P).
%!testif ; gpu_available ()
%! W = __ck_graph__ (600, "single", 0.05, false);
%! old = __cudakernels__ ("settings", "minplus_narrow", "off");
%! unwind_protect
%!   [D, P] = gpu_apsp (W);
%!   plan = ran ("apsp");
%!   D1 = gpu_apsp (W);
%!   plan1 = ran ("apsp");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert ({plan.work, plan.rounds, plan.looks_ahead, plan.witness, plan.move},
%!         {"single", 3, true, true, "whole"});
%! ## one graph of up to 2816 vertices, D alone or with P: by tiles in one launch (planned, and
%! ## where it ran the tile); the rounds where the setting asks for them
%! assert ({plan1.graph_tiles, plan1.tile, plan1.witness, plan1.narrow},
%!         {true, [64 64 64], false, false});
%! assert ({plan.graph_tiles, plan.tile}, {true, [64 64 64]});
%! old = __cudakernels__ ("settings", "apsp_graph", "rounds", "minplus_narrow", "off");
%! unwind_protect
%!   D2 = gpu_apsp (W);
%!   plan2 = ran ("apsp");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert ({plan2.looks_ahead, plan2.graph_tiles, plan2.tile}, {true, false, [0 0 0]});
%! assert (D2, D1);   # integer weights: every sum exact, the same D
%! gpu_apsp (single (randi ([0 99], 2817)));   # past the tiles' sizes: the rounds
%! assert ({ran("apsp").graph_tiles, ran("apsp").tile}, {false, [0 0 0]});
%! [R, RP] = gpu_apsp (W, "kernel", "cpu");
%! assert ({D, P}, {R, RP});
%! gpu_apsp (int16 (randi ([0 99], 300)));
%! assert (ran ("apsp").work, "uint16");

## Without device memory for the look ahead's second buffers, the rounds run one by one: the
## smallest limit the call runs under (steps of 10%) must be a run without it, with the same D.
%!function [D, plan, P] = at_smallest_limit (W, limit, step)
%!  ## the call under the smallest device memory limit it runs under, from limit up by step
%!  ## (with P where asked for)
%!  plan = [];
%!  unwind_protect
%!    while (isempty (plan) && limit < 2^28)
%!      __cudakernels__ ("settings", "test_alloc_limit", limit);
%!      try
%!        if (nargout > 2)
%!          [D, P] = gpu_apsp (W);
%!        else
%!          D = gpu_apsp (W);
%!        endif
%!        plan = ran ("apsp");
%!      catch err
%!        assert (err.identifier, "cudakernels:outofmemory");
%!        limit = ceil (step * limit);
%!      end_try_catch
%!    endwhile
%!  unwind_protect_cleanup
%!    __cudakernels__ ("settings", "test_alloc_limit", 0);
%!  end_unwind_protect
%!endfunction
%!testif ; gpu_available ()
%! W = single (randi ([0 99], 700)); W(rand (700) > 0.3) = Inf;
%! R = gpu_apsp (W, "kernel", "cpu");
%! old = __cudakernels__ ("settings", "minplus_narrow", "off", "apsp_graph", "rounds");
%! unwind_protect
%!   [D, plan] = at_smallest_limit (W, 2^20, 1.1);
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert ({plan.rounds, plan.looks_ahead}, {3, false});
%! assert (D, R);
%! assert (__cudakernels__ ("memory"), [0, 0]);

## Without device memory for the tiles' copy of the weights (a host array's upload holds them,
## and a negative weight may close an unbounded cycle, which the rounds would name from them)
## and their board, a graph runs on the rounds, which need less at 2816 vertices: the smallest
## limit the call runs under (steps of 5%) must be a run on the rounds. Where no weight is
## negative no cycle can be unbounded, nothing is kept, and the tiles run at that limit.
%!testif ; gpu_available ()
%! W = single (randi ([1 99], 2816)); W(rand (2816) > 0.01) = Inf;
%! W(1, 2) = -1;   # on no cycle below 0: every other weight is at least 1
%! old = __cudakernels__ ("settings", "minplus_narrow", "off");   # single, in place
%! unwind_protect
%!   R = gpu_apsp (W);
%!   assert (__cudakernels__ ("last_plan").tile, [64 64 64]);
%!   [D, plan] = at_smallest_limit (W, 2^25, 1.05);
%!   W(1, 2) = 1;
%!   R1 = gpu_apsp (W);
%!   [D1, plan1] = at_smallest_limit (W, 2^25, 1.05);
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert ({plan.graph_tiles, plan.tile}, {true, [0 0 0]});
%! assert (D, R);   # integer weights: every sum exact, the same D by tiles and by rounds
%! assert ({plan1.graph_tiles, plan1.tile}, {true, [64 64 64]});
%! assert (D1, R1);
%! assert (__cudakernels__ ("memory"), [0, 0]);
%! ## with P the tiles keep each tile's histories (12 bytes a vertex pair in single): without
%! ## the memory for them, the rounds, with the same D and P
%! W = W(1:1000, 1:1000);
%! old = __cudakernels__ ("settings", "minplus_narrow", "off");
%! unwind_protect
%!   [R, RP] = gpu_apsp (W);
%!   assert (__cudakernels__ ("last_plan").tile, [64 64 64]);
%!   [D, plan, P] = at_smallest_limit (W, 2^23, 1.05);
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! assert ({plan.graph_tiles, plan.tile}, {true, [0 0 0]});
%! assert (isequal (D, R) && isequal (P, RP));
%! assert (__cudakernels__ ("memory"), [0, 0]);
