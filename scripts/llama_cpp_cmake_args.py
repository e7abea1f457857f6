"""Print the CMAKE_ARGS that build llama-cpp-python for the CPU this runs on.

A native llama.cpp build (GGML_NATIVE=ON) enables every instruction set the CPU
reports. Some virtual machines report AMX but fault on AMX tile instructions
(SIGILL), so we turn native detection off, enable only the x86 extensions that
/proc/cpuinfo lists, and never enable AMX.
"""

from __future__ import annotations

import platform
import sys
from pathlib import Path

# GGML option -> the /proc/cpuinfo flag that must be present for it.
X86_OPTIONS = {
    "GGML_AVX": "avx",
    "GGML_AVX2": "avx2",
    "GGML_FMA": "fma",
    "GGML_F16C": "f16c",
    "GGML_BMI2": "bmi2",
    "GGML_AVX512": "avx512f",
    "GGML_AVX512_VNNI": "avx512_vnni",
}
# VBMI and BF16 kernels gain little for a 135M model and are left off, so the
# build matches the set of extensions verified on the AMX-faulting machines.
NEVER = ("GGML_AMX_TILE", "GGML_AMX_INT8", "GGML_AMX_BF16")


def cpu_flags(cpuinfo: str) -> set[str]:
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def cmake_args(machine: str, cpuinfo: str) -> str:
    if machine.lower() not in {"x86_64", "amd64"}:
        return ""  # ARM and others: llama.cpp's defaults are safe there.
    flags = cpu_flags(cpuinfo)
    args = ["-DGGML_NATIVE=OFF"]
    args += [f"-D{opt}={'ON' if flag in flags else 'OFF'}" for opt, flag in X86_OPTIONS.items()]
    args += [f"-D{opt}=OFF" for opt in NEVER]
    return " ".join(args)


if __name__ == "__main__":
    info = Path("/proc/cpuinfo")
    sys.stdout.write(cmake_args(platform.machine(), info.read_text() if info.exists() else "") + "\n")
