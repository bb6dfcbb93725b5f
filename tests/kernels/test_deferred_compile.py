"""`kernels._jit.defer_compiles`: a process that only reads the games' specs (the web server) imports the kernels
without compiling them, and a deferred function, once used, behaves as the eager one: its declared signatures
only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import sys
import numpy as np
import kernels._jit as J
J.defer_compiles()
from kernels import bits
from sim.model import registry
for g in registry.names():
    registry.get(g)  # every game's spec, as the web server's forms read them
f = bits.lowest_bit
print("pending", len(f.overloads), f._sim_sigs)
from numba.core.dispatcher import Dispatcher
mods = [m for name, m in list(sys.modules.items()) if name.startswith("kernels")]
print("compiled", sorted(n for m in mods for n, v in vars(m).items() if isinstance(v, Dispatcher) and v.overloads))
print("python call", f(np.uint64(40)))
print("after", len(f.overloads), f._can_compile)
try:
    f(np.zeros(2))  # an array where a uint64 is declared
except TypeError:
    print("other types refused")

@J.njit("int64(int8[::1])", entry=True, cache=False)
def caller(mask):  # a compiled caller types a deferred function (the path a kernel takes)
    return bits.only_set(mask) + bits.nonneg(3)

print("compiled caller", caller(np.array([0, 0, 1], dtype=np.int8)))
"""


@pytest.mark.kernel
def test_a_deferred_kernel_compiles_its_declared_signatures_on_first_use_and_nothing_else():
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "pending 0 ['int64(uint64)']"  # imported, not compiled
    assert out[1] == "compiled []"  # every game's spec read, no kernel function compiled (nor loaded from the cache)
    assert out[2] == "python call 3"  # 40 = 0b101000: lowest set bit 3
    assert out[3] == "after 1 False"  # the declared signature, then compiling is off as for an eager function
    assert out[4] == "other types refused"
    assert out[5] == "compiled caller 5"
