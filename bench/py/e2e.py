"""Run a command a few times; report its median wall time and the peak RSS of
the child process (from wait4), as one JSON line.

    e2e.py --peer NAME --what TEXT [--repeat N] [--map-json KEY] -- CMD ARGS...

With --map-json the command's stdout is parsed as JSON and the value under
measures.KEY is reported as the MAP.
"""
import argparse
import json
import os
import sys
import time


def run_wait4(cmd):
    """Wall time, exit code, stdout and peak RSS (KiB) of one run."""
    t = time.perf_counter()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(r)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status, ru = os.wait4(pid, 0)
    return time.perf_counter() - t, os.waitstatus_to_exitcode(status), b"".join(chunks), ru.ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer", required=True)
    ap.add_argument("--what", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--map-json")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    times, rss, out = [], [], b""
    for _ in range(a.repeat):
        sec, code, out, maxrss = run_wait4(cmd)
        if code != 0:
            print(f"e2e: {' '.join(cmd)} exited {code}", file=sys.stderr)
            sys.exit(1)
        times.append(sec)
        rss.append(maxrss / 1024.0)
    res = {"peer": a.peer, "what": a.what, "seconds": sorted(times)[len(times) // 2], "runs": times,
           "peak_rss_mib": round(max(rss), 1)}
    if a.map_json:
        res["map"] = json.loads(out)["measures"][a.map_json]
    print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
