"""pip install . : the Python module lanescope, built through CMake (python/CMakeLists.txt).

Offline on Debian 12: `pip install . --no-build-isolation` (python3-setuptools, python3-wheel;
the C++ build needs scripts/packages/core.txt, figures.txt and python.txt). The CMake build
folder is build-pip/ (LANESCOPE_PIP_BUILD_DIR overrides it); the interpreter is the one pip runs.
"""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("LANESCOPE_PIP_BUILD_DIR", os.path.join(ROOT, "build-pip"))
        configure = ["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release", f"-DLANESCOPE_PYTHON3={sys.executable}",
                     "-DLANESCOPE_BUILD_APP=OFF", "-DLANESCOPE_BUILD_GPU=OFF", "-DLANESCOPE_BUILD_TESTS=OFF"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", build, "--target", "lanescope_python"], check=True)
        built = glob.glob(os.path.join(build, "python", "lanescope", "_core*.so"))
        if not built:
            raise RuntimeError(f"the CMake build in {build} made no lanescope/_core*.so")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    name="lanescope",
    version="0.1.0",
    description="Where every element of a GPU matrix instruction lives (lane, register, bits), as numpy arrays",
    packages=["lanescope"],
    package_dir={"": "python"},
    package_data={"lanescope": ["__init__.pyi", "py.typed"]},
    ext_modules=[Extension("lanescope._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    install_requires=["numpy"],
    python_requires=">=3.9",
    zip_safe=False,
    options={"build": {"build_base": os.path.join("build-pip", "setuptools")}},  # not the CMake folder build/
)
