"""The local Ray instance the `ray`-marked tests share: 2 CPUs, its own temp folder, no
dashboard, shut down and swept at the end of the module that uses it."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator

from paperatlas.ray_batches import INSTALL_HINT


def local_ray_instance() -> Iterator[None]:
    """Body of a module-scoped fixture: `local_ray = pytest.fixture(scope="module")(local_ray_instance)`."""
    try:
        import ray
    except ImportError:  # without the extra: the tests fail with how to get it
        raise AssertionError(INSTALL_HINT) from None
    temp = tempfile.mkdtemp(prefix="pa-ray-", dir="/tmp")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp, logging_level="ERROR")
    yield
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)
