"""numba's on-disk cache switched on for UMAP's and pynndescent's compiled functions.

umap and pynndescent mark only a few of their numba functions `cache=True`, so a fresh
process compiles the rest on its first fit: about 12 CPU-s, half of a 4,000-paper `map`.
With the cache on, a later process loads the machine code instead; the code is the same
as a fresh compile's, so layouts do not change. numba keeps the cache next to the
package's sources, in its user-wide cache folder where those are not writable, or under
NUMBA_CACHE_DIR when that is set.
"""

from __future__ import annotations

import sys
import threading

# the packages whose functions are cached (their submodules included)
PACKAGES = ("umap", "pynndescent")

_lock = threading.Lock()
_done: set[str] = set()


def enable_disk_cache() -> None:
    """Turn on numba's disk cache for every jitted function of the imported PACKAGES.

    Call after importing them and before their first fit: a signature compiled before
    the call is not written to the cache (it stays correct, only slower next time).
    """
    from numba.core.caching import NullCache
    from numba.core.dispatcher import Dispatcher

    with _lock:
        for name, module in list(sys.modules.items()):
            if module is None or name in _done or name.split(".")[0] not in PACKAGES:
                continue
            _done.add(name)
            for value in list(vars(module).values()):
                # a function imported from a sibling module is the same object: once is enough
                if (
                    isinstance(value, Dispatcher)
                    and isinstance(getattr(value, "_cache", None), NullCache)  # not cache=True already
                    and value.py_func.__module__.split(".")[0] in PACKAGES
                ):
                    value.enable_caching()
