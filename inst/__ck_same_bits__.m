## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} __ck_same_bits__ (@var{C}, @var{R}, @var{what})
## Test helper: assert that @var{C} equals @var{R} element for element, signs
## of zero included: the same class and size, the same NaN pattern, equal values
## elsewhere and the same sign bits there.  @var{what} names the case in the
## error.
## @end deftypefn

## Shared by the tests in inst/ and tests/; why it lives here: doc/DEVELOPING.md, "Test helpers".
function __ck_same_bits__ (C, R, what)
  assert (class (C), class (R));
  assert (size (C), size (R));
  assert (isequal (isnan (C), isnan (R)), [what ": NaN pattern differs"]);
  m = ! isnan (R);
  assert (isequal (C(m), R(m)), [what ": values differ"]);
  assert (isequal (signbit (C(m)), signbit (R(m))), [what ": signs of zero differ"]);
endfunction

%!test
%! __ck_same_bits__ ([1 NaN -0], [1 NaN -0], "same");
%!error <signs of zero differ> __ck_same_bits__ ([1 0], [1 -0], "zeros")
%!error <NaN pattern differs> __ck_same_bits__ ([1 NaN], [1 2], "NaN")
%!error <values differ> __ck_same_bits__ (single ([1 2]), single ([1 3]), "values")
