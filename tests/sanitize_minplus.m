## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} sanitize_minplus ()
## Exercise every min-plus GPU kernel and every device code path on small,
## ragged shapes, for running under @command{compute-sanitizer} (memcheck,
## racecheck): each kernel and class against the CPU reference, k = 0, empty
## results, the packed, 32-bit and wide integer paths, operands read as they
## are, the witness, integer-valued single and double on the integer paths, paged
## products (in one launch and page by page), a product sliced to fit a small
## memory, the out-of-memory path, the timing command and the ceiling probe
## (products spread over several workers: sanitize_spread).
## Prints @samp{sanitize_minplus: OK} at the end; errors out on a wrong result.
## @end deftypefn

function sanitize_minplus ()
  shapes = [1 1 1; 3 5 2; 63 65 64; 65 63 129; 1 70 1; 130 1 3];
  for cls = {"single", "double"}
    for kernel = {"naive", "coalesced", "regblock", "warptile"}
      for s = 1:rows (shapes)
        A = cast (round (10 * randn (shapes(s, 1), shapes(s, 2))), cls{1});
        B = cast (round (10 * randn (shapes(s, 2), shapes(s, 3))), cls{1});
        A(rand (size (A)) < 0.1) = NaN;
        C = gpu_minplus (A, B, "kernel", kernel{1});
        R = gpu_minplus (A, B, "kernel", "cpu");
        if (! isequaln (C, R))
          error ("sanitize_minplus: %s %s %dx%dx%d differs from the CPU reference", ...
                 kernel{1}, cls{1}, shapes(s, :));
        endif
      endfor
      assert (gpu_minplus (zeros (2, 0), zeros (0, 3), "kernel", kernel{1}), Inf (2, 3));
      assert (size (gpu_minplus (zeros (0, 2), ones (2, 3), "kernel", kernel{1})), [0 3]);
      __cudakernels__ ("time", "product", "min.+", cls{1}, kernel{1}, [65 33 70], 1, 2);
    endfor
    __cudakernels__ ("minplus_ceiling", cls{1});
  endfor
  __cudakernels__ ("minplus_ceiling", "int32");   # the DPX probes
  __cudakernels__ ("minplus_ceiling", "uint8");
  for cls = {"int32", "uint8", "int16"}    # saturating integer paths
    for kernel = {"naive", "coalesced", "regblock", "warptile"}
      A = cast (randi ([-200 200], 65, 33), cls{1}); A(1:7:end) = intmax (cls{1});
      B = cast (randi ([-200 200], 33, 70), cls{1});
      if (strcmp (cls{1}, "int32"))
        B(2, :) = intmin ("int32");   # spreads too wide for 32-bit words: the fallback
      endif
      if (! isequal (gpu_minplus (A, B, "kernel", kernel{1}), gpu_minplus (A, B, "kernel", "cpu")))
        error ("sanitize_minplus: %s %s differs from the CPU reference", kernel{1}, cls{1});
      endif
      __cudakernels__ ("time", "product", "min.+", cls{1}, kernel{1}, [65 33 70], 1, 2);
    endfor
  endfor
  for low = [0, -5]   # int32 read as it is (shift 0 guessed), then a miss
    A = int32 (randi ([0 50], 128, 16)); B = int32 (randi ([0 50], 16, 64));
    A(1, 1) = low;
    for arg = [false, true]
      if (arg)
        [C, K] = gpu_minplus (A, B); [RC, RK] = gpu_minplus (A, B, "kernel", "cpu");
      else
        C = gpu_minplus (A, B); RC = gpu_minplus (A, B, "kernel", "cpu"); K = RK = 0;
      endif
      if (! isequal (C, RC) || ! isequal (K, RK))
        error ("sanitize_minplus: int32 whole tiles, low %d, differs from the CPU reference", low);
      endif
    endfor
  endfor
  for cls = {"int8", "uint8", "int16", "uint16"}   # read as they are (whole tiles), split too
    for s = {[256 16 64], [256 2048 64]}
      A = cast (randi ([0 120], s{1}(1), s{1}(2)), cls{1}); A(1:5:end) = intmax (cls{1});
      B = cast (randi ([0 120], s{1}(2), s{1}(3)), cls{1});
      [C, K] = gpu_minplus (A, B); [RC, RK] = gpu_minplus (A, B, "kernel", "cpu");
      if (! isequal (C, RC) || ! isequal (K, RK) || ! isequal (gpu_minplus (A, B), RC))
        error ("sanitize_minplus: %s whole tiles %dx%dx%d differs from the CPU reference", ...
               cls{1}, s{1});
      endif
    endfor
  endfor
  for cls = {"single", "double", "int32"}   # the witness K
    for kernel = {"naive", "coalesced", "regblock", "warptile"}
      A = cast (round (5 * randn (65, 33)), cls{1}); B = cast (round (5 * randn (33, 70)), cls{1});
      [C, K] = gpu_minplus (A, B, "kernel", kernel{1});
      [RC, RK] = gpu_minplus (A, B, "kernel", "cpu");
      if (! isequal (C, RC) || ! isequal (K, RK))
        error ("sanitize_minplus: witness %s %s differs from the CPU reference", kernel{1}, cls{1});
      endif
      __cudakernels__ ("time", "product", "min.+", cls{1}, kernel{1}, [65 33 70], 1, 2, "witness");
    endfor
  endfor
  ## the sliced path: rows, columns and k, merged
  narrowed ();
  paged ();
  A = single (round (5 * randn (150, 700))); B = single (round (5 * randn (700, 90)));
  [RC, RK] = gpu_minplus (A, B, "kernel", "cpu");
  __cudakernels__ ("settings", "test_alloc_limit", 2^20);
  unwind_protect
    [C, K] = gpu_minplus (A, B);
  unwind_protect_cleanup
    __cudakernels__ ("settings", "test_alloc_limit", 0);
  end_unwind_protect
  if (! isequal (C, RC) || ! isequal (K, RK))
    error ("sanitize_minplus: the sliced product differs from the CPU reference");
  endif
  ## the same with the look forced: narrowed in slices, or the float path where the integer
  ## copies find no room
  old = __cudakernels__ ("settings", "minplus_narrow", "always");
  __cudakernels__ ("settings", "test_alloc_limit", 2^20);
  unwind_protect
    [C, K] = gpu_minplus (A, B);
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
  if (! isequal (C, RC) || ! isequal (K, RK))
    error ("sanitize_minplus: the sliced product, narrowed, differs from the CPU reference");
  endif
  __cudakernels__ ("settings", "test_alloc_limit", 50000);
  unwind_protect
    try
      gpu_minplus (ones (100, "single"));
      error ("sanitize_minplus: no out-of-memory error");
    catch err
      assert (err.identifier, "cudakernels:outofmemory");
    end_try_catch
  unwind_protect_cleanup
    __cudakernels__ ("settings", "test_alloc_limit", 0);
  end_unwind_protect
  assert (__cudakernels__ ("memory"), [0 0]);
  printf ("sanitize_minplus: OK\n");
endfunction

## Paged products in one launch (batched, every class: padded, packed and read as
## they are; with the witness; broadcast; the 32-bit words and v2 fallbacks) and
## page by page, against the CPU kernel.
function paged ()
  old = __cudakernels__ ("settings", "pages_mode", "batched");
  unwind_protect
    for cls = {"single", "double", "int16", "uint8", "int32"}
      for s = [3 17 65 4; 64 64 64 3; 1 64 129 2]'
        A = cast (randi ([0 99], s(1), s(2), s(4)), cls{1});
        B = cast (randi ([0 99], s(2), s(3), s(4)), cls{1});
        B(1, :, end) = __ck_intmax_of__ (cls{1});
        for mode = {"batched", "loop"}
          __cudakernels__ ("settings", "pages_mode", mode{1});
          [C, K] = gpu_minplus (A, B);
          [R, RK] = gpu_minplus (A, B, "kernel", "cpu");
          if (! isequal (C, R) || ! isequal (K, RK) || ! isequal (gpu_minplus (A, B), R) ||
              ! isequal (gpu_minplus (A(:, :, 1), B), gpu_minplus (A(:, :, 1), B, "kernel", "cpu")))
            error ("sanitize_minplus: paged %s %dx%dx%d x %d (%s) differs from the CPU", cls{1}, s, mode{1});
          endif
        endfor
        __cudakernels__ ("time", "product", "min.+", cls{1}, "warptile", [s(1) s(2) s(3) s(4)], 1, 1);
      endfor
    endfor
    __cudakernels__ ("settings", "pages_mode", "batched");
    A = int16 (randi ([-30000 30000], 9, 33, 3)); B = int16 (randi ([-30000 30000], 33, 9, 3));
    if (! isequal (gpu_minplus (A, B), gpu_minplus (A, B, "kernel", "cpu")))
      error ("sanitize_minplus: paged int16 on 32-bit words differs from the CPU");
    endif
    A = int32 ([-2^31 2^31-1; 0 1]) .* ones (2, 2, 3, "int32");
    if (! isequal (gpu_minplus (A, A), gpu_minplus (A, A, "kernel", "cpu")))
      error ("sanitize_minplus: paged int32 on v2 differs from the CPU");
    endif
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
endfunction

## Integer-valued single and double on the integer paths (16-bit and 32-bit, the look forced),
## with an Inf row, and a fraction that sends the call back to the float path.
function narrowed ()
  old = __cudakernels__ ("settings", "minplus_narrow", "always");
  unwind_protect
    for cls = {"single", "double"}
      for top = [1000 2^20]
        A = cast (randi (top, 65, 63) - 1, cls{1}); B = cast (randi (top, 63, 130) - 1, cls{1});
        A(3, :) = Inf;
        for frac = [false true]
          A(5) = A(5) + 0.5 * frac;
          [C, K] = gpu_minplus (A, B);
          [R, RK] = gpu_minplus (A, B, "kernel", "cpu");
          if (! isequal (C, R) || ! isequal (K, RK) || ! isequal (gpu_minplus (A, B), R))
            error ("sanitize_minplus: %s narrowed (top %d, fraction %d) differs from the CPU", ...
                   cls{1}, top, frac);
          endif
        endfor
      endfor
    endfor
  unwind_protect_cleanup
    __cudakernels__ ("settings", old);
  end_unwind_protect
endfunction
