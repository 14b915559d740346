"""Builds the extension mad._mad and the command-line executable `mad` through the project's
CMake (targets _mad and mad) and packages both with tools/python/mad: the executable goes to
mad/_bin/mad, which pyproject.toml's console script `mad` (mad/_cli.py) runs. Used by
pyproject.toml; CMAKE_ARGS (space-separated) reaches the configure, e.g.
CMAKE_ARGS="-DMAD_ENABLE_CUDA=OFF". MAD_CMAKE_BUILD_DIR=<folder> packages an already configured
build folder instead (built there, not reconfigured: tests/python/test_install.py uses it)."""

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        given = os.environ.get("MAD_CMAKE_BUILD_DIR")
        build = Path(given).resolve() if given else Path(self.build_temp).resolve() / "cmake"
        if not given:
            self.configure(build)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.check_call(["cmake", "--build", str(build), "--target", "_mad", "mad", "-j", jobs])
        built = next((build / "python" / "mad").glob("_mad*" + (".so" if os.name != "nt" else ".pyd")))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)
        (target.parent / "_bin").mkdir(exist_ok=True)
        shutil.copy2(build / "bin" / "mad", target.parent / "_bin" / "mad")

    @staticmethod
    def configure(build):
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DMAD_PYTHON=ON", "-DMAD_BUILD_TESTS=OFF", "-DMAD_BUILD_BENCHMARKS=OFF",
                     "-DPython3_EXECUTABLE=" + sys.executable]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.check_call(configure)


setup(
    packages=["mad"],
    package_dir={"mad": "tools/python/mad"},
    ext_modules=[Extension("mad._mad", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Away from build/, the CMake build folder README.md's commands use.
    options={"build": {"build_base": "build-pip"}},
)
