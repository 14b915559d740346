"""Builds the extension mad._mad through the project's CMake (target _mad) and packages it with
tools/python/mad. Used by pyproject.toml; CMAKE_ARGS (space-separated) reaches the configure,
e.g. CMAKE_ARGS="-DMAD_ENABLE_CUDA=OFF"."""

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
        build = Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DMAD_PYTHON=ON", "-DMAD_BUILD_TESTS=OFF", "-DMAD_BUILD_BENCHMARKS=OFF",
                     "-DPython3_EXECUTABLE=" + sys.executable]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.check_call(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.check_call(["cmake", "--build", str(build), "--target", "_mad", "-j", jobs])
        built = next((build / "python" / "mad").glob("_mad*" + (".so" if os.name != "nt" else ".pyd")))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


setup(
    packages=["mad"],
    package_dir={"mad": "tools/python/mad"},
    ext_modules=[Extension("mad._mad", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Away from build/, the CMake build folder README.md's commands use.
    options={"build": {"build_base": "build-pip"}},
)
