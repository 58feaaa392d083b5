## Copyright (C) 2026 The cudakernels authors
## SPDX-License-Identifier: GPL-3.0-or-later

## Run by "pkg unload cudakernels": release every device array, the pinned
## staging buffers and cuBLAS.  Only when the gateway was ever used, so that
## unloading never starts CUDA for nothing.
if (mislocked ("__cudakernels__"))
  try
    __cudakernels__ ("reset");
  catch
  end_try_catch
endif
