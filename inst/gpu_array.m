## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

classdef gpu_array < handle

  ## -*- texinfo -*-
  ## @deftypefn  {} {@var{G} =} gpu_array (@var{X})
  ## @deftypefnx {} {@var{G} =} gpu_array (@var{X}, "device", @var{I})
  ## An array kept in GPU memory, so that chained GPU calls skip the PCIe bus.
  ##
  ## @code{gpu_array (@var{X})} copies the real, full numeric or logical array
  ## @var{X} (double, single, any integer class or logical) to the device,
  ## through pinned staging buffers, and returns a handle to it.  @code{gather
  ## (@var{G})} copies it back.  @code{gpu_minplus}, @code{gpu_mxm},
  ## @code{gpu_matmul} and @code{gpu_sum} accept gpu_array
  ## inputs; when any input is one, a host input is uploaded, the whole operation
  ## runs on the device, and the result is a gpu_array: nothing returns to the
  ## host until @code{gather}.
  ##
  ## The array lives on the selected device (@code{gpu_device}), or on device
  ## @var{I} with the option @qcode{"device"}, and stays there: calls on it run
  ## on its device whichever is selected, their results live there too, and a
  ## call on gpu_arrays of two devices raises @code{cudakernels:invalidinput}
  ## (gather one of them, or make it again on the other device).  @code{disp}
  ## shows the device.
  ##
  ## @code{size}, @code{numel}, @code{ndims}, @code{rows}, @code{columns},
  ## @code{isempty}, @code{classUnderlying} and @code{isa (@var{G},
  ## "gpu_array")} work as for the array itself; @code{disp} shows a summary,
  ## never the values (use @code{gather}).  The device memory is freed when the
  ## last Octave variable referring to the array goes away (@code{clear},
  ## reassignment, leaving a function), at @code{clear all} and exit, and
  ## @code{pkg unload cudakernels} releases all of it (the arrays become stale).
  ## @code{gpu_info} reports the device memory in use.
  ##
  ## After @code{gpu_reset}, every existing gpu_array is stale: using it raises
  ## an error with identifier @code{cudakernels:stalearray}.  Without a GPU,
  ## @code{gpu_array} raises @code{cudakernels:nodevice}.
  ##
  ## @example
  ## @group
  ## D = gpu_array (W);              # W: edge weights, Inf = no edge
  ## for i = 1:13
  ##   D = gpu_minplus (D, D);       # stays on the device
  ## endfor
  ## D = gather (D);                 # all shortest paths, back on the host
  ## @end group
  ## @end example
  ##
  ## @seealso{gather, gpu_reset, gpu_minplus, gpu_matmul, gpu_sum, gpu_info}
  ## @end deftypefn

  properties (SetAccess = private, Hidden = true)
    id = 0;
    cls = "double";
    dims = [0 0];
  endproperties

  methods

    function G = gpu_array (X, varargin)
      if (nargin == 4 && ischar (X) && strcmp (X, "__cudakernels_wrap__"))
        G.id = varargin{1};   # an existing device array (deal took 1.6x as long)
        G.cls = varargin{2};
        G.dims = varargin{3};
        return;
      endif
      if (nargin < 1)
        error ("Octave:invalid-fun-call",
               "Invalid call to gpu_array: use G = gpu_array (X) or gpu_array (X, \"device\", I)");
      endif
      where = {};   # the gateway's default: the selected device
      if (nargin > 1)
        o = ck_options ("gpu_array", varargin, {"device", [], "index"});
        where = {o.device};
      endif
      if (isa (X, "gpu_array"))
        X = gather (X);
      endif
      if (! ((isnumeric (X) || islogical (X)) && isreal (X) && ! issparse (X)))
        error ("cudakernels:invalidinput",
               "gpu_array: X must be a real, full numeric or logical array, not %s%s",
               ck_pick (issparse (X), "sparse ", ""), class (X));
      endif
      G.id = ck_call ("gpu_array", "array_put", X, where{:});
      G.cls = class (X);
      G.dims = size (X);
    endfunction

    function delete (G)
      if (G.id > 0)
        try                  # a stale id (after gpu_reset) has nothing left to free
          __cudakernels__ ("array_free", G.id);
        end_try_catch
      endif
    endfunction

    function X = gather (G)
      X = ck_call ("gather", "array_get", G.id, G.dims);
    endfunction

    function c = classUnderlying (G)
      c = G.cls;
    endfunction

    function varargout = size (G, d)
      if (nargin > 1)
        sz = G.dims;
        sz(end+1:max (d)) = 1;
        varargout{1} = sz(d);
      elseif (nargout <= 1)
        varargout{1} = G.dims;
      else
        sz = G.dims;
        sz(end+1:nargout) = 1;
        varargout = num2cell ([sz(1:nargout-1), prod(sz(nargout:end))]);
      endif
    endfunction

    function n = numel (G, varargin)
      n = prod (G.dims);
    endfunction

    function n = ndims (G)
      n = numel (G.dims);
    endfunction

    function n = rows (G)
      n = G.dims(1);
    endfunction

    function n = columns (G)
      n = G.dims(2);
    endfunction

    function tf = isempty (G)
      tf = any (G.dims == 0);
    endfunction

    function tf = isreal (G)
      tf = true;
    endfunction

    function disp (G)
      dims = sprintf ("%dx", G.dims)(1:end-1);
      try
        [~, ~, dev] = __cudakernels__ ("array_info", G.id);
        bytes = prod (G.dims) * sizeof (cast (0, G.cls));
        printf ("  %s %s gpu_array (%s on device %d)\n", dims, G.cls, human_bytes (bytes), dev);
      catch
        printf ("  %s %s gpu_array, stale: its device memory was released by gpu_reset\n",
                dims, G.cls);
      end_try_catch
    endfunction

    function display (G)
      printf ("%s =\n\n", inputname (1));
      disp (G);
      printf ("\n");
    endfunction

    ## A new device array holding G converted to CLS ("single" or "double"; or
    ## "logical" from any class, nonzero as true, NaN refused).
    function H = to_class (G, cls)
      if (strcmp (cls, G.cls))
        H = G;
      else
        id = ck_call ("gpu_array", "array_convert", G.id, cls);
        H = gpu_array ("__cudakernels_wrap__", id, cls, G.dims);
      endif
    endfunction

    function id = device_id (G)
      id = G.id;
    endfunction

  endmethods

  methods (Hidden = true)

    ## The device id, class and size in one call, for the package's wrappers: a
    ## method call costs Octave 10-20 us, and a product of two gpu_arrays made
    ## about forty of them (0.81 ms a call at n = 128, 20x the gateway's time).
    function [id, cls, dims] = facts (G)
      id = G.id;
      cls = G.cls;
      dims = G.dims;
    endfunction

  endmethods

endclassdef


function s = human_bytes (b)
  units = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  u = min (max (floor (log2 (max (b, 1)) / 10), 0), numel (units) - 1);
  if (u == 0)
    s = sprintf ("%d bytes", b);
  else
    s = sprintf ("%.1f %s", b / 1024^u, units{u+1});
  endif
endfunction

%!error <Invalid call> gpu_array ()
%!error id=cudakernels:invalidinput gpu_array ({1})
%!error id=cudakernels:invalidinput gpu_array ("abc")
%!error id=cudakernels:invalidinput gpu_array (sparse (true (2)))
%!error id=cudakernels:invalidinput gpu_array ([1+2i 3])
%!error id=cudakernels:invalidinput gpu_array (speye (3))

%!testif ; ! gpu_available ()
%! try
%!   gpu_array (ones (3));
%!   error ("test:noerror", "no error without a GPU");
%! catch err
%!   assert (err.identifier, "cudakernels:nodevice");
%! end_try_catch


%!testif ; gpu_available ()
%! ## round trips of every class and shape, and the queries
%! for cls = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}
%!   for sz = {[0 0], [1 1], [3 5], [1 1000], [4 3 2], [700 900]}
%!     X = cast (randi ([0 100], sz{1}), cls{1});
%!     G = gpu_array (X);
%!     assert (gather (G), X);
%!     assert (class (gather (G)), cls{1});
%!     assert (size (G), size (X));
%!     assert (numel (G), numel (X));
%!     assert (ndims (G), ndims (X));
%!     assert (classUnderlying (G), cls{1});
%!     assert (isa (G, "gpu_array"));
%!     assert (isempty (G), isempty (X));
%!   endfor
%! endfor
%! [r, c] = size (gpu_array (ones (2, 3, 4)));
%! assert ([r c], [2 12]);
%! assert (size (gpu_array (ones (2, 3)), 3), 1);
%! clear G
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## chained operations stay on the device and give the host results
%! A = rand (300, 200, "single"); B = rand (200, 100, "single");
%! C = gpu_minplus (gpu_array (A), B);
%! assert (isa (C, "gpu_array"));
%! assert (gather (C), gpu_minplus (A, B));
%! D = gpu_minplus (C, gpu_array (rand (100, 50, "single")));
%! assert (size (D), [300 50]);
%! M = gpu_matmul (gpu_array (A), gpu_array (B));
%! assert (isa (M, "gpu_array") && strcmp (classUnderlying (M), "single"));
%! assert (gather (M), gpu_matmul (A, B), -1e-5);
%! S = gpu_sum (M, 2);
%! assert (isa (S, "gpu_array"));
%! assert (gather (S), gpu_sum (gather (M), 2));
%! assert (gather (gpu_sum (gpu_array (int8 ([100 100 -100])), "native")), int8 (27));
%! ## single wins, converted on the device
%! E = gpu_minplus (gpu_array (double (A)), gpu_array (B));
%! assert (classUnderlying (E), "single");
%! assert (gather (E), gpu_minplus (A, B));
%! clear C D M S E
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## 10^4 create/free cycles leave the device memory where it was
%! X = rand (256, "single");
%! G = gpu_array (X); clear G
%! free0 = gpu_info ()(1).free_memory;
%! for i = 1:10000
%!   G = gpu_array (X);
%! endfor
%! clear G
%! assert (__ck_released__ ());
%! assert (gpu_info ()(1).free_memory >= free0 - 2^22);

%!testif ; gpu_available ()
%! ## after gpu_reset, an old array is stale; new ones work
%! G = gpu_array (ones (3));
%! H = G;                               # a second reference to the same array
%! gpu_reset ();
%! try
%!   gather (G);
%!   error ("test:noerror", "no error for a stale array");
%! catch err
%!   assert (err.identifier, "cudakernels:stalearray");
%! end_try_catch
%! try
%!   gpu_minplus (H, H);
%!   error ("test:noerror", "no error for a stale array");
%! catch err
%!   assert (err.identifier, "cudakernels:stalearray");
%! end_try_catch
%! clear G H
%! assert (gather (gpu_minplus (gpu_array (ones (2)))), 2 * ones (2));
%! assert (gather (gpu_matmul (gpu_array (ones (2)), ones (2))), 2 * ones (2));
%! assert (__ck_released__ ());

%!testif ; gpu_available ()
%! ## "pkg unload" runs PKG_DEL, which releases every device array
%! G = gpu_array (ones (100));
%! H = gpu_minplus (G, G);
%! run (fullfile (fileparts (which ("gpu_minplus")), "PKG_DEL.m"));
%! assert (__ck_released__ ());
%! try
%!   gather (H);
%!   error ("test:noerror", "no error for an array released at unload");
%! catch err
%!   assert (err.identifier, "cudakernels:stalearray");
%! end_try_catch
%! clear G H
%! assert (gather (gpu_array (int8 ([1 2]))), int8 ([1 2]));

%!demo
%! ## All-pairs shortest paths without leaving the device.
%! n = 1000;
%! W = 1 + 9 * rand (n, "single"); W(rand (n) > 0.01) = Inf; W(1:n+1:end) = 0;
%! D = gpu_array (W)
%! for i = 1:ceil (log2 (n))
%!   D = gpu_minplus (D, D);
%! endfor
%! D = gather (D);
%! printf ("reachable pairs: %d of %d\n", nnz (isfinite (D)), n^2);
