"""`playtest --backend ray` without --ray-address starts a Ray that listens on 127.0.0.1 only (it bound every
interface, and every process Ray started listened on them)."""
from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from envs.paths import PROJECT_ROOT

LISTENERS = """
import ray, psutil
from training.playtest.run import start_ray
start_ray(1, None)
ours = {p.pid for p in psutil.Process().children(recursive=True)} | {psutil.Process().pid}
found = sorted({c.laddr.ip for c in psutil.net_connections("inet")
                if c.status == psutil.CONN_LISTEN and c.pid in ours})
ray.shutdown()
print(" ".join(found))
"""


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the 'ray' extra is not installed")
def test_a_local_ray_listens_on_the_loopback_address_alone():
    out = subprocess.run([sys.executable, "-c", LISTENERS], cwd=PROJECT_ROOT, capture_output=True, text=True,
                         timeout=300)
    addresses = out.stdout.split()
    assert out.returncode == 0 and addresses, out.stderr[-2000:]
    assert set(addresses) <= {"127.0.0.1", "::ffff:127.0.0.1", "::1"}, addresses
