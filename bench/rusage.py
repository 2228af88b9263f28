"""Runs processes one after another and prints, per run, its wall time and the CPU time (user +
system, all its threads) the kernel charged it, in ms: bench/node-lines.mjs's timer. CPU time
stays meaningful on a machine whose other load stretches wall time (os.wait4 gives it per child).
Reads a JSON list of {"cmd": [...], "env": {...}, "cwd": "..."} on stdin; writes a JSON list."""
import json, os, subprocess, sys, time

out = []
for run in json.load(sys.stdin):
    t0 = time.perf_counter()
    p = subprocess.Popen(run["cmd"], env=run["env"], cwd=run.get("cwd"), stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = (time.perf_counter() - t0) * 1000
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write(f"{' '.join(run['cmd'])} exited {code}: {err.decode(errors='replace')}\n")
        sys.exit(1)
    out.append({"wall": wall, "cpu": (ru.ru_utime + ru.ru_stime) * 1000})
json.dump(out, sys.stdout)
