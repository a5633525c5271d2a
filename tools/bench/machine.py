"""Where a run's time goes: each process's CPU per command, and what the machine did meanwhile."""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any

from tools.launcher import Stack


def cpu_seconds(pid: int, children: bool = True) -> float:
    """User + system CPU time of a process and (``children``) its waited-for ones (uvicorn
    workers)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(x) for x in fields[11 : 15 if children else 13])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def rss_mb(pid: int) -> float:
    return round(kb / 1024, 1) if (kb := rss_kb(pid)) else float("nan")


def described() -> str:
    """This machine: its cores, its CPU model and this Python."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}, Python {platform.python_version()}"


def load_average() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def stack_pids(stack: Stack) -> dict[str, int]:
    pids = {name: proc.pid for name, proc in stack.procs.items()}
    pids.update({name: s.proc.pid for name, s in stack.servers.items()})
    return pids


def machine_ticks() -> tuple[int, int, int]:
    """(busy, stolen, all) clock ticks of every core since boot (``/proc/stat``). Stolen: time a
    virtual machine's core was ready to run but its host ran something else."""
    first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in first[1:9])
    every = user + nice + system + idle + iowait + irq + softirq + steal  # guest is in user
    return every - idle - iowait - steal, steal, every


def machine_during(before: tuple[int, int, int], measured_ms: float, commands: int) -> dict:
    """What the machine did during a run besides what it measures: its cores' busy and stolen
    shares, and the CPU of processes other than the stack's and the load generator's, per
    command. A run on a machine that lent its cores elsewhere (stolen) or ran something else
    reads slower through no fault of the code: this says so beside each figure. Coarse: the
    machine's figures are the kernel's tick counts and the processes' their own accounting, which
    differ by up to about a tenth (so small "others" read as 0)."""
    busy, steal, every = (a - b for a, b in zip(machine_ticks(), before, strict=True))
    hz = os.sysconf("SC_CLK_TCK")
    return {
        "busy_share": round(busy / every, 3) if every else None,
        "stolen_share": round(steal / every, 3) if every else None,
        "others_cpu_ms_per_command": round(
            max(0.0, busy * 1000 / hz - measured_ms) / max(1, commands), 3
        ),
    }


def with_cpu(stack: Stack, run: Any) -> dict:
    """``run()``'s summary with each process's CPU milliseconds per command (where the time
    goes: a figure that a busy machine stretches far less than wall-clock times), and what the
    machine did meanwhile (``machine_during``)."""
    pids = stack_pids(stack)
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    me = os.times()
    ticks = machine_ticks()
    result = run()
    mine = os.times()
    spent = {name: (cpu_seconds(pid) - before[name]) * 1000 for name, pid in pids.items()}
    spent["load_generator"] = (mine.user + mine.system - me.user - me.system) * 1000
    n = max(1, result.get("commands", 0))
    per = {name: round(ms / n, 3) for name, ms in spent.items()}
    per["total"] = round(sum(per.values()), 3)
    result["cpu_ms_per_command"] = per
    result["machine"] = machine_during(ticks, sum(spent.values()), n)
    return result
