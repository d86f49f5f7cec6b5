"""The machine's details, printed with every benchmark so numbers can be compared."""
from __future__ import annotations

import os
import platform


def machine() -> dict:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "system": platform.platform(), "cpu": cpu, "cores": os.cpu_count()}
