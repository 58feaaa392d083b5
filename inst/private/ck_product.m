## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {[@var{C}, @var{K}] =} ck_product (@var{caller}, @var{semiring}, @var{A}, @var{B}, @var{kernel}, @var{devices})
## Run the gateway's one product command for @var{semiring} (@qcode{"min.+"},
## or @qcode{"+.*"} for the arithmetic product) on checked operands: host
## matrices give a host result; gpu_arrays (both, after @code{ck_matrix_args})
## a gpu_array result on their device.  @var{K}, the witness, is computed only
## when asked for.  A 2-D product's columns are shared by @var{devices} ([]:
## the gateway's default); paged products run on one device.
## @end deftypefn

function [C, K] = ck_product (caller, semiring, A, B, kernel, devices)
  dev = isa (A, "gpu_array");
  if (dev)
    if (strcmp (kernel, "cpu"))
      error ("cudakernels:invalidinput",
             "%s: the cpu kernel works on host arrays; gather the gpu_arrays first", caller);
    endif
    [ida, cls, sa] = facts (A);   # one method call each (see ck_matrix_args)
    [idb, ~, sb] = facts (B);
    where = "device";
  else
    sa = size (A); sb = size (B);
    ida = [];
    where = "host";
  endif
  m = sa(1); k = sa(2); n = sb(2);
  if (numel (sa) > 2 || numel (sb) > 2)   # pages
    [ia, ib, pdims] = page_map (sa(3:end), sb(3:end), m * k > 0 && k * n > 0);
    restore = paged_device (caller, devices, dev, ida);
    if (dev)
      args = {ida, idb, kernel, [], [m k n], ia, ib};
    else
      args = {reshape(A, m, k * prod (sa(3:end))), reshape(B, k, n * prod (sb(3:end))), ...
              kernel, [], [m k n], ia, ib};
    endif
  else
    pdims = [];
    if (dev)
      args = {ida, idb, kernel, devices, [m k n]};
    else
      args = {A, B, kernel, devices};
    endif
  endif
  if (nargout < 2)    # the witness costs time: only when asked for
    C = ck_call (caller, "product", semiring, where, args{:});
  else
    [C, K] = ck_call (caller, "product", semiring, where, args{:});
  endif
  if (dev)
    if (nargout > 1)
      K = gpu_array ("__cudakernels_wrap__", K, "double", [m n pdims]);
    endif
    C = gpu_array ("__cudakernels_wrap__", C, cls, [m n pdims]);
  elseif (! isempty (pdims))   # paged results come as m x (n * pages)
    C = reshape (C, [m n pdims]);
    if (nargout > 1)
      K = reshape (K, [m n pdims]);
    endif
  endif
endfunction

## Paged products run on one device: the one DEVICES names (for host arrays,
## selected for the call, the selection restored by the returned cleanup), or
## the gpu_arrays' own.
function restore = paged_device (caller, devices, dev, ida)
  restore = [];
  if (isempty (devices))
    return;
  elseif (numel (devices) > 1)
    error ("cudakernels:invalidinput",
           "%s: paged products run on one device; \"devices\" must name one", caller);
  elseif (dev)
    [~, ~, where] = ck_call (caller, "array_info", ida);
    if (devices != where)
      error ("cudakernels:invalidinput",
             "%s: the gpu_arrays live on device %d, not on device %d", caller, where, devices);
    endif
  else
    before = ck_call (caller, "device_select", devices);
    restore = onCleanup (@() __cudakernels__ ("device_select", before));
  endif
endfunction

## For each page of C (the dimensions beyond the second, broadcast as
## pagemtimes does), the pages of A and B it takes; or ia = ib = 0, the
## gateway's 3-D map, where page q of C takes page q of each operand (or its
## only page) and no page is empty: no lists to build, convert and scan, host
## work on every call before the GPU starts.
function [ia, ib, pdims] = page_map (da, db, nonempty)
  L = max (numel (da), numel (db));
  da(end+1:L) = 1; db(end+1:L) = 1;
  pdims = max (da, db);
  pdims(da == 0 | db == 0) = 0;
  P = prod (pdims);
  if (nonempty && P > 0 && (all (da == pdims) || all (da == 1))
      && (all (db == pdims) || all (db == 1)))
    ia = ib = 0;
    return;
  endif
  subs = cell (1, L);
  [subs{:}] = ind2sub ([pdims 1], (1:P)');
  [sa, sb] = deal (subs);
  sa(da == 1) = {ones(P, 1)};
  sb(db == 1) = {ones(P, 1)};
  ia = sub2ind ([da 1], sa{:}, ones (P, 1));
  ib = sub2ind ([db 1], sb{:}, ones (P, 1));
endfunction
