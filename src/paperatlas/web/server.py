"""Running the web app as `paperatlas serve` does: the socket, the worker processes, and
how they end. The pages are app.py's; what makes them fast is serving.py's.

- `listen(host, port)`: the listening socket, bound (and listening) in the parent before
  any worker starts, so a busy port is one clear line at once, not a worker's traceback.
- `run(sock, workers)`: uvicorn on that socket, in this process (one worker) or in
  `workers` processes that share it.
- Tied to the server: nothing the parent does when it is killed with SIGKILL can stop its
  workers, so each worker asks Linux to kill it when its parent dies (the parent-death
  signal, as enrich's pool workers) as the first thing `import paperatlas` does
  (`workers.tie_to_env_parent`), before its seconds of imports, and exits at once if the
  server is gone already; `die_with_parent()` checks again when its app is built. Either
  way no worker is left holding the port.
- `worker_limit()`: the most worker processes this machine can run (cores, free memory);
  `serve` refuses more with one line.
- The parent tells its workers what to serve through the environment (`worker_settings`):
  each worker builds its own app (`app.app_from_env`).
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import os
import socket

from paperatlas.errors import PaperatlasError
from paperatlas.workers import PARENT_ENV, tie_to_env_parent

ENV_DB = "PAPERATLAS_DB"
ENV_ALLOW_HOSTS = "PAPERATLAS_ALLOW_HOSTS"  # names, separated by spaces
ENV_READ_ONLY = "PAPERATLAS_READ_ONLY"  # "1": serve read-only
ENV_PARENT = PARENT_ENV  # the supervisor's pid, in worker processes only
BACKLOG = 2048  # uvicorn's default
# What one server process holds: ~120 MB at 15k papers (interpreter, libraries, vectors,
# map, page cache), more for bigger atlases; the bound below counts this much a worker.
WORKER_BYTES = 160 << 20
CORE_SHARE = 2  # worker processes a core may have: pages are CPU work, a second covers waits


class ServeError(PaperatlasError):
    """The server cannot start (port in use, address not on this machine, ...)."""


def is_loopback(host: str) -> bool:
    """Does listening on `host` keep the app on this machine?"""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def is_unspecified(host: str) -> bool:
    """0.0.0.0 or ::: every address of the machine, so no one address to allow."""
    return is_ip_literal(host) and ipaddress.ip_address(host.strip("[]")).is_unspecified


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port, ready to hand to uvicorn (and its workers)."""
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    # as uvicorn does: a port left in TIME_WAIT by a stopped server can be taken again;
    # a port another socket is listening on cannot (Linux refuses it with EADDRINUSE)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        where = f"[{host}]:{port}" if family == socket.AF_INET6 else f"{host}:{port}"
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(
                f"{where} is already in use (another server?): stop it, or pick another port with --port"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise ServeError(f"cannot listen on {where}: not an address of this machine") from None
        if exc.errno == errno.EACCES:
            raise ServeError(
                f"cannot listen on {where}: permission denied (ports below 1024 need privileges)"
            ) from None
        raise ServeError(f"cannot listen on {where}: {exc.strerror or exc}") from None
    except (socket.gaierror, OverflowError, UnicodeError) as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc}") from None
    sock.set_inheritable(True)
    return sock


def worker_environment(db: str, allow_hosts: list[str], read_only: bool, workers: int) -> None:
    """What each worker reads in `worker_settings` (set in this process's environment,
    which the workers inherit)."""
    os.environ[ENV_DB] = db
    os.environ[ENV_ALLOW_HOSTS] = " ".join(allow_hosts)
    os.environ[ENV_READ_ONLY] = "1" if read_only else ""
    if workers > 1:
        os.environ[ENV_PARENT] = str(os.getpid())
    else:  # the one worker is this process: nobody to outlive
        os.environ.pop(ENV_PARENT, None)


def worker_settings() -> dict:
    """create_app's keyword arguments for this worker, from the environment."""
    return {
        "allow_hosts": tuple(os.environ.get(ENV_ALLOW_HOSTS, "").split()),
        "read_only": os.environ.get(ENV_READ_ONLY) == "1",
    }


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def available_memory() -> int | None:
    """Bytes of memory free for new processes (MemAvailable), None where unknown."""
    try:
        with open("/proc/meminfo", "rb") as fh:
            for line in fh:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def worker_limit() -> tuple[int, str]:
    """(the most server processes this machine can run, why): CORE_SHARE per usable core,
    and no more than free memory holds at WORKER_BYTES each (at least one)."""
    cores, memory = usable_cores(), available_memory()
    limit, why = CORE_SHARE * cores, f"{cores} core{'s' if cores != 1 else ''}"
    if memory is not None:
        limit = min(limit, memory // WORKER_BYTES)
        why += f", {memory / (1 << 30):.1f} GB of memory free at ~{WORKER_BYTES >> 20} MB a process"
    return max(1, limit), why


def check_workers(workers: int) -> None:
    """ServeError (one line) for a --workers this machine cannot run."""
    if workers < 1:
        raise ServeError("--workers must be 1 or more")
    limit, why = worker_limit()
    if workers > limit:
        raise ServeError(f"--workers {workers}: this machine runs at most {limit} server processes ({why})")


def die_with_parent() -> None:
    """In a worker process: end when the `serve` process that started it ends, however
    it ends (SIGKILL included). No-op outside a worker (ENV_PARENT unset)."""
    tie_to_env_parent()


def run(sock: socket.socket, workers: int) -> bool:
    """Serve `app.app_from_env` on `sock` until Ctrl+C or SIGTERM; False when it never
    started (the reason is logged)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    # Each worker builds its own app from the environment. No access log: writing a line
    # per request costs more than a cached page. asyncio's own loop and TCP_NODELAY: see
    # serving.py, NoDelayHttpToolsProtocol. No proxy headers: no proxy stands in front, and
    # X-Forwarded-Proto would change the scheme the guard compares Origin with.
    config = uvicorn.Config(
        "paperatlas.web.app:app_from_env",
        factory=True,
        workers=workers,
        log_level="warning",
        access_log=False,
        loop="asyncio",
        http="paperatlas.web.serving:NoDelayHttpToolsProtocol",
        proxy_headers=False,
    )
    if workers > 1:
        Multiprocess(config, sockets=[sock]).run()
        return True
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    return server.started
