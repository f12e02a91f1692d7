"""docs/rl.md: its worked example trains a policy that beats the random bot, and the core imports no RL package.

The example (``docs/examples/rl/rl_train.py``, included in the page) learns a
table of action values for either seat of ``docs/examples/rl/tiny_whist.toml``
for 2,000 deals; over 2,000 fresh deals against the random bot its mean
return's 95% interval lies above zero, and above a random policy's on the
same deals.
"""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "rl" / "rl_train.py"

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")


def test_the_worked_example_beats_the_random_bot() -> None:
    train = runpy.run_path(str(EXAMPLE))["train"]
    found = train(episodes=2000, evaluation=2000, seed=1)
    mean, half = found["learnt"]
    chance, _ = found["random"]
    assert mean - half > 0
    assert mean > chance
    assert "rl_train.py" in (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")


def test_the_core_imports_no_reinforcement_learning_package() -> None:
    code = (
        "import sys, trickrules\n"
        "state = trickrules.load('manille').new_match(seed=1)\n"
        "state = state.apply(state.legal_actions()[0])\n"
        "trickrules.simulate('manille', deals=2, bots='random')\n"
        "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
