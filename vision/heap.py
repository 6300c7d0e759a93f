"""Keep the memory a frame's read frees for the next frame (glibc's allocator), instead of handing it back.

One read allocates and frees some hundred numpy temporaries of 0.1-6 MB (Lab and HSV
copies of the rectified view, integral images, masks, the locator's score batches).
glibc's defaults return much of that to the kernel between frames: blocks over the
mmap threshold (128 kB, raised only as far as the largest block freed so far) are
unmapped on free, and the heap's top is trimmed once 2x that threshold lies free. The
next frame then faults the same pages in again, each one zeroed by the kernel: on the
bench photo read from a file ~4,700 page faults and ~13 ms of a ~75 ms read (in-process
CPU, 2-core shared machine), with the numbers unchanged (where an array lives does not
change what is computed in it). A process that freed larger blocks before its first read
has the thresholds raised already: ``bench`` renders its photo in-process first, and there
this changes nothing (~1 fault a read either way); a reader fed camera frames or files is
the case it is for.

:func:`keep_freed_memory` raises the mmap threshold to 32 MB (every temporary of a
frame comes from the heap), keeps up to 64 MB free at the heap's top, and grows it
16 MB at a time: a reading process holds on to a few tens of MB it would reuse anyway.
It changes the allocator of the whole process, once, and only where glibc's ``mallopt``
exists (Linux with glibc; elsewhere nothing happens). :class:`vision.reader.BoardReader`
calls it unless ``ReaderConfig.keep_memory`` is off.
"""

from __future__ import annotations

import ctypes
import sys

__all__ = ["keep_freed_memory"]

# glibc's mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3

_SETTINGS = ((_M_MMAP_THRESHOLD, 32 << 20), (_M_TRIM_THRESHOLD, 64 << 20), (_M_TOP_PAD, 16 << 20))

_done: list[bool] = []


def keep_freed_memory() -> bool:
    """Apply the settings above once per process; True when glibc accepted them (also on later calls)."""
    if _done:
        return _done[0]
    ok = False
    if sys.platform.startswith("linux"):
        try:
            mallopt = ctypes.CDLL(None).mallopt
        except (OSError, AttributeError):  # not glibc (musl has no such symbol, or a stub)
            mallopt = None
        if mallopt is not None:
            mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
            mallopt.restype = ctypes.c_int
            ok = all(mallopt(param, value) == 1 for param, value in _SETTINGS)
    _done.append(ok)
    return ok
