"""CPU time of server processes, read from /proc: what the bench scripts compare."""
import os
import subprocess


def cpu_seconds(pids):
    """User + system CPU time of processes so far (Linux /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def children(pid):
    """The direct children of `pid` (forked workers)."""
    out = subprocess.run(["ps", "--ppid", str(pid), "-o", "pid="], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]
