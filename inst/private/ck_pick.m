## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{v} =} ck_pick (@var{cond}, @var{a}, @var{b})
## @var{a} if @var{cond} is true, else @var{b}: a conditional expression.
## @end deftypefn

function v = ck_pick (cond, a, b)
  if (cond)
    v = a;
  else
    v = b;
  endif
endfunction
