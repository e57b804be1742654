"""A PEP 517 build backend that packs an already-built `cake` package into a wheel, so that
`python3 -m pip install <build or install dir>/python_packages` installs it (docs/Embedding-Python.md).

Nothing is compiled here (CMake built the extension) and nothing is required beyond the standard
library, so pip needs no network and no setuptools or wheel. The wheel holds cake/ as it is plus
what the package finds beside python_packages in a build tree or an install prefix:
lib/libCakeCAPI.so (its extension's dependency) and share/cake/profiles (the cost model's hardware
profiles), under cake/lib and cake/share/cake/profiles: cake/__init__.py loads that library first,
and the library finds those profiles as it does in a prefix (<lib>/../share/cake/profiles). The
LLVM/MLIR shared libraries stay where the build found them (the extension's and the library's
rpath); the wheel is for this machine, not for redistribution.
"""
import base64
import hashlib
import importlib.machinery
import os
import sys
import sysconfig
import zipfile

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

PACKAGE = "cake"
HERE = os.path.dirname(os.path.abspath(__file__))
# What the package carries from beside python_packages: (folder in the wheel, folder beside
# python_packages, its files or None for all of them).
CARRIED = [("cake/lib", "lib", ["libCakeCAPI.so"]),
           ("cake/share/cake/profiles", "share/cake/profiles", None)]


def _project():
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _dist_info():
    project = _project()
    return f"{project['name']}-{project['version']}.dist-info"


def _check_extension(names):
    """Fails early (not at import) when the extension was built for another Python: it must have a
    name this Python imports."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    if not any("_cake" + suffix in names for suffix in suffixes):
        built = [n for n in names if n.startswith("_cake.")] or ["no _cake extension"]
        raise RuntimeError(f"{', '.join(built)} in {HERE}/cake is not an extension for this Python "
                           f"({sys.executable}, {suffixes[0]}): build CAKE with this python3 "
                           "(scripts/build.sh uses the one on PATH) or install with that one")


def _tag():
    """The running CPython's tag: pip builds with the interpreter it installs for, and the
    extension must have been built for that one too."""
    if sys.implementation.name != "cpython":
        raise RuntimeError("the cake extension is built for CPython")
    _check_extension(os.listdir(os.path.join(HERE, PACKAGE)))
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    return f"{python}-{python}-{sysconfig.get_platform().replace('-', '_').replace('.', '_')}"


def _metadata_files():
    """{dist-info file name: text}."""
    project = _project()
    metadata = ["Metadata-Version: 2.1", f"Name: {project['name']}",
                f"Version: {project['version']}"]
    if "description" in project:
        metadata.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        metadata.append(f"Requires-Python: {project['requires-python']}")
    wheel = ["Wheel-Version: 1.0", "Generator: cake_wheel", "Root-Is-Purelib: false",
             f"Tag: {_tag()}"]
    return {"METADATA": "\n".join(metadata) + "\n", "WHEEL": "\n".join(wheel) + "\n"}


def _package_files():
    """[(path in the wheel, source path)]: cake/ without caches, then the carried files."""
    files = []
    package = os.path.join(HERE, PACKAGE)
    for root, dirs, names in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if not name.endswith(".pyc"):
                src = os.path.join(root, name)
                files.append((os.path.relpath(src, HERE).replace(os.sep, "/"), src))
    for dest, beside, names in CARRIED:
        src_dir = os.path.join(HERE, os.pardir, *beside.split("/"))
        files += [(f"{dest}/{name}", os.path.join(src_dir, name))
                  for name in names or sorted(os.listdir(src_dir))]
    return files


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    name = f"{project['name']}-{project['version']}-{_tag()}.whl"
    dist_info = _dist_info()
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as whl:
        for path, src in _package_files():
            whl.write(src, path)  # keeps the file's mode (the shared objects stay executable)
            with open(src, "rb") as f:
                record.append(_record_line(path, f.read()))
        for file, text in _metadata_files().items():
            path = f"{dist_info}/{file}"
            whl.writestr(path, text)
            record.append(_record_line(path, text.encode()))
        record.append(f"{dist_info}/RECORD,,")
        whl.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")
    return name


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The dist-info alone, so that pip reads the metadata without packing the libraries twice."""
    dist_info = _dist_info()
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    for file, text in _metadata_files().items():
        with open(os.path.join(metadata_directory, dist_info, file), "w") as f:
            f.write(text)
    return dist_info
