"""CPU time of server processes, read from /proc: what the bench scripts compare; and stopping them."""
import os
import signal
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


def stop(processes, sig=signal.SIGTERM, timeout=15):
    """Sends `sig` to every process still running, then SIGKILL to those not
    stopped within `timeout` seconds each."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(sig)
    for process in processes:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
