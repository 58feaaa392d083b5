## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{W} =} __ck_graph__ (@var{n}, @var{cls}, @var{density}, @var{negative})
## @deftypefnx {} {@var{W} =} __ck_graph__ (@dots{}, @var{zero_cycles})
## Test helper: the weights of a random graph of @var{n} vertices in class
## @var{cls}, for @code{gpu_apsp}: integer weights 0 to 9 (many ties), an edge
## where @code{rand () <= @var{density}}, ``no edge'' (@code{Inf} or
## @code{intmax}) elsewhere, and 0 on the diagonal.
##
## Zero weights are kept to edges i -> j with i < j, so that no cycle weighs
## zero, unless @var{zero_cycles} (default false): then zero weights fall
## anywhere, and the edges 1 -> 2 -> 1 make at least one zero cycle.  With
## @var{negative}, edges turn negative without any cycle doing so: each gets
## the potentials' difference h(i) - h(j) added (h from 0 to 20), which every
## cycle sums to 0.  In an unsigned class negative weights saturate at 0.
## @end deftypefn

## Shared by the tests in inst/ and tests/; why it lives here: doc/DEVELOPING.md, "Test helpers".
function W = __ck_graph__ (n, cls, density, negative, zero_cycles = false)
  C = randi ([0 9], n, n);
  if (! zero_cycles)
    C = C + tril (C == 0, -1);
  elseif (n >= 2)
    C(1,2) = 0; C(2,1) = 0;   # before the potentials, which keep every cycle's weight
  endif
  if (negative)
    h = randi ([0 20], n, 1);
    C = C + h - h';
  endif
  C(rand (n) > density) = Inf;
  C(1:n+1:end) = 0;
  if (! any (strcmp (cls, {"double", "single"})))
    C(isinf (C)) = double (intmax (cls));
  endif
  W = cast (C, cls);
endfunction

%!test
%! W = __ck_graph__ (50, "int16", 0.3, true);
%! assert (class (W), "int16");
%! assert (all (diag (W) == 0));
%! assert (any (W(:) < 0));
%! D = gpu_apsp (W, "kernel", "cpu");   # no negative cycle: no error
%! assert (all (diag (D) == 0));
%!test
%! W = __ck_graph__ (30, "double", 1, false);
%! assert (all (W(tril (true (30), -1)) > 0));   # no zero weight below the diagonal
%! W = __ck_graph__ (30, "double", 1, false, true);
%! assert (W(1, 2) == 0 && W(2, 1) == 0);
