"""nginx in front of the workers: its configuration rendered from deploy/nginx.conf, a
self-signed certificate when none is given, and its master process started, reloaded, stopped."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from deploy.config import ROOT, Config

TEMPLATE = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def render(config: Config, ports: list[int], cert: str, key: str) -> str:
    """deploy/nginx.conf with every @NAME@ filled in; a name left over is an error."""
    upstreams = "\n".join(
        f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;" for port in ports
    )
    values = {
        "USER": f"user {config.nginx_user};" if os.geteuid() == 0 else "",
        "RUN": str(config.run_dir),
        "UPSTREAMS": upstreams,
        "HTTP_PORT": str(config.http_port),
        "HTTPS_PORT": str(config.https_port),
        "HTTPS_SUFFIX": "" if config.https_port == 443 else f":{config.https_port}",
        "SERVER_NAME": config.server_name,
        "TLS_CERT": cert,
        "TLS_KEY": key,
        "STATIC_ROOT": str(config.static_root),
    }
    text = TEMPLATE.read_text()
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    left = re.findall(r"@[A-Z_]+@", text)
    if left:
        raise SystemExit(f"deploy/nginx.conf: nothing fills in {', '.join(sorted(set(left)))}")
    return text


def certificate(config: Config) -> tuple[str, str]:
    """The TLS certificate and key: the operator's (GIN_TLS_CERT, GIN_TLS_KEY), or a
    self-signed one for this server name made once in the run directory, for tests and a
    first look (browsers warn about it: never for a public site)."""
    if config.tls_cert and config.tls_key:
        return config.tls_cert, config.tls_key
    cert, key = config.run_dir / "self-signed.crt", config.run_dir / "self-signed.key"
    if not (cert.exists() and key.exists()):
        names = sorted({config.server_name, "localhost"})
        alt = ",".join([f"DNS:{n}" for n in names] + ["IP:127.0.0.1", "IP:::1"])
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "825"]
            + ["-subj", f"/CN={config.server_name}", "-addext", f"subjectAltName={alt}"]
            + ["-keyout", str(key), "-out", str(cert)],
            check=True,
            capture_output=True,
        )
        key.chmod(0o600)
    return str(cert), str(key)


class Nginx:
    """Debian's nginx, run with the rendered configuration in the run directory."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.conf = config.run_dir / "nginx.conf"
        self.cert, self.key = certificate(config)
        (config.run_dir / "nginx-tmp").mkdir(parents=True, exist_ok=True)

    def _command(self, *args: str) -> list[str]:
        return [NGINX, "-p", str(self.config.run_dir), "-c", str(self.conf), *args]

    def write(self, ports: list[int]) -> None:
        """Render the configuration for these workers, and have nginx check it."""
        self.conf.write_text(render(self.config, ports, self.cert, self.key))
        # The pages nginx answers itself, beside its configuration, where its workers read.
        for name in ("unavailable.html", "unavailable.json"):
            shutil.copyfile(ROOT / "deploy" / name, self.config.run_dir / name)
        subprocess.run(self._command("-t", "-q"), check=True)

    def start(self) -> None:
        subprocess.run(self._command(), check=True)

    def reload(self) -> None:
        """New nginx processes take the new configuration; the old ones finish their requests
        and close their long-lived connections within worker_shutdown_timeout."""
        subprocess.run(self._command("-s", "reload"), check=True)

    def pid(self) -> int | None:
        try:
            return int((self.config.run_dir / "nginx.pid").read_text().strip())
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        """Stop gracefully (requests in flight end), within 20 s."""
        pid = self.pid()
        if pid is None:
            return
        subprocess.run(self._command("-s", "quit"), check=False)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
            time.sleep(0.1)
