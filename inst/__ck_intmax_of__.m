## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{x} =} __ck_intmax_of__ (@var{cls})
## Test helper: the value that means ``no edge'' in class @var{cls}, as the
## min-plus products and @code{gpu_apsp} take it: @code{intmax (@var{cls})}
## for an integer class, @code{Inf} for single and double.
## @end deftypefn

## Shared by the tests in inst/ and tests/; why it lives here: doc/DEVELOPING.md, "Test helpers".
function x = __ck_intmax_of__ (cls)
  if (any (strcmp (cls, {"double", "single"})))
    x = Inf (cls);
  else
    x = intmax (cls);
  endif
endfunction

%!assert (__ck_intmax_of__ ("int16"), intmax ("int16"))
%!assert (__ck_intmax_of__ ("single"), Inf ("single"))
