"""What ``scripts/serve`` is told by its environment (docs/deploy.md lists each variable)."""

from __future__ import annotations

import os
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"{name} must be an integer, got {value!r}") from None


def _str(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


@dataclass(frozen=True)
class Config:
    workers: int
    worker_port: int  # the first worker's; a rolling restart alternates between two ranges
    http_port: int
    https_port: int
    server_name: str
    run_dir: Path
    tls_cert: str
    tls_key: str
    drain_seconds: float
    static_root: Path
    nginx_user: str

    def ports(self, generation: int) -> list[int]:
        """The workers' ports in one generation: even ones use the first range, odd the next,
        so a new worker starts beside the old one it replaces."""
        first = self.worker_port + (generation % 2) * self.workers
        return list(range(first, first + self.workers))


def from_environment() -> Config:
    hosts = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    workers = _int("GIN_WORKERS", os.cpu_count() or 1)
    if workers < 1:
        raise SystemExit("GIN_WORKERS must be at least 1")
    run_dir = Path(_str("GIN_RUN_DIR", str(ROOT / "run"))).resolve()
    return Config(
        workers=workers,
        worker_port=_int("GIN_WORKER_PORT", 8101),
        http_port=_int("GIN_HTTP_PORT", 80),
        https_port=_int("GIN_HTTPS_PORT", 443),
        server_name=_str("GIN_SERVER_NAME", hosts[0] if hosts else "localhost"),
        run_dir=run_dir,
        tls_cert=_str("GIN_TLS_CERT", ""),
        tls_key=_str("GIN_TLS_KEY", ""),
        drain_seconds=float(_int("GIN_DRAIN_SECONDS", 5)),
        static_root=Path(_str("STATIC_ROOT", str(ROOT / "staticfiles"))).resolve(),
        nginx_user=_str("GIN_NGINX_USER", "www-data"),
    )


def on_loopback(workers: int, worker_port: int, *, prefix: str, nginx_user: str) -> Config:
    """A throwaway configuration on this machine: free HTTP and HTTPS ports, a self-signed
    certificate, no drain, in a new run directory named after ``prefix`` (a benchmark's or a
    test's nginx in front of workers it started)."""
    # Not a 0700 temporary directory: nginx's workers (``nginx_user``) keep their buffers here.
    run_dir = Path(tempfile.mkdtemp(prefix=prefix))
    run_dir.chmod(0o755)
    return Config(
        workers=workers,
        worker_port=worker_port,
        http_port=free_port(),
        https_port=free_port(),
        server_name="localhost",
        run_dir=run_dir,
        tls_cert="",
        tls_key="",
        drain_seconds=0.0,
        static_root=ROOT / "staticfiles",
        nginx_user=nginx_user,
    )


def free_port() -> int:
    """A port nobody listens on now, on the loopback address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
