## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## Paged products (issue 18): gpu_minplus and gpu_matmul on operands with
## dimensions beyond the second, broadcast as pagemtimes does (each page
## dimension matches or is 1 on one side).  Every page must be the 2-D form's
## of the pages it takes, exactly: C, K and NaN patterns; ragged sizes, p = 1,
## p = 0, broadcast on either side, integer classes, the one-operand form,
## host arrays and gpu_arrays, and the errors.  Run by tests/run_tests.m.

%!function check_pages (op, A, B, varargin)
%!  ## op (A, B) against op of each pair of pages it takes
%!  sa = size (A); sb = size (B); L = max (numel (sa), numel (sb));
%!  sa(end+1:L) = 1; sb(end+1:L) = 1;
%!  pd = max (sa(3:end), sb(3:end)); pd(sa(3:end) == 0 | sb(3:end) == 0) = 0;
%!  witness = strcmp (func2str (op), "gpu_minplus");
%!  if (witness)
%!    [C, K] = op (A, B, varargin{:});
%!    assert (size (K), size (C));
%!  else
%!    C = op (A, B, varargin{:});
%!  endif
%!  dev = isa (C, "gpu_array");
%!  if (dev)
%!    C = gather (C);
%!    if (witness) K = gather (K); endif
%!    A = gather (A); B = gather (B);
%!  endif
%!  assert (size (C), [sa(1) sb(2) pd]);
%!  for q = 1:prod (pd)
%!    s = cell (1, numel (pd));
%!    [s{:}] = ind2sub ([pd 1], q);
%!    ia = s; ia(sa(3:end) == 1) = {1};
%!    ib = s; ib(sb(3:end) == 1) = {1};
%!    Ap = A(:, :, ia{:}); Bp = B(:, :, ib{:});
%!    if (dev)
%!      Ap = gpu_array (Ap); Bp = gpu_array (Bp);
%!    endif
%!    if (witness)
%!      [R, RK] = op (Ap, Bp, varargin{:});
%!      assert (isequal (K(:, :, q), gather_if (RK)), sprintf ("page %d: K differs", q));
%!    else
%!      R = op (Ap, Bp, varargin{:});
%!    endif
%!    assert (isequaln (C(:, :, q), gather_if (R)), sprintf ("page %d differs", q));
%!  endfor
%!endfunction
%!function X = gather_if (X)
%!  if (isa (X, "gpu_array"))
%!    X = gather (X);
%!  endif
%!endfunction
%!function X = messy (varargin)
%!  X = round (10 * randn (varargin{:}));
%!  X(rand (size (X)) < 0.1) = Inf;
%!  X(rand (size (X)) < 0.05) = NaN;
%!endfunction

%!test
%! check_pages (@gpu_minplus, messy (3, 4, 2), messy (4, 5, 2), "kernel", "cpu");
%! check_pages (@gpu_minplus, messy (17, 3, 4), messy (3, 65), "kernel", "cpu");      # B broadcast
%! check_pages (@gpu_minplus, messy (1, 17, 1, 3), messy (17, 1, 2, 3), "kernel", "cpu");
%! check_pages (@gpu_minplus, messy (3, 4), messy (4, 5, 1, 2), "kernel", "cpu");    # A broadcast
%! check_pages (@gpu_minplus, messy (3, 4, 1), messy (4, 5, 1), "kernel", "cpu");    # p = 1
%! check_pages (@gpu_minplus, int16 (randi ([-9 9], 3, 4, 3)), int16 (randi (9, 4, 2, 3)),
%!              "kernel", "cpu");
%! C = gpu_minplus (zeros (3, 4, 0), ones (4, 5), "kernel", "cpu");                   # p = 0
%! assert (size (C), [3 5 0]);
%! C = gpu_minplus (ones (3, 0, 2), ones (0, 5, 2), "kernel", "cpu");                 # k = 0
%! assert (C, Inf (3, 5, 2));
%! A = messy (5, 5, 3);
%! C = gpu_minplus (A, "kernel", "cpu");                                              # one operand
%! for q = 1:3
%!   assert (isequaln (C(:, :, q), gpu_minplus (A(:, :, q), "kernel", "cpu")));
%! endfor
%!error <page dimension 3 must agree> gpu_minplus (ones (3, 4, 2), ones (4, 5, 3), "kernel", "cpu")
%!error <page dimension 4 must agree> gpu_matmul (ones (3, 4, 1, 2), ones (4, 5, 1, 3))
%!error <inner dimensions> gpu_minplus (ones (3, 4, 2), ones (5, 5, 2), "kernel", "cpu")

%!testif ; gpu_available ()
%! for cls = {"double", "single", "int32", "uint8"}
%!   A = cast (messy (3, 17, 2, 3), cls{1}); B = cast (messy (17, 65, 1, 3), cls{1});
%!   check_pages (@gpu_minplus, A, B);
%!   check_pages (@gpu_minplus, gpu_array (A), gpu_array (B));
%! endfor
%! check_pages (@gpu_minplus, messy (65, 1, 4), messy (1, 63));
%! check_pages (@gpu_minplus, single (randi (999, 64, 64, 40)), single (randi (999, 64, 64, 40)));
%! C = gpu_minplus (gpu_array (zeros (3, 4, 0)), gpu_array (ones (4, 5)));
%! assert (size (C), [3 5 0]);
%! clear C
%! assert (isequal (__cudakernels__ ("memory"), [0, 0]));

%!testif ; gpu_available ()
%! for kernel = {"warptile", "cublas"}
%!   if (strcmp (kernel{1}, "cublas") && isempty (__cudakernels__ ("cublas")))
%!     continue;
%!   endif
%!   A = randn (3, 17, 2, 3); B = randn (17, 65, 1, 3);
%!   check_pages (@gpu_matmul, A, B, "kernel", kernel{1});
%!   check_pages (@gpu_matmul, gpu_array (single (A)), gpu_array (single (B)), "kernel", kernel{1});
%! endfor
%! assert (isequal (__cudakernels__ ("memory"), [0, 0]));
