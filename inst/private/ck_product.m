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
  sa = size (A); sb = size (B);
  if (numel (sa) > 2 || numel (sb) > 2)
    if (nargout < 2)
      C = paged (caller, op, A, B, kernel, sa, sb);
    else
      [C, K] = paged (caller, op, A, B, kernel, sa, sb);
    endif
    return;
  endif
  if (! isa (A, "gpu_array"))
    if (nargout < 2)    # the witness costs time: only when asked for
      C = ck_call (caller, op, A, B, kernel);
    else
      [C, K] = ck_call (caller, op, A, B, kernel);
    endif
    return;
  endif
  no_cpu_on_device (caller, kernel);
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

## Pages (dimensions beyond the second), broadcast as pagemtimes does: for each
## page of C, the pages of A and B it takes.
function [C, K] = paged (caller, op, A, B, kernel, sa, sb)
  m = sa(1); k = sa(2); n = sb(2);
  [ia, ib, pdims] = page_map (sa(3:end), sb(3:end));
  if (! isa (A, "gpu_array"))
    A = reshape (A, m, k * prod (sa(3:end)));
    B = reshape (B, k, n * prod (sb(3:end)));
    if (nargout < 2)
      C = ck_call (caller, [op "_pages"], A, B, kernel, m, k, n, ia, ib);
    else
      [C, K] = ck_call (caller, [op "_pages"], A, B, kernel, m, k, n, ia, ib);
      K = reshape (K, [m n pdims]);
    endif
    C = reshape (C, [m n pdims]);
    return;
  endif
  no_cpu_on_device (caller, kernel);
  [ida, cls] = facts (A);
  idb = facts (B);
  if (nargout < 2)
    id = ck_call (caller, [op "_pages_dev"], ida, idb, m, k, n, kernel, ia, ib);
  else
    [id, idk] = ck_call (caller, [op "_pages_dev"], ida, idb, m, k, n, kernel, ia, ib);
    K = gpu_array ("__cudakernels_wrap__", idk, "double", [m n pdims]);
  endif
  C = gpu_array ("__cudakernels_wrap__", id, cls, [m n pdims]);
endfunction

function [ia, ib, pdims] = page_map (da, db)
  L = max (numel (da), numel (db));
  da(end+1:L) = 1; db(end+1:L) = 1;
  pdims = max (da, db);
  pdims(da == 0 | db == 0) = 0;
  P = prod (pdims);
  subs = cell (1, L);
  [subs{:}] = ind2sub ([pdims 1], (1:P)');
  [sa, sb] = deal (subs);
  sa(da == 1) = {ones(P, 1)};
  sb(db == 1) = {ones(P, 1)};
  ia = sub2ind ([da 1], sa{:}, ones (P, 1));
  ib = sub2ind ([db 1], sb{:}, ones (P, 1));
endfunction

function no_cpu_on_device (caller, kernel)
  if (strcmp (kernel, "cpu"))
    error ("cudakernels:invalidinput",
           "%s: the cpu kernel works on host arrays; gather the gpu_arrays first", caller);
  endif
endfunction
