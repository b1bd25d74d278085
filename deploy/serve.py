"""``python -m deploy.serve``: nginx and N workers in the foreground, as ``scripts/serve`` runs
them (after the migrations and collectstatic). SIGHUP restarts the workers one at a time;
SIGTERM or Ctrl-C stops everything.

A rolling restart, for each worker in turn: start the new one on a port of its own, wait
until its ``/health/`` answers, point nginx at it instead of the old one (``nginx -s
reload``: new requests and new sockets go to the new one), let the old one finish the
requests it holds for GIN_DRAIN_SECONDS, then stop it. Its sockets close; the pages and the
API clients reconnect through nginx and resume (the table refreshes whole, the event socket
and stream resume with ``since``). A move sent in between either reached the old worker in
time and was answered, or found it gone and nginx passed it on to another (it had not been
sent); docs/deploy.md says more.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from deploy.config import Config, from_environment
from deploy.nginx import Nginx
from deploy.workers import READY_SECONDS, Worker


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


class Supervisor:
    """The workers and nginx of one site; keeps a dead worker replaced."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.nginx = Nginx(config)
        self.workers: list[Worker] = []
        self.rolls = 0
        self.want_roll = False
        self.want_stop = False

    def start(self) -> None:
        self.workers = [Worker(self.config, port) for port in self.config.ports(0)]
        for worker in self.workers:
            if not worker.wait_ready():
                raise SystemExit(f"the worker on port {worker.port} did not become healthy")
        self.nginx.write([w.port for w in self.workers])
        self.nginx.start()
        self._record()
        say(
            f"Serving https://{self.config.server_name}:{self.config.https_port}/ "
            f"with {len(self.workers)} workers (ports {[w.port for w in self.workers]})"
        )

    def _record(self) -> None:
        """The count of finished rolling restarts, for ``scripts/serve restart`` to wait on."""
        (self.config.run_dir / "rolls").write_text(f"{self.rolls}\n")

    def _other_port(self, port: int) -> int:
        first, second = self.config.ports(0), self.config.ports(1)
        return second[first.index(port)] if port in first else first[second.index(port)]

    def roll(self) -> None:
        """Replace every worker by a new one, one at a time."""
        say("Rolling restart: one worker at a time")
        for slot, old in enumerate(list(self.workers)):
            began = time.monotonic()
            new = Worker(self.config, self._other_port(old.port))
            if not new.wait_ready():
                new.stop()
                say(f"The new worker on port {new.port} is not healthy: restart stopped")
                return
            ready = time.monotonic()
            self.workers[slot] = new
            self.nginx.write([w.port for w in self.workers])
            self.nginx.reload()
            time.sleep(self.config.drain_seconds)
            drained = time.monotonic()
            old.stop()
            say(
                f"Worker {slot + 1}: port {old.port} -> {new.port} (ready after "
                f"{ready - began:.1f} s, the old one stopped {time.monotonic() - drained:.1f} s "
                "after its drain)"
            )
        self.rolls += 1
        self._record()
        say("Rolling restart done")

    def keep_alive(self) -> None:
        """A worker that died on its own is replaced on its port."""
        for slot, worker in enumerate(self.workers):
            if not worker.alive():
                say(f"The worker on port {worker.port} exited ({worker.process.returncode})")
                self.workers[slot] = Worker(self.config, worker.port)

    def stop(self) -> None:
        say("Stopping nginx and the workers")
        self.nginx.stop()
        for worker in self.workers:
            worker.stop()

    def run(self) -> None:
        self.start()
        while not self.want_stop:
            if self.want_roll:
                self.want_roll = False
                self.roll()
            self.keep_alive()
            time.sleep(0.5)
        self.stop()


def pid_file(config: Config) -> Path:
    return config.run_dir / "serve.pid"


def main() -> None:
    config = from_environment()
    config.run_dir.mkdir(parents=True, exist_ok=True)
    supervisor = Supervisor(config)

    def on_hup(signum: int, frame: FrameType | None) -> None:
        supervisor.want_roll = True

    def on_stop(signum: int, frame: FrameType | None) -> None:
        supervisor.want_stop = True

    signal.signal(signal.SIGHUP, on_hup)
    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    pid_file(config).write_text(f"{os.getpid()}\n")
    try:
        supervisor.run()
    except BaseException:
        supervisor.stop()
        raise
    finally:
        pid_file(config).unlink(missing_ok=True)


def restart() -> None:
    """Ask the running ``scripts/serve`` for a rolling restart, and wait until it is done."""
    config = from_environment()
    try:
        pid = int(pid_file(config).read_text())
    except (OSError, ValueError):
        raise SystemExit(f"scripts/serve is not running (no {pid_file(config)})") from None
    rolls = config.run_dir / "rolls"
    before = rolls.read_text()
    os.kill(pid, signal.SIGHUP)
    deadline = time.monotonic() + config.workers * (READY_SECONDS + config.drain_seconds + 15)
    while rolls.read_text() == before:
        if not Path(f"/proc/{pid}").exists():
            raise SystemExit("scripts/serve stopped during the restart")
        if time.monotonic() > deadline:
            raise SystemExit("the rolling restart did not finish: see scripts/serve's output")
        time.sleep(0.5)


if __name__ == "__main__":
    if sys.argv[1:] == ["restart"]:
        restart()
    elif sys.argv[1:]:
        raise SystemExit("usage: python -m deploy.serve [restart]")
    else:
        main()
