"""requirements.lock pins what pyproject.toml asks for: every dependency (extras included) is
in the lock at one exact version that its range in pyproject.toml allows, and nothing in
the lock is left there by a dependency since removed. When this fails, make the lock again
(README: the pip-compile command)."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def _asked() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        lines += extra
    return [Requirement(line) for line in lines]


def _locked() -> tuple[dict[str, str], dict[str, set[str]]]:
    """name -> pinned version, and name -> the names that pull it in ('baraha' for ours)."""
    pins: dict[str, str] = {}
    via: dict[str, set[str]] = {}
    current = None
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        pin = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        if pin:
            current = canonicalize_name(pin[1])
            pins[current] = pin[2]
            via[current] = set()
            continue
        by = re.match(r"^\s+#\s+(?:via\s+)?([A-Za-z0-9_.\-]+)", line)
        if by and current and by[1] != "via":
            via[current].add(canonicalize_name(by[1]))
    return pins, via


def test_every_dependency_is_locked_at_a_version_pyproject_allows():
    pins, _ = _locked()
    wrong = []
    for req in _asked():
        name = canonicalize_name(req.name)
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue        # not for this platform (gunicorn on Windows)
        if name not in pins:
            wrong.append(f"{req.name} is not in requirements.lock")
        elif not req.specifier.contains(pins[name], prereleases=True):
            wrong.append(f"{req.name}: the lock pins {pins[name]}, pyproject.toml asks {req.specifier}")
    assert not wrong, "\n".join(wrong)


def test_nothing_is_locked_that_no_dependency_needs():
    pins, via = _locked()
    asked = {canonicalize_name(r.name) for r in _asked()}
    stray = [name for name, by in via.items()
             if "baraha" in by and name not in asked and not (by - {"baraha"})]
    assert not stray, f"locked for pyproject.toml but no longer asked there: {stray}"


def test_every_pin_is_exact():
    lines = [line for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
             if line and not line.lstrip().startswith("#")]
    assert lines and all(re.match(r"^[A-Za-z0-9_.\-]+==\S+", line) for line in lines), \
        [line for line in lines if "==" not in line]
