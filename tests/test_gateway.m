## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## The MEX gateway's own checks (src/cudakernels.c, src/gw_settings.c): the
## "settings" command (read, set, restore from the struct it returns, all or
## nothing on a bad value), the argument and output counts of the command
## table, checked before any command runs, and the listing built from that
## table; the one product and shortest-path commands' arguments and the plan
## they leave ("last_plan") on the CPU kernels.  None of them touches a device,
## so they run without a GPU.  gpu_reset restoring the defaults is tested in
## inst/gpu_reset.m.  Run by tests/run_tests.m.

%!function expect_invalid (f, pattern)
%!  try
%!    f ();
%!    error ("test:noerror", "no error: expected one matching '%s'", pattern);
%!  catch err
%!    assert (err.identifier, "cudakernels:invalidinput", err.message);
%!    assert (! isempty (regexp (err.message, pattern, "once")), err.message);
%!  end_try_catch
%!endfunction

## Every setting, set by name and value, read back, and restored from the
## struct that the setting call returned.
%!test
%! s0 = __cudakernels__ ("settings");
%! assert (fieldnames (s0), {"minplus_narrow"; "pages_mode"; "apsp_graph"; "spread_copies";
%!                           "test_alloc_limit"; "test_cancel_after"; "test_texture_limit"});
%! unwind_protect
%!   old = __cudakernels__ ("settings", "minplus_narrow", "off", "pages_mode", "batched",
%!                          "apsp_graph", "rounds", "spread_copies", true,
%!                          "test_alloc_limit", 2^20, "test_cancel_after", 5);
%!   assert (old, s0);
%!   s = __cudakernels__ ("settings");
%!   assert (s, struct ("minplus_narrow", "off", "pages_mode", "batched", "apsp_graph", "rounds",
%!                      "spread_copies", true, "test_alloc_limit", 2^20, "test_cancel_after", 5,
%!                      "test_texture_limit", 0));
%!   assert (class (s.spread_copies), "logical");
%!   assert (__cudakernels__ ("settings", old), s);   # gives back what it replaced
%!   assert (__cudakernels__ ("settings"), s0);
%!   ## a struct of some of them sets those alone; 0 and 1 do for false and true
%!   __cudakernels__ ("settings", struct ("pages_mode", "loop", "spread_copies", 1));
%!   s = __cudakernels__ ("settings");
%!   assert ({s.pages_mode, s.spread_copies}, {"loop", true});
%!   assert (rmfield (s, {"pages_mode", "spread_copies"}),
%!           rmfield (s0, {"pages_mode", "spread_copies"}));
%!   for mode = {"auto", "off", "always"}
%!     __cudakernels__ ("settings", "minplus_narrow", mode{1});
%!     assert (__cudakernels__ ("settings").minplus_narrow, mode{1});
%!   endfor
%! unwind_protect_cleanup
%!   __cudakernels__ ("settings", s0);
%! end_unwind_protect
%! assert (__cudakernels__ ("settings"), s0);

## Unknown names and bad values: cudakernels:invalidinput, and nothing of the
## call is set, not even the good values before the bad one.
%!test
%! s0 = __cudakernels__ ("settings");
%! set = @(varargin) __cudakernels__ ("settings", varargin{:});
%! expect_invalid (@() set ("nope", 1), 'unknown setting "nope": the settings are minplus_narrow,');
%! expect_invalid (@() set (struct ("pages_mode", "loop", "nope", 1)), 'unknown setting "nope"');
%! expect_invalid (@() set ("minplus_narrow", "sometimes"), "narrowing mode");
%! expect_invalid (@() set ("pages_mode", "sometimes"), "pages mode");
%! expect_invalid (@() set ("pages_mode", 1), "pages mode");
%! expect_invalid (@() set ("apsp_graph", "tiles"), "how a graph's distances run");
%! expect_invalid (@() set ("spread_copies", 2), "spread_copies is true or false");
%! expect_invalid (@() set ("spread_copies", "yes"), "spread_copies is true or false");
%! expect_invalid (@() set ("test_alloc_limit", -1), "test_alloc_limit is a number of bytes");
%! expect_invalid (@() set ("test_alloc_limit", 1.5), "test_alloc_limit is a number of bytes");
%! expect_invalid (@() set ("test_alloc_limit", [1 2]), "test_alloc_limit is a number of bytes");
%! expect_invalid (@() set ("test_cancel_after", -2), "test_cancel_after is a number of polls");
%! expect_invalid (@() set ("pages_mode"), "NAME, VALUE pairs or one struct");
%! expect_invalid (@() set (1, 2), "NAME must be a short character string");
%! expect_invalid (@() set (struct ("pages_mode", {"loop", "auto"})), "one struct");
%! expect_invalid (@() set ("pages_mode", "loop", "test_alloc_limit", -1), "test_alloc_limit");
%! assert (__cudakernels__ ("settings"), s0);

## The table's counts, checked before the command runs: every command called
## with one argument too many, and with too few where it needs some, names
## itself and its usage.
%!test
%! h = __cudakernels__ ("help");
%! for c = h'
%!   args = num2cell (zeros (1, c.max_args + 1));
%!   expect_invalid (@() __cudakernels__ (c.name, args{:}),
%!                   sprintf (': "%s" called with %d argument.*usage: __cudakernels__ \\("%s"',
%!                            c.name, c.max_args + 1, c.name));
%!   if (c.min_args > 0)
%!     args = num2cell (zeros (1, c.min_args - 1));
%!     expect_invalid (@() __cudakernels__ (c.name, args{:}),
%!                     sprintf (': "%s" called with %d argument', c.name, c.min_args - 1));
%!   endif
%! endfor
%! expect_invalid (@() __cudakernels__ ("memory", 1),
%!                 ['"memory" called with 1 argument after the name; ', ...
%!                  'usage: __cudakernels__ \("memory"\) -> ']);
%! expect_invalid (@() __cudakernels__ ("nope"), 'unknown command "nope"');

%!error <"memory" called with 2 outputs> [a, b] = __cudakernels__ ("memory");
%!error <"settings" called with 2 outputs> [a, b] = __cudakernels__ ("settings");
%!error <COMMAND must be a short character string> __cudakernels__ (1)

## The listing comes from the table: every command the package calls, each
## with its usage line, printed by __cudakernels__ () and ("help").
%!test
%! names = {"help", "available", "info", "device_count", "device_select", "settings", ...
%!          "kernels", "product", "apsp", "closure", "time", "last_plan", "minplus_ceiling", ...
%!          "sum", "sum_time", "sum_dev", "copy_bandwidth", "cublas", "sync", "array_put", ...
%!          "array_get", "array_free", "array_info", "array_convert", "path_dev", "reset", ...
%!          "memory"};
%! h = __cudakernels__ ("help");
%! assert (size (h), [numel(names), 1]);
%! assert (sort ({h.name}), sort (names));
%! assert (__cudakernels__ (), h);
%! printed = evalc ("__cudakernels__ ()");
%! assert (evalc ("__cudakernels__ (\"help\")"), printed);
%! for c = h'
%!   assert (regexp (c.usage, ['^__cudakernels__ \("' c.name '"[ ,)].* -> .'], "once"), 1, c.usage);
%!   assert (c.min_args <= c.max_args && c.max_outputs >= 0);
%!   assert (! isempty (strfind (printed, c.usage)), c.name);
%! endfor
%! ## "settings" takes a NAME, VALUE pair for each setting
%! assert (h(strcmp ({h.name}, "settings")).max_args,
%!         2 * numel (fieldnames (__cudakernels__ ("settings"))));

## The product command: a semiring or "+.*", where the operands live, and its
## plan; the CPU kernel needs no device.
%!test
%! A = __ck_messy__ ([3 4]); B = __ck_messy__ ([4 5]);
%! product = @(varargin) __cudakernels__ ("product", varargin{:});
%! [C, K] = product ("min.+", "host", A, B, "cpu");
%! [R, RK] = gpu_minplus (A, B, "kernel", "cpu");
%! assert (isequaln ({C, K}, {R, RK}));
%! assert (isequaln (product ("min.plus", "host", A, B, "cpu", [], [3 4 5]), R));  # the alias
%! plan = __cudakernels__ ("last_plan");
%! assert ({plan.op, plan.semiring, plan.class, plan.kernel, plan.where, plan.move},
%!         {"product", "min.+", "double", "cpu", "host", "cpu"});
%! assert ([plan.m plan.k plan.n plan.pages], [3 4 5 0]);
%! assert ({plan.witness, plan.narrow, plan.devices, plan.words}, {false, false, zeros(1, 0), "none"});
%! expect_invalid (@() product ("min.*", "host", A, B, "cpu"), 'unknown semiring "min.\*"');
%! expect_invalid (@() product ("max.*", "host", int8 (A), int8 (B), "cpu"),
%!                 "the max.\* product takes double, single, not int8");
%! expect_invalid (@() product ("or.and", "host", A, B, "cpu"), "takes logical, not double");
%! [C, K] = product ("max.min", "host", A, B, "cpu");
%! [R, RK] = max (min (A, permute (B, [3 1 2])), [], 2);
%! assert (isequaln ({C, K}, {reshape(R, 3, 5), reshape(RK, 3, 5)}));
%! plan = __cudakernels__ ("last_plan");
%! assert (plan.semiring, "max.min");
%! ## logical arrays are summed as double: the gateway's sum refuses them
%! expect_invalid (@() __cudakernels__ ("sum", true (8, 1), 1, 8, 1, "default", "cpu"), "logical");
%! expect_invalid (@() product ("min.+", "nowhere", A, B, "cpu"), "WHERE is");
%! expect_invalid (@() product ("min.+", "host", A, B, "nope"), 'unknown min-plus kernel "nope"');
%! expect_invalid (@() product ("+.*", "host", A, B, "cpu"), 'unknown matmul kernel "cpu"');
%! expect_invalid (@() product ("min.+", "host", A, B, "cpu", [], [3 4 6]), "SIZE does not match");
%! expect_invalid (@() product ("min.+", "host", A, B, "cpu", [], [3 4]), "SIZE must be");
%! expect_invalid (@() product ("min.+", "host", A, single (B), "cpu"), "same class");
%! expect_invalid (@() product ("min.+", "host", int64 (A), int64 (B), "cpu"), "int64");
%! expect_invalid (@() product ("+.*", "host", int8 (A), int8 (B), "naive"), "single or double");
%! try
%!   [C, K] = product ("+.*", "host", A, B, "naive");
%!   error ("test:noerror", "no error");
%! catch err
%!   assert (err.message, "__cudakernels__: the arithmetic product (+.*) has no witness K");
%! end_try_catch

## The shortest-path command and its plan, on the CPU kernel.
%!test
%! W = [0 3 Inf; Inf 0 1; 2 Inf 0];
%! [D, P] = __cudakernels__ ("apsp", "min.+", "host", W, "cpu", 0);
%! [R, RP] = gpu_apsp (W, "kernel", "cpu");
%! assert ({D, P}, {R, RP});
%! plan = __cudakernels__ ("last_plan");
%! assert ({plan.op, plan.semiring, plan.kernel, plan.move, plan.n, plan.witness},
%!         {"apsp", "min.+", "cpu", "cpu", 3, true});
%! apsp = @(varargin) __cudakernels__ ("apsp", varargin{:});
%! expect_invalid (@() apsp ("+.*", "host", W, "cpu", 0), "take a semiring, not");
%! expect_invalid (@() apsp ("min.+", "host", W, "fast", 0), "KERNEL must be");
%! expect_invalid (@() apsp ("min.+", "host", W(1:2, :), "cpu", 0), "square");

## The timing command checks its arguments before it needs a device.
%!test
%! time = @(varargin) __cudakernels__ ("time", varargin{:});
%! expect_invalid (@() time ("sum", "min.+", "single", "warptile", [1 1 1], 0, 1), "OP is");
%! expect_invalid (@() time ("product", "min.+", "single", "warptile", [1 1], 0, 1), "SIZE of a product");
%! expect_invalid (@() time ("product", "min.+", "single", "warptile", [1 1 1], 0, 1, "fast"),
%!                 'the flags of "time"');
%! expect_invalid (@() time ("apsp", "min.+", "single", "cpu", 9, 0, 1), 'only the "gpu" kernel');
%! expect_invalid (@() time ("apsp", "min.+", "single", "gpu", [9 9 9], 0, 1), "SIZE of shortest");
%! expect_invalid (@() time ("product", "min.+", "single", "warptile", [1 1 1], 0, 0), "REPS");
