#!/usr/bin/env python3
"""Turn the BENCH-PROFILE lines of bench/workloads.sh into the kernel
functions with the most samples, per workload and variant.

    bench/profile.py [-n TOP] RAW System.map

RAW is the guest output; System.map that of the kernel it ran. Each
BENCH-PROFILE line holds the profile step (bytes per counter) and
INDEX:HITS pairs, INDEX counting steps from _stext. Samples are also
given per 1000 I/Os that fio counted in the same variant's runs, which
compares set-ups and kernels; the samples include fio's ramp second,
whose I/Os fio does not count, so compare runs of the same length.
"""
import argparse
import bisect
import json
from collections import Counter


# where an idle CPU's ticks land (QEMU guests: default_idle)
IDLE = ("default_idle", "default_idle_call", "acpi_safe_halt", "acpi_idle_do_entry",
        "mwait_idle_with_hints", "intel_idle", "poll_idle", "cpu_idle_poll")


def text_symbols(path):
    syms = []
    for line in open(path):
        f = line.split()
        if len(f) >= 3 and f[1] in "tTwW":
            syms.append((int(f[0], 16), f[2]))
    syms.sort()
    stext = next(a for a, n in syms if n == "_stext")
    return stext, [a for a, _ in syms], [n for _, n in syms]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=25)
    ap.add_argument("raw")
    ap.add_argument("sysmap")
    a = ap.parse_args()
    stext, addrs, names = text_symbols(a.sysmap)
    ios = Counter()
    for line in open(a.raw, errors="replace"):
        f = line.split(" ", 4)
        if len(f) == 5 and f[0] == "BENCH":
            try:
                job = json.loads(f[4][f[4].index("{"):])["jobs"][0]
                ios[f[1], f[2]] += job["read"]["total_ios"] + job["write"]["total_ios"]
            except (ValueError, KeyError, IndexError):
                pass
            continue
        f = line.split()
        if len(f) < 4 or f[0] != "BENCH-PROFILE":
            continue
        name, variant, step = f[1], f[2], int(f[3])
        hits = Counter()
        for pair in f[4:]:
            i, n = pair.split(":")
            pc = stext + int(i) * step
            hits[names[max(bisect.bisect_right(addrs, pc) - 1, 0)]] += int(n)
        total = sum(hits.values())
        busy = total - sum(hits[fn] for fn in IDLE)
        n_io = ios[name, variant]
        per_kio = (lambda n: "%8.3f" % (1000.0 * n / n_io)) if n_io else (lambda n: "       -")
        print("%s %s: %d kernel samples, %d outside the idle loop, %d I/Os, "
              "%s busy samples per 1000 I/Os"
              % (name, variant, total, busy, n_io, per_kio(busy).strip()))
        print("       %  samples  per kI/O  function")
        for fn, n in hits.most_common(a.n):
            print("  %5.1f%%  %7d  %s  %s" % (100.0 * n / total, n, per_kio(n), fn))
        ios[name, variant] = 0
        print()


if __name__ == "__main__":
    main()
