"""The package's PEP 517 build backend (pyproject.toml): writes the wheel
itself, so `pip install ./python` needs nothing from the network.

The wheel holds python/nxemu and a generated nxemu/_paths.py naming the
source tree it came from and its build folder, so that the installed package
finds that build's libnxemu.so without any environment variable.  The build
folder is the `build-dir` config setting (pip --config-settings
build-dir=DIR), else $NXEMU_BUILD_DIR, else SOURCE/build.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(HERE)


def _meta():
    with open(os.path.join(HERE, "pyproject.toml")) as f:
        text = f.read()
    get = lambda key: re.search(rf'^{key}\s*=\s*"([^"]*)"', text, re.M).group(1)  # noqa: E731
    return get("name"), get("version"), get("description"), get("requires-python")


def _metadata():
    name, version, desc, req = _meta()
    with open(os.path.join(HERE, "README.txt")) as f:
        readme = f.read()
    return (f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {desc}\n"
            f"Requires-Python: {req}\nDescription-Content-Type: text/plain\n\n{readme}")


def _paths_py(config_settings):
    build = (config_settings or {}).get("build-dir") or os.environ.get("NXEMU_BUILD_DIR")
    dirs = [os.path.abspath(build)] if build else []
    default = os.path.join(ROOT, "build")
    if default not in dirs:
        dirs.append(default)
    return ("# Written by `pip install` (python/nxemu_build.py): the source tree this\n"
            "# package came from and its build folders, searched for libnxemu.so.\n"
            "REL_LIBRARY = None\nLIBRARY = None\n"
            f"SOURCE_ROOT = {ROOT!r}\nBUILD_DIRS = {dirs!r}\n")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}\n"


def _write_wheel(wheel_directory, files):
    name, version, _, _ = _meta()
    dist = f"{name}-{version}.dist-info"
    files = dict(files)
    files[f"{dist}/METADATA"] = _metadata().encode()
    files[f"{dist}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: nxemu_build\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = "".join(_record_line(k, v) for k, v in files.items()) + f"{dist}/RECORD,,\n"
    files[f"{dist}/RECORD"] = record.encode()
    wheel = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in files.items():
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, data, zipfile.ZIP_DEFLATED)
    return wheel


def _package_files():
    out = {}
    pkg = os.path.join(HERE, "nxemu")
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith(".py") and fn != "_paths.py":
            with open(os.path.join(pkg, fn), "rb") as f:
                out[f"nxemu/{fn}"] = f.read()
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = _package_files()
    files["nxemu/_paths.py"] = _paths_py(config_settings).encode()
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # the source folder itself on sys.path: edits take effect at once, and
    # the package finds ../build by itself (nxemu/__init__.py)
    return _write_wheel(wheel_directory, {"nxemu-editable.pth": (HERE + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    name, version, _, _ = _meta()
    base = f"{name}-{version}"
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz") as t:
        for rel in ["pyproject.toml", "nxemu_build.py", "README.txt"] + \
                list(_package_files()):
            t.add(os.path.join(HERE, rel), arcname=f"{base}/{rel}")
        data = _metadata().encode()
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return base + ".tar.gz"
