"""One writer per dataset folder: a second `medfig build` (or index, or curate into it) exits 2 at once,
naming the holder; a lock left by a killed process blocks nothing (issue 19, item 1)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

LOCK_MESSAGE = "is being written by another medfig process (pid {pid}, "
HOLD = """
import sys, time
from medfig.dataset import DatasetFolder
lock = DatasetFolder(sys.argv[1]).lock("medfig test holder")
lock.__enter__()
print("locked", flush=True)
time.sleep(120)
"""


def _holder(folder, faults) -> subprocess.Popen:
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdout=subprocess.PIPE, text=True,
                             env=faults.medfig_env())
    assert child.stdout.readline().strip() == "locked"
    return child


def test_two_builds_at_once_one_waits_out_the_other_is_undisturbed(ten_articles, reference, tmp_path, faults):
    out = tmp_path / "ds"
    racers = [faults.start_build(ten_articles, out, sleep_s=0.3) for _ in range(2)]
    done = [(p, *p.communicate(timeout=300)) for p in racers]
    codes = sorted(p.returncode for p, _, _ in done)
    assert codes == [0, 2], [(p.returncode, err[-2000:]) for p, _, err in done]
    (winner, _, _), = [d for d in done if d[0].returncode == 0]
    (loser, loser_out, loser_err), = [d for d in done if d[0].returncode == 2]
    lines = loser_err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in loser_err, loser_err
    assert lines[0].startswith(f"medfig build: {out} ")
    assert LOCK_MESSAGE.format(pid=winner.pid) + "medfig build " in lines[0], lines[0]
    assert lines[0].endswith("; wait for it or stop it")
    assert faults.dataset_contents(out) == reference


def test_a_lock_left_by_a_killed_process_blocks_nothing(ten_articles, reference, tmp_path, faults):
    out = tmp_path / "ds"
    holder = _holder(out, faults)
    held = faults.run_build(ten_articles, out)
    assert held.returncode == 2 and LOCK_MESSAGE.format(pid=holder.pid) + "medfig test holder" in held.stderr
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    done = faults.run_build(ten_articles, out)
    assert done.returncode == 0, done.stderr
    assert faults.dataset_contents(out) == reference


def test_index_and_curate_take_the_lock(tmp_path, faults):
    dataset, release = tmp_path / "ds", tmp_path / "release"
    holders = [_holder(dataset, faults), _holder(release, faults)]
    try:
        for args, folder, holder in ((["index", str(dataset), "--no-dense", "-q"], dataset, holders[0]),
                                     (["curate", str(dataset), "-o", str(release)], release, holders[1])):
            done = subprocess.run([str(faults.MEDFIG), *args], capture_output=True, text=True,
                                  env=faults.medfig_env(), timeout=120)
            assert done.returncode == 2, done.stderr
            assert done.stderr.strip() == (f"medfig {args[0]}: {folder} " + LOCK_MESSAGE.format(pid=holder.pid)
                                           + f"medfig test holder from -c {folder}); wait for it or stop it"), done.stderr
    finally:
        for holder in holders:
            holder.kill()
            holder.wait()
