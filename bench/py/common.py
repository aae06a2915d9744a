"""Shared helpers of the Python peers: timing, peak RSS and one JSON line per result."""
import json
import resource
import sys
import time


def peak_rss_mib():
    """Peak resident set size of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def emit(**fields):
    """Print one result as a JSON line on stdout."""
    fields.setdefault("peak_rss_mib", round(peak_rss_mib(), 1))
    print(json.dumps(fields), flush=True)


def timed(fn, repeat=1):
    """Run fn repeat times; return (median seconds, all seconds, last result)."""
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    s = sorted(times)
    return s[len(s) // 2], times, out


def log(*a):
    print(*a, file=sys.stderr, flush=True)
