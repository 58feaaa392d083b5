## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {[@var{C}, @var{K}] =} ck_product (@var{caller}, @var{op}, @var{A}, @var{B}, @var{kernel})
## Run the gateway's product @var{op} on checked operands: host matrices give a
## host result; gpu_arrays (both, after @code{ck_matrix_args}) a gpu_array
## result computed without leaving the device.  @var{K}, the min-plus witness,
## is computed only when asked for.
## @end deftypefn

function [C, K] = ck_product (caller, op, A, B, kernel)
  if (! isa (A, "gpu_array"))
    if (nargout < 2)    # the witness costs time: only when asked for
      C = ck_call (caller, op, A, B, kernel);
    else
      [C, K] = ck_call (caller, op, A, B, kernel);
    endif
    return;
  endif
  if (strcmp (kernel, "cpu"))
    error ("cudakernels:invalidinput",
           "%s: the cpu kernel works on host arrays; gather the gpu_arrays first", caller);
  endif
  [ida, cls, da] = facts (A);   # one method call each (see ck_matrix_args)
  [idb, ~, db] = facts (B);
  m = da(1); k = da(2); n = db(2);
  if (nargout < 2)
    id = ck_call (caller, [op "_dev"], ida, idb, m, k, n, kernel);
  else
    [id, idk] = ck_call (caller, [op "_dev"], ida, idb, m, k, n, kernel);
    K = gpu_array ("__cudakernels_wrap__", idk, "double", [m n]);
  endif
  C = gpu_array ("__cudakernels_wrap__", id, cls, [m n]);
endfunction
