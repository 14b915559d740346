"""The `mad` command for pip users (issue 28 §1): the package carries the command-line
executable (mad/_bin/mad) and a console script that runs it; `pip install .` puts it on the
environment's PATH."""

import json
import os
import pathlib
import subprocess
import sys
import venv

import pytest

import mad._cli
from conftest import REFERENCE

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pair():
    ref = sorted(REFERENCE.glob("*_512.png"))[0]
    return ref, sorted(REFERENCE.glob(ref.stem + "__*.png"))[0]


def cli_json(command, pair, **kwargs):
    out = subprocess.run(command + ["score", str(pair[0]), str(pair[1]), "--json", "--backend",
                                    "cpu"], capture_output=True, text=True, **kwargs)
    # The command's own message is what says why it failed (a library it cannot load, ...).
    assert out.returncode == 0, "%s exited %d: %s" % (command, out.returncode, out.stderr)
    return json.loads(out.stdout)


def test_python_m_mad_runs_the_packaged_executable(cli, pair):
    assert os.access(mad._cli.executable(), os.X_OK)
    got = cli_json([sys.executable, "-m", "mad"], pair)
    want = cli_json([cli], pair)
    assert (got["mad"], got["hi"], got["lo"]) == (want["mad"], want["hi"], want["lo"])


def test_the_entry_point_explains_a_missing_executable(monkeypatch, capsys):
    monkeypatch.setattr(mad._cli, "executable", lambda: "/nonexistent/_bin/mad")
    assert mad._cli.main(["--help"]) == 1
    assert "not part of this installation" in capsys.readouterr().err


def test_pip_install_puts_the_mad_command_in_the_environment(tmp_path, pair):
    package = os.environ.get("MAD_PACKAGE_DIR")
    if not package:
        pytest.skip("MAD_PACKAGE_DIR not set (run through ctest)")
    for module in ("pip", "setuptools", "wheel"):
        if subprocess.run([sys.executable, "-c", "import " + module]).returncode != 0:
            pytest.skip("this Python has no " + module)
    env_dir = tmp_path / "env"
    venv.create(env_dir, system_site_packages=True, with_pip=False)
    python = env_dir / "bin" / "python"
    # The install below is --no-deps (no package index here): mad's own dependency must already
    # be visible to the environment. On the GPU machine numpy comes from PYTHONPATH, which an
    # installed command does not inherit.
    if subprocess.run([str(python), "-c", "import numpy"], env={"PATH": os.environ["PATH"]},
                      capture_output=True).returncode != 0:
        pytest.skip("numpy is not in this Python's site-packages, so a new environment lacks it")
    # The build folder this test runs from is packaged as it is (setup.py: MAD_CMAKE_BUILD_DIR),
    # so the install takes seconds instead of a second full build.
    env = dict(os.environ, MAD_CMAKE_BUILD_DIR=str(pathlib.Path(package).parents[1]))
    env.pop("PYTHONPATH", None)
    subprocess.run([str(python), "-m", "pip", "install", "--no-index", "--no-build-isolation",
                    "--no-deps", "-q", str(ROOT)], check=True, env=env, timeout=600,
                   cwd=tmp_path)
    command = env_dir / "bin" / "mad"
    assert command.exists()
    got = cli_json([str(command)], pair, env=env)
    code = "import mad, sys; print(mad.__file__); print(mad.score(sys.argv[1], sys.argv[2], " \
           "backend='cpu').mad)"
    lines = subprocess.run([str(python), "-c", code, str(pair[0]), str(pair[1])], env=env,
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    assert lines[0].startswith(str(env_dir)) and float(lines[1]) == got["mad"]
