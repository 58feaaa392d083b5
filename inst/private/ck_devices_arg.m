## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{d} =} ck_devices_arg (@var{caller}, @var{value})
## The value of a @qcode{"devices"} option: a list of device numbers
## (1-based, as @code{gpu_device} numbers them), a nonempty vector of at most 8
## positive integers, as a double row; whether each exists the gateway checks.
## @end deftypefn

function d = ck_devices_arg (caller, value)
  if (! isnumeric (value) || ! isreal (value) || isempty (value) || ! isvector (value)
      || numel (value) > 8 || any (value != fix (value)) || any (value < 1))
    error ("cudakernels:invalidinput",
           "%s: \"devices\" takes a list of 1 to 8 device numbers, as gpu_device () shows them",
           caller);
  endif
  d = double (value(:)');
endfunction
