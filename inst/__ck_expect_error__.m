## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} __ck_expect_error__ (@var{f}, @var{id}, @var{pattern})
## Test helper: calling @var{f} (a function handle) must raise an error with
## identifier @var{id} whose message matches the regular expression
## @var{pattern}.  Shared by the test files.
## @end deftypefn

## Shared by the tests in inst/ and tests/; why it lives here: doc/DEVELOPING.md, "Test helpers".
function __ck_expect_error__ (f, id, pattern)
  try
    f ();
  catch err
    assert (err.identifier, id);
    assert (! isempty (regexp (err.message, pattern, "once")), err.message);
    return;
  end_try_catch
  error ("__ck_expect_error__: expected %s, got no error", id);
endfunction

%!test
%! __ck_expect_error__ (@() error ("a:b", "a message 3"), "a:b", "message \\d");
%!error <expected a:b, got no error> __ck_expect_error__ (@() 1, "a:b", ".")
%!error <other> __ck_expect_error__ (@() error ("a:c", "other"), "a:c", "message")
