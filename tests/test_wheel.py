"""The wheel a user installs works away from the clone (issue #18, packaging a user can trust).

``pip wheel .`` builds it; a fresh virtual environment in a temporary folder
installs it (its dependencies come from the package index, as a user's
would); the commands run there, in that folder, with nothing of the clone on
their path: ``--version``, ``play`` with a log, ``replay`` of that log,
``verify`` of an option, ``conformance`` of a game, and the log schema read
through ``importlib.resources``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import trickrules

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env, check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment outside the clone with the wheel installed: its ``bin`` folder."""
    where = tmp_path_factory.mktemp("wheel")
    built = _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(where / "dist"), str(ROOT)], where)
    assert built.returncode == 0, built.stderr
    (wheel,) = (where / "dist").glob("trickrules-*.whl")
    venv.create(where / "env", with_pip=True)
    bin_dir = where / "env" / ("Scripts" if os.name == "nt" else "bin")
    done = _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], where)
    assert done.returncode == 0, done.stderr
    return bin_dir


def test_the_installed_commands_work_away_from_the_clone(installed: Path, tmp_path: Path) -> None:
    cli = str(installed / "trickrules")
    version = _run([cli, "--version"], tmp_path)
    assert (version.returncode, version.stdout.strip()) == (0, f"trickrules {trickrules.__version__}")
    log = tmp_path / "m.jsonl"
    played = _run([cli, "play", "manille", "--seed", "3", "--quiet", "--log", str(log)], tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Match over" in played.stdout
    replayed = _run([cli, "replay", str(log)], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "ok," in replayed.stdout
    verified = _run([cli, "verify", "--option", "manille:scoring=difference"], tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "ok: declares manille:L46.revoke-penalty, manille:L50.cap-six" in verified.stdout
    suite = _run([cli, "conformance", "manille"], tmp_path)
    assert suite.returncode == 0, suite.stdout + suite.stderr
    assert " 0 " in suite.stdout.splitlines()[-1]  # no case failed
    module = _run([str(installed / "python"), "-m", "trickrules", "--version"], tmp_path)
    assert module.returncode == 0


def test_the_installed_package_is_the_wheel_and_ships_its_data(installed: Path, tmp_path: Path) -> None:
    code = (
        "import importlib.resources, json, trickrules\n"
        "from trickrules.records.eventlog import log_schema\n"
        "print(trickrules.__file__)\n"
        "text = (importlib.resources.files('trickrules.records') / 'log-schema.json').read_text()\n"
        "print(json.loads(text) == log_schema(), log_schema()['title'])\n"
        "print(sorted(trickrules.bundled_names()))\n"
    )
    done = _run([str(installed / "python"), "-c", code], tmp_path)
    assert done.returncode == 0, done.stderr
    where, schema, names = done.stdout.splitlines()
    assert not Path(where).resolve().is_relative_to(ROOT)  # not the clone's source
    assert schema == "True trickrules event log line"
    assert "quadrille" in names
    assert "manille" in names
    meta = (
        "from importlib import metadata\n"
        "m = metadata.metadata('trickrules')\n"
        "print(m['License-Expression'], m['Version'], len(m.get_all('Classifier') or []), bool(m['Author-email']))\n"
        "print(any(str(f).endswith('LICENSE') for f in metadata.files('trickrules') or []))\n"
    )
    done = _run([str(installed / "python"), "-c", meta], tmp_path)
    assert done.returncode == 0, done.stderr
    licence, version, classifiers, author = done.stdout.splitlines()[0].split()
    assert (licence, version, author) == ("MIT", trickrules.__version__, "True")
    assert int(classifiers) >= 5
    assert done.stdout.splitlines()[1] == "True"  # the LICENSE file is in the installed distribution


def test_without_the_native_extra_a_simulation_falls_back_and_says_so_once(installed: Path, tmp_path: Path) -> None:
    # The wheel installed without its `native` extra (no Numba): the engine plays, and says why once.
    code = (
        "import warnings, trickrules\n"
        "with warnings.catch_warnings(record=True) as said:\n"
        "    warnings.simplefilter('always')\n"
        "    a = trickrules.simulate('manille', deals=5, seed=1)\n"
        "    b = trickrules.simulate('hearts', deals=5, seed=1)\n"
        "print(len(said), said[0].category.__name__, a.statistics.deals >= 5)\n"
    )
    ran = _run([str(installed / "python"), "-c", code], tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["1", "KernelFallback", "True"]
    cli = _run([str(installed / "trickrules"), "simulate", "manille", "-n", "5", "--bots", "random"], tmp_path)
    assert cli.returncode == 0, cli.stderr
    assert cli.stderr.count("note: the native kernel needs Numba") == 1
