## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{tf} =} __ck_released__ ()
## Test helper: true when the package holds no device memory (the gateway's
## @qcode{"memory"} count, arrays and bytes, is [0, 0]).
## @end deftypefn

## Shared by the tests in inst/ and tests/; why it lives here: doc/DEVELOPING.md, "Test helpers".
function tf = __ck_released__ ()
  tf = isequal (__cudakernels__ ("memory"), [0, 0]);
endfunction
