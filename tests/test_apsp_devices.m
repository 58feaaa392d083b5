## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## Shortest paths over several GPUs (issue 19): the option "devices" of
## gpu_apsp shares the work matrix's rows among devices in whole 256-vertex
## blocks; each round the device holding the pivot block row runs the pivot
## phase and the others copy its strip.  On one GPU this runs as two or three
## shares on that GPU ("devices", [1 1]): the split, the strip copies, the
## events between the shares' streams, every device's survey, the error paths
## and, with __cudakernels__ ("settings", "spread_copies", true), the copies of a
## gpu_array's rows are exercised; only the gain needs two GPUs.  D and P must
## equal the one-device results bit for bit, in every class.  Run by
## tests/run_tests.m.

%!function check_apsp (W, devices)
%!  ## with and without P, host and gpu_array, against one device
%!  ## D alone of a graph on one device runs by tiles up to 2816 vertices (the same up to
%!  ## rounding); shared by rows, on the rounds, as one device's rounds (pages are shared
%!  ## whole, each as one device runs it)
%!  old = __cudakernels__ ("settings", "apsp_graph", {"auto", "rounds"}{1 + (ndims (W) == 2)});
%!  unwind_protect
%!    R = gpu_apsp (W, "devices", 1);
%!  unwind_protect_cleanup
%!    __cudakernels__ ("settings", old);
%!  end_unwind_protect
%!  [RD, RP] = gpu_apsp (W, "devices", 1);
%!  assert (isequal (gpu_apsp (W, "devices", devices), R), "D differs");
%!  [D, P] = gpu_apsp (W, "devices", devices);
%!  assert (isequal (D, RD), "D with P differs");
%!  assert (isequal (P, RP), "P differs");
%!  [GD, GP] = gpu_apsp (gpu_array (W), "devices", devices);
%!  assert (isequal (gather (GD), RD), "D of a gpu_array differs");
%!  assert (isequal (gather (GP), RP), "P of a gpu_array differs");
%!  assert (isequal (gather (gpu_apsp (gpu_array (W), "devices", devices)), R),
%!          "D of a gpu_array without P differs");
%!endfunction
%!function copied_everywhere (W)
%!  ## a gpu_array's rows (pages) copied to every share, its own device too
%!  old = __cudakernels__ ("settings", "spread_copies", true);
%!  unwind_protect
%!    [D, P] = gpu_apsp (gpu_array (W), "devices", [1 1]);
%!    [RD, RP] = gpu_apsp (W);
%!    assert (isequal (gather (D), RD) && isequal (gather (P), RP));
%!    assert (isequal (gather (gpu_apsp (gpu_array (W), "devices", [1 1 1])), RD));
%!  unwind_protect_cleanup
%!    __cudakernels__ ("settings", old);
%!  end_unwind_protect
%!endfunction
%!function on_second_gpu (W)
%!  ## a gpu_array on the second GPU, shared with the first: its results stay there, one GPU's
%!  [RD, RP] = gpu_apsp (W, "devices", 1);
%!  G = gpu_array (W, "device", 2);
%!  [D, P] = gpu_apsp (G, "devices", [1 2]);
%!  [~, ~, where] = __cudakernels__ ("array_info", device_id (D));
%!  assert (where, 2);
%!  assert (isequal (gather (D), RD) && isequal (gather (P), RP));
%!endfunction
%!function [id, msg] = raised (f, nout)
%!  ## the identifier and message of the error f () raises with nout outputs
%!  id = msg = "";
%!  out = cell (1, nout);
%!  try
%!    [out{:}] = f ();
%!  catch e
%!    id = e.identifier;
%!    msg = e.message;
%!  end_try_catch
%!endfunction

## every class, one to six blocks: fewer blocks than shares, ragged padding,
## n a multiple of the block (D and P converted in place)
%!testif ; gpu_available ()
%! for cls = {"double", "single", "int32", "int16", "uint8", "int8", "uint16", "uint32"}
%!   for n = [1 31 257 512 700]
%!     check_apsp (__ck_graph__ (n, cls{1}, 0.1, false, true), [1 1]);
%!   endfor
%! endfor
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! for n = [768 1000 1300]
%!   check_apsp (__ck_graph__ (n, "double", 0.02, true, true), [1 1]);    # negative edges, double
%!   check_apsp (__ck_graph__ (n, "single", 0.3, false, true), [1 1 1]);
%!   check_apsp (__ck_graph__ (n, "int32", 0.05, true, true), [1 1]);     # integers in double
%!   check_apsp (__ck_graph__ (n, "int16", 0.01, false, true), [1 1 1]);
%! endfor
%! W = rand (900);                                   # fractions: single's own class
%! W(rand (900) > 0.05) = Inf;
%! check_apsp (single (W), [1 1]);
%! check_apsp (W, [1 1 1]);
%! assert (__ck_released__ ());

## the paths walk to D's lengths, and match the CPU reference
%!testif ; gpu_available ()
%! W = __ck_graph__ (600, "double", 0.01, true, true);
%! [D, P] = gpu_apsp (W, "devices", [1 1 1]);
%! [CD, CP] = gpu_apsp (W, "kernel", "cpu");
%! assert (isequal (D, CD) && isequal (P, CP));
%! for q = 1:50
%!   s = randi (600); t = randi (600);
%!   p = gpu_path (P, s, t);
%!   if (isinf (D(s, t)))
%!     assert (isempty (p));
%!   else
%!     assert (sum (W(sub2ind (size (W), p(1:end-1), p(2:end)))), D(s, t));
%!   endif
%! endfor

## a gpu_array's rows copied to every share, its own device too
%!testif ; gpu_available ()
%! copied_everywhere (__ck_graph__ (600, "single", 0.05, false, true));
%! assert (__ck_released__ ());

## a negative cycle in the last share's rows: the error names the same vertex
## on it as on one device. Every other edge weighs 5 or more, so that the one
## negative cycle is 600 -> 650 -> 600 (with random small weights, a longer
## cycle through it could be negative too, and name another vertex: 641 once)
%!testif ; gpu_available ()
%! W = __ck_graph__ (700, "double", 0.01, false, true);
%! W(isfinite (W)) += 5;
%! W(600, 650) = -5; W(650, 600) = 1;
%! [~, msg] = raised (@() gpu_apsp (W, "devices", 1), 1);
%! assert (! isempty (regexp (msg, "vertex (600|650)$", "once")), msg);
%! [id, m2] = raised (@() gpu_apsp (W, "devices", [1 1]), 2);
%! assert (id, "cudakernels:negativecycle");
%! assert (m2, msg);
%! [id, m3] = raised (@() gpu_apsp (gpu_array (W), "devices", [1 1 1]), 1);
%! assert (id, "cudakernels:negativecycle");
%! assert (m3, msg);
%! assert (__ck_released__ ());

## Ctrl-C between rounds, and out of memory on a share: everything freed
%!testif ; gpu_available ()
%! W = __ck_graph__ (1300, "single", 0.05, false, true);
%! __cudakernels__ ("settings", "test_cancel_after", 1);
%! assert (raised (@() gpu_apsp (W, "devices", [1 1]), 2), "cudakernels:interrupted");
%! assert (__ck_released__ ());
%! __cudakernels__ ("settings", "test_alloc_limit", 12e6);
%! unwind_protect
%!   assert (raised (@() gpu_apsp (W, "devices", [1 1]), 2), "cudakernels:outofmemory");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", "test_alloc_limit", 0);
%! end_unwind_protect
%! assert (__ck_released__ ());
%! assert (isequal (gpu_apsp (W, "devices", [1 1]), gpu_apsp (W)));   # still works

## pages: a run of whole pages on each device (here shares of one GPU), each as one
## device gives it: the batched kernels, the tiled kernel (D alone), the rounds page
## by page (P, and double past 256 vertices); more devices than pages
%!function W = pages_of (n, p, cls, negative)
%!  W = zeros (n, n, p, cls);
%!  for q = 1:p
%!    W(:, :, q) = __ck_graph__ (n, cls, 0.2, negative, true);
%!  endfor
%!endfunction
%!testif ; gpu_available ()
%! for cls = {"single", "int16", "double", "int32"}
%!   for np = [16 5; 40 3; 300 4; 520 2]'
%!     W = pages_of (np(1), np(2), cls{1}, strcmp (cls{1}, "double"));
%!     check_apsp (W, [1 1]);
%!     check_apsp (W, [1 1 1]);
%!     if (np(1) <= 40)                                 # a launch a share: the pages were shared
%!       gpu_apsp (W, "devices", [1 1 1]);
%!       assert (__cudakernels__ ("last_plan").batched_runs, min (3, np(2)));
%!     endif
%!   endfor
%! endfor
%! W = pages_of (20, 7, "uint8", false);
%! check_apsp (reshape (W, 20, 20, 1, 7), [1 1 1]);   # trailing dimensions
%! copied_everywhere (pages_of (64, 9, "single", false));   # a gpu_array's pages, to every share
%! assert (__ck_released__ ());

## pages: the first page with an unbounded cycle is named, as on one device, whichever
## share holds it; Ctrl-C and out of memory on the shares leave nothing behind
%!testif ; gpu_available ()
%! W = pages_of (30, 7, "single", false);
%! W(3, 4, 5) = -30; W(4, 3, 5) = 1;                  # pages 4-5 are the second of three
%! W(3, 4, 7) = -30; W(4, 3, 7) = 1;
%! [~, msg] = raised (@() gpu_apsp (W), 1);
%! assert (! isempty (strfind (msg, "page 5 has a negative cycle")), msg);
%! for dev = {[1 1], [1 1 1]}
%!   [id, m2] = raised (@() gpu_apsp (W, "devices", dev{1}), 2);
%!   assert (id, "cudakernels:negativecycle");
%!   assert (m2, msg);
%!   [id, m3] = raised (@() gpu_apsp (gpu_array (W), "devices", dev{1}), 1);
%!   assert (m3, msg);
%! endfor
%! W = pages_of (300, 4, "single", false);            # with P, by tiles in each share
%! W(3, 4, 3) = -30; W(4, 3, 3) = 1;
%! [~, msg] = raised (@() gpu_apsp (W), 2);
%! assert (! isempty (strfind (msg, "page 3 has a negative cycle")), msg);
%! [id, m2] = raised (@() gpu_apsp (W, "devices", [1 1]), 2);
%! assert (m2, msg);
%! W(3, 4, 1) = -30; W(4, 3, 1) = 1; W(1, 2, 4) = NaN; # all at once: a refused weight first
%! [id, msg] = raised (@() gpu_apsp (W), 2);
%! assert (id, "cudakernels:invalidinput");
%! [id2, m2] = raised (@() gpu_apsp (W, "devices", [1 1]), 2);
%! assert (id2, id); assert (m2, msg);
%! W = single (rand (300, 300, 4) * 10); W(W > 7) = Inf;  # rounded sums: every share takes
%! assert (isequal (gpu_apsp (W, "devices", [1 1 1]), gpu_apsp (W)));   # the call's kernel
%! W = pages_of (30, 7, "single", false);             # a refused weight in a later share
%! W(3, 4, 2) = -30; W(4, 3, 2) = 1; W(1, 2, 6) = NaN;
%! [id, msg] = raised (@() gpu_apsp (W), 1);
%! assert (id, "cudakernels:invalidinput");
%! [id2, m2] = raised (@() gpu_apsp (W, "devices", [1 1 1]), 1);
%! assert (id2, id); assert (m2, msg);
%! W = pages_of (128, 600, "single", false);
%! __cudakernels__ ("settings", "test_cancel_after", 0);
%! unwind_protect
%!   assert (raised (@() gpu_apsp (W, "devices", [1 1]), 1), "cudakernels:interrupted");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", "test_cancel_after", -1);
%! end_unwind_protect
%! assert (__ck_released__ ());
%! X = gpu_array (W(:, :, 1:20));                    # 1.3 MB, and as much for D
%! old = __cudakernels__ ("settings", "spread_copies", true);
%! __cudakernels__ ("settings", "test_alloc_limit", 3e6);
%! unwind_protect                                     # the shares' copies do not fit
%!   assert (raised (@() gpu_apsp (X, "devices", [1 1]), 1), "cudakernels:outofmemory");
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", "test_alloc_limit", 0);
%!   __cudakernels__ ("settings", old);
%! end_unwind_protect
%! clear X
%! assert (__ck_released__ ());
%! assert (isequal (gpu_apsp (W, "devices", [1 1]), gpu_apsp (W)));   # still works

## bad device lists
%!testif ; gpu_available ()
%! W = magic (4);
%! for bad = {0, [1 99], 1.5, "one", [], ones(1, 9)}
%!   assert (raised (@() gpu_apsp (W, "devices", bad{1}), 1), "cudakernels:invalidinput");
%! endfor
%! assert (raised (@() gpu_apsp (W, "kernel", "cpu", "devices", 1), 1), "cudakernels:invalidinput");

## two GPUs: the strip goes between devices, a gpu_array on the second GPU
## keeps its results there
%!testif ; gpu_available () && gpu_device_count () >= 2
%! for cls = {"single", "int16", "double"}
%!   check_apsp (__ck_graph__ (1300, cls{1}, 0.02, false, true), [1 2]);
%!   check_apsp (__ck_graph__ (1000, cls{1}, 0.02, false, true), [2 1 2]);
%! endfor
%! W = __ck_graph__ (900, "single", 0.02, false, true);
%! on_second_gpu (W);
%! W = __ck_graph__ (8192, "single", 0.001, false, true);   # the default: every GPU from 8192
%! assert (isequal (gpu_apsp (W), gpu_apsp (W, "devices", 1)));
%! assert (__ck_released__ ());

## two GPUs, pages: every kernel of pages (a page a warp, the batched, the tiled, page by
## page), shared in runs of whole pages, host and gpu_array, a gpu_array on the second GPU
## keeping its results there; the first page with a cycle named whichever GPU holds it
%!testif ; gpu_available () && gpu_device_count () >= 2
%! for cls = {"single", "int16"}
%!   for np = [16 9; 64 5; 200 3; 300 4]'
%!     W = pages_of (np(1), np(2), cls{1}, false);
%!     check_apsp (W, [1 2]);
%!     check_apsp (W, [2 1 2]);
%!   endfor
%! endfor
%! W = pages_of (64, 6, "single", false);
%! on_second_gpu (W);
%! W(3, 4, 5) = -30; W(4, 3, 5) = 1;                 # page 5: the second GPU's run
%! [~, msg] = raised (@() gpu_apsp (W), 1);
%! assert (! isempty (strfind (msg, "page 5 has a negative cycle")), msg);
%! [id, m2] = raised (@() gpu_apsp (W, "devices", [1 2]), 2);
%! assert (id, "cudakernels:negativecycle");
%! assert (m2, msg);
%! assert (__ck_released__ ());
