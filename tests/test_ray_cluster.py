"""The multi-machine path for real: a two-node Ray cluster in two network namespaces.

Two network namespaces joined by a veth pair stand for two machines: the head at
10.231.0.1 and a worker node at 10.231.0.2, each started with the venv's ``ray start``
inside its namespace (one CPU each). ``medfig build --executor ray --ray-address
10.231.0.1:6379`` runs as the driver inside the head's namespace. Both "machines" share
this machine's filesystem, as cluster nodes share a mounted output folder.

Checked: tasks ran on both nodes (each Ray worker writes ``logs/ray-<node ip>-<pid>.log``
when it takes its first article, so both nodes' files must be there), and the dataset's
tables, stats and images equal those of a local build of the same input.

Nothing outside the two namespaces is contacted: they have no route anywhere else, and
only the two addresses above exist in them. Teardown does not use ``ray stop``, which
stops every Ray process of the machine (other people's too): it ends exactly the processes
inside the two namespaces (``ip netns pids``), then deletes the namespaces (and with them
the veth pair). Needs root and ``ip netns``; skipped, saying why, without them.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import pyarrow.parquet as pq
import pytest

BIN = Path(sys.executable).parent  # the venv's bin: ray, medfig
HEAD_IP, NODE_IP = "10.231.0.1", "10.231.0.2"
PORT = 6379  # each namespace has its own ports: no clash with a Ray on this machine
OBJECT_STORE_BYTES = 100_000_000  # Ray's minimum is 75 MB; the default takes 30% of RAM per node
STEP_TIMEOUT_S = 150


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=30)


def _why_not() -> str | None:
    if os.geteuid() != 0:
        return "needs root: creates network namespaces"
    if shutil.which("ip") is None:
        return "`ip` (iproute2) not installed: cannot create network namespaces"
    probe = f"medfig-probe-{uuid.uuid4().hex[:8]}"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"`ip netns` unavailable: {made.stderr.strip()}"
    _ip("netns", "del", probe, check=False)
    return None


# Ray 2.5x+ turns token authentication on for `ray start --head` when ~/.ray/auth_token exists (any
# local ray.init() writes one) but not for a joining node: say it explicitly, with this run's own token.
AUTH_TOKEN = secrets.token_hex(32)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=AUTH_TOKEN,
               PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}")
    return env


def _in(ns: str, *command, timeout: float = STEP_TIMEOUT_S) -> subprocess.CompletedProcess:
    done = subprocess.run(["ip", "netns", "exec", ns, *map(str, command)], capture_output=True, text=True,
                          env=_env(), timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, command))} in {ns}: exit {done.returncode}\n" \
                                 f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _end_processes_in(namespaces: list[str]) -> None:
    """SIGTERM every process inside the namespaces, SIGKILL what is left after 5 s."""
    def pids() -> list[int]:
        return [int(p) for ns in namespaces for p in _ip("netns", "pids", ns, check=False).stdout.split()]

    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        left = pids()
        for pid in left:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = pids()
        if not left:
            return


@contextmanager
def two_node_cluster():
    """``(head namespace, head address, Ray temp folder)`` of a running two-node cluster; torn down on exit."""
    tag = f"{os.getpid() % 100000}{uuid.uuid4().hex[:4]}"  # unique per run: runs may overlap on one machine
    head, node = f"medfig-{tag}-head", f"medfig-{tag}-node"
    # Ray's unix socket paths (temp dir + session + socket name) must stay under 108 characters
    temp = Path(tempfile.mkdtemp(prefix="mfray", dir="/tmp"))
    made: list[str] = []
    try:
        for ns in (head, node):
            _ip("netns", "add", ns)
            made.append(ns)
        # the veth pair is created with its ends already in the namespaces: never in this one
        _ip("link", "add", f"mf{tag}a", "netns", head, "type", "veth", "peer", "name", f"mf{tag}b", "netns", node)
        for ns, dev, ip in ((head, f"mf{tag}a", HEAD_IP), (node, f"mf{tag}b", NODE_IP)):
            _ip("-n", ns, "addr", "add", f"{ip}/24", "dev", dev)
            _ip("-n", ns, "link", "set", dev, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        _in(head, BIN / "ray", "start", "--head", "--node-ip-address", HEAD_IP, "--port", PORT, "--num-cpus", 1,
            "--object-store-memory", OBJECT_STORE_BYTES, "--temp-dir", temp / "h", "--include-dashboard=false",
            "--disable-usage-stats")
        _in(node, BIN / "ray", "start", "--address", f"{HEAD_IP}:{PORT}", "--node-ip-address", NODE_IP,
            "--num-cpus", 1, "--object-store-memory", OBJECT_STORE_BYTES, "--temp-dir", temp / "n",
            "--disable-usage-stats")
        yield head, f"{HEAD_IP}:{PORT}", temp
    finally:
        _end_processes_in(made)
        for ns in made:
            _ip("netns", "del", ns, check=False)
        shutil.rmtree(temp, ignore_errors=True)


def _table(path: Path) -> list[str]:
    return sorted(repr(sorted(row.items())) for row in pq.read_table(path).to_pylist())


def test_build_on_a_two_node_ray_cluster_uses_both_nodes_and_equals_a_local_build(tmp_path):
    reason = _why_not()
    if reason:
        pytest.skip(reason)
    started = time.monotonic()
    corpus, local, on_ray = tmp_path / "demo", tmp_path / "local", tmp_path / "ray"
    demo = subprocess.Popen([BIN / "medfig", "demo", corpus], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=_env())  # written while the cluster starts
    local_build = None
    try:
        with two_node_cluster() as (head, address, _temp):  # the demo corpus is written meanwhile
            marks = {"cluster up": time.monotonic() - started}
            assert demo.wait(timeout=STEP_TIMEOUT_S) == 0, demo.stdout.read()
            marks["demo written"] = time.monotonic() - started
            local_build = subprocess.Popen(
                [BIN / "medfig", "build", corpus, "-o", local, "--workers", "1", "--quiet"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_env())
            built = _in(head, BIN / "medfig", "build", corpus, "-o", on_ray, "--executor", "ray",
                        "--ray-address", address, "--workers", 2, "--quiet")
            marks["ray build done"] = time.monotonic() - started
            assert "ray executor" in built.stdout and "5 processed" in built.stdout, built.stdout
            assert local_build.wait(timeout=STEP_TIMEOUT_S) == 0, local_build.stdout.read()
            marks["local build done"] = time.monotonic() - started
    finally:
        for process in (demo, local_build):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()

    # Tasks ran on both nodes: each node's Ray worker(s) logged their first article.
    logs = sorted(p.name for p in (on_ray / "logs").glob("ray-*.log"))
    nodes = {name.split("-")[1] for name in logs}
    assert nodes == {HEAD_IP, NODE_IP}, logs
    for name in logs:
        assert (on_ray / "logs" / name).read_text().startswith("medfig Ray worker: host ")

    # The same dataset as the local build: every table, the stats, every image.
    tables = sorted(p.name for p in local.glob("*.parquet"))
    assert {"figures.parquet", "articles.parquet", "errors.parquet"} <= set(tables)
    assert tables == sorted(p.name for p in on_ray.glob("*.parquet"))
    for name in tables:
        assert _table(local / name) == _table(on_ray / name), name
    assert (local / "stats.json").read_text() == (on_ray / "stats.json").read_text()
    figures = pq.read_table(on_ray / "figures.parquet").to_pylist()
    images = [f["image_path"] for f in figures if f["image_path"]]
    assert len(images) >= 5
    for image in images:
        assert (on_ray / image).read_bytes() == (local / image).read_bytes(), image
    marks["checked"] = time.monotonic() - started
    print("two-node Ray cluster test (s since start): " + ", ".join(f"{k} {v:.0f}" for k, v in marks.items())
          + f"; logs {logs}")

