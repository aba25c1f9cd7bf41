#!/usr/bin/env python3
"""Tables from the benchmark output of bench/run (standard library only).

    bench/report.py [DIR]

Reads DIR/raw-KERNEL.txt (DIR defaults to build/bench), the output of
bench/workloads.sh on each kernel, and writes into DIR:
  results.json  one record per workload, variant, kernel and metric with every
                repetition, median, min and max; a failed fio run is a record
                with an "error" field instead
  report.md     base against patched, ratios to the reference workloads, the
                set-ups, fio command lines and kernels
  report.svg    a bar chart of the patched/base and stacked/raw IOPS ratios
"""
import glob
import json
import os
import statistics
import sys
import time

METRICS = ("iops", "ctx_per_io", "all_ctx_per_io", "avg_lat_us", "p99_lat_us",
           "usr_cpu", "sys_cpu")


def metrics(fio, extra):
    """The metrics of one fio run, from its JSON (one job: group_reporting)
    and the cs= (context switches on all CPUs) and secs= (wall time) that
    bench/workloads.sh measured around it, when it did (older raw files:
    not)."""
    job = fio["jobs"][0]
    rd, wr = job["read"], job["write"]
    ios = rd["total_ios"] + wr["total_ios"]
    side = rd if rd["total_ios"] else wr
    p99 = side["clat_ns"].get("percentile", {}).get("99.000000")
    iops = rd["iops"] + wr["iops"]
    try:
        all_cs = int(extra["cs"]) / float(extra["secs"]) / iops
    except (KeyError, ValueError, ZeroDivisionError):
        all_cs = None
    return {
        "iops": iops,
        # with --thread, fio counts the context switches per job
        "ctx_per_io": job["ctx"] / ios if ios else None,
        # all CPUs, per second of the whole fio command, by IOPS
        "all_ctx_per_io": all_cs,
        # submission to completion, as fio's "lat" line
        "avg_lat_us": side["lat_ns"]["mean"] / 1000 if ios else None,
        "p99_lat_us": p99 / 1000 if p99 is not None else None,
        "usr_cpu": job["usr_cpu"],
        "sys_cpu": job["sys_cpu"],
    }


class Raw:
    """One kernel's raw file: its runs, errors, set-ups and fio commands."""

    def __init__(self, path):
        self.path = path
        self.kernel = os.path.basename(path)[len("raw-"):-len(".txt")]
        self.uname, self.cpus = "?", "?"
        self.boots = 0      # bench/run -b appends one output per boot
        self.refs = {}      # workload -> reference workload or "-"
        self.lines = {}     # workload -> its BENCH-SETUP and BENCH-CMD lines
        self.runs = {}      # (workload, variant) -> [metrics of each run]
        self.errors = {}    # (workload, variant) -> message
        self.order = []     # (workload, variant) as they ran
        with open(path, errors="replace") as f:
            for line in f:
                self.line(line.rstrip("\r\n"))

    def add(self, key):
        if key not in self.order:
            self.order.append(key)

    def line(self, line):
        tag, _, rest = line.partition(" ")
        f = rest.split(" ")
        if tag == "BENCH-KERNEL":
            self.uname, self.cpus = f[0], " ".join(f[1:])
            self.boots += 1
        elif tag == "BENCH-SETUP" and len(f) >= 2:
            self.refs[f[0]] = f[1]
            self.lines.setdefault(f[0], []).append(line)
        elif tag == "BENCH-CMD" and len(f) >= 2:
            self.lines.setdefault(f[0], []).append(line)
            self.add((f[0], f[1]))
        elif tag == "BENCH" and len(f) >= 4:
            key = (f[0], f[1])
            self.add(key)
            text = rest.split(" ", 3)[3]
            try:
                start = text.index("{")
                extra = dict(x.split("=", 1) for x in text[:start].split() if "=" in x)
                run = metrics(json.loads(text[start:]), extra)
            except (ValueError, KeyError, IndexError, TypeError) as e:
                self.errors[key] = "unreadable fio output (%s)" % e
                return
            self.runs.setdefault(key, []).append(run)
        elif tag == "BENCH-ERR" and len(f) >= 2:
            key = (f[0], f[1])
            self.add(key)
            self.errors[key] = " ".join(f[2:]).strip() or "fio failed"


def kernel_order(name):
    return ({"base": 0, "patched": 1}.get(name, 2), name)


def results(raws):
    """The records of results.json."""
    recs = []
    for r in raws:
        for w, v in r.order:
            runs = r.runs.get((w, v), [])
            for m in METRICS:
                vals = [x[m] for x in runs if x[m] is not None]
                if vals:
                    recs.append({"workload": w, "variant": v, "kernel": r.kernel,
                                 "metric": m, "reps": vals,
                                 "median": statistics.median(vals),
                                 "min": min(vals), "max": max(vals)})
            if (w, v) in r.errors:
                recs.append({"workload": w, "variant": v, "kernel": r.kernel,
                             "error": r.errors[(w, v)]})
    return recs


def num(x):
    """A number for the tables: IOPS as 12.3k, others plain, 3 digits."""
    if x is None:
        return "–"
    if x >= 1e6:
        return "%.2fM" % (x / 1e6)
    if x >= 1e4:
        return "%.1fk" % (x / 1e3)
    if x >= 100:
        return "%.0f" % x
    return ("%.8f" % float("%.3g" % x)).rstrip("0").rstrip(".")


def us(x):
    return "–" if x is None else "{:,.0f}".format(x) if x >= 100 else "%.3g" % x


def ratio(a, b):
    return a / b if a is not None and b else None


def rstr(x):
    return "–" if x is None else "%.2f" % x


class Table:
    """Medians by (kernel, workload, variant, metric), and the ratios."""

    def __init__(self, raws, recs):
        self.kernels = [r.kernel for r in raws]
        self.refs = {}
        self.order = []
        for r in raws:
            self.refs.update(r.refs)
            self.order += [k for k in r.order if k not in self.order]
        self.rec = {(x["kernel"], x["workload"], x["variant"], x["metric"]): x
                    for x in recs if "metric" in x}
        self.err = {(x["kernel"], x["workload"], x["variant"]): x["error"]
                    for x in recs if "error" in x}
        self.both = "base" in self.kernels and "patched" in self.kernels

    def median(self, k, w, v, m):
        x = self.rec.get((k, w, v, m))
        return x["median"] if x else None

    def vs_base(self, w, v):
        return ratio(self.median("patched", w, v, "iops"),
                     self.median("base", w, v, "iops"))

    def vs_ref(self, k, w, v):
        ref = self.refs.get(w, "-")
        if ref == "-":
            return None
        return ratio(self.median(k, w, v, "iops"), self.median(k, ref, v, "iops"))

    def lat_vs_ref(self, k, w, v):
        ref = self.refs.get(w, "-")
        if ref == "-":
            return None
        return ratio(self.median(k, w, v, "avg_lat_us"),
                     self.median(k, ref, v, "avg_lat_us"))

    def iops_cell(self, k, w, v):
        x = self.rec.get((k, w, v, "iops"))
        e = self.err.get((k, w, v))
        cell = "%s (%s–%s)" % (num(x["median"]), num(x["min"]), num(x["max"])) if x else ""
        if e:
            cell += (" " if cell else "") + "**error:** " + e.replace("|", "\\|")
        return cell or "–"

    def per_kernel(self, w, v, m, fmt=num):
        return " / ".join(fmt(self.median(k, w, v, m)) for k in self.kernels)


def markdown(t, raws):
    ks = t.kernels
    reps = max((len(x["reps"]) for x in t.rec.values()), default=0)
    boots = max((r.boots for r in raws), default=1)
    pooled = (" (%d boots of each kernel, in alternating order, pooled)" % boots
              if boots > 1 else "")
    out = ["# blkfast benchmark: %s" % " vs ".join(ks), "",
           "Medians of %d fio runs per cell%s, min–max in brackets. *ref*: the "
           "workload compared with (no stacking layer, or scheduler none); "
           "*/ref* is the IOPS ratio to it within the same kernel boot, *lat/ref* "
           "the ratio of mean latencies. *ctx/IO fio*: context switches of "
           "fio's threads per I/O; *ctx/IO all*: context switches on all CPUs "
           "(kernel threads too) per second of the whole fio command (start-up "
           "and ramp included), divided by its IOPS. The ctx/IO columns, mean "
           "latency and p99 are given as %s." % (reps, pooled, " / ".join(ks)), ""]
    head = ["workload", "variant", "ref"] + ["%s IOPS" % k for k in ks]
    if t.both:
        head.append("patched/base")
    head += ["/ref %s" % k for k in ks] + ["lat/ref %s" % k for k in ks]
    head += ["ctx/IO fio", "ctx/IO all", "mean µs", "p99 µs"]
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for w, v in t.order:
        row = [w, v, t.refs.get(w, "-")] + [t.iops_cell(k, w, v) for k in ks]
        if t.both:
            row.append(rstr(t.vs_base(w, v)))
        row += [rstr(t.vs_ref(k, w, v)) for k in ks]
        row += [rstr(t.lat_vs_ref(k, w, v)) for k in ks]
        row += [t.per_kernel(w, v, "ctx_per_io"), t.per_kernel(w, v, "all_ctx_per_io"),
                t.per_kernel(w, v, "avg_lat_us", us),
                t.per_kernel(w, v, "p99_lat_us", us)]
        out.append("| " + " | ".join(row) + " |")

    out += ["", "## Set-ups and fio command lines", "",
            "As the guest printed them; every run adds --output-format=json.", ""]
    for w in dict.fromkeys(w for w, _ in t.order):
        lines = []
        for r in raws:
            lines += [x for x in r.lines.get(w, []) if x not in lines]
        out += ["### %s" % w, "", "```"] + lines + ["```", ""]

    out += ["## Kernels", ""]
    for r in raws:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(r.path)))
        out.append("- %s: `%s` (%s), %d boot%s, last run finished %s (%s)"
                   % (r.kernel, r.uname, r.cpus, r.boots, "" if r.boots == 1 else "s",
                      when, os.path.basename(r.path)))
    out += ["", "Report written %s." % time.strftime("%Y-%m-%d %H:%M:%S %Z"), "",
            "Note: under QEMU TCG (software emulation) absolute figures swing "
            "by ±20% from one boot to the next. Only ratios within one boot "
            "(the /ref columns) and medians count. patched/base compares "
            "two boots and moves by as much.", ""]
    return "\n".join(out)


def svg(t):
    """Horizontal bars: per workload-variant the patched/base ratio and the
    stacked/raw (/ref) ratio of each kernel, with a line at 1.0."""
    series = ([("patched/base", "#4477aa", t.vs_base)] if t.both else [])
    colors = ["#ee6677", "#228833", "#ccbb44"]
    for k in t.kernels:
        series.append(("stacked/raw %s" % k, colors[kernel_order(k)[0]],
                       lambda w, v, k=k: t.vs_ref(k, w, v)))
    failed = lambda w, v: any((k, w, v) in t.err for k in t.kernels)
    bars = lambda w, v: any(f(w, v) is not None for _, _, f in series)
    rows = [(w, v) for w, v in t.order if failed(w, v) or bars(w, v)]
    vals = [f(w, v) for w, v in rows for _, _, f in series]
    xmax = max([1.5] + [x * 1.1 for x in vals if x is not None])
    bar, gap, left, width, top = 11, 10, 210, 460, 50
    rowh = bar * len(series) + gap
    height = top + rowh * len(rows) + 30
    X = lambda x: left + width * x / xmax
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (left + width + 60, height),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="10" y="18" font-size="14">blkfast: IOPS ratios (medians)</text>']
    for i, (name, color, _) in enumerate(series):
        x = 10 + 150 * i
        o.append('<rect x="%d" y="28" width="10" height="10" fill="%s"/>'
                 '<text x="%d" y="37">%s</text>' % (x, color, x + 14, name))
    bottom = top + rowh * len(rows)
    tick = 0.0
    while tick <= xmax:
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>'
                 '<text x="%.1f" y="%d" text-anchor="middle">%.1f</text>'
                 % (X(tick), top - 4, X(tick), bottom, X(tick), bottom + 14, tick))
        tick += 0.5
    y = top
    for w, v in rows:
        o.append('<text x="%d" y="%d" text-anchor="end">%s %s</text>'
                 % (left - 6, y + rowh / 2, w, v))
        if not bars(w, v):
            o.append('<text x="%d" y="%d" fill="#888">(fio failed on a kernel)</text>'
                     % (left + 4, y + rowh / 2))
        for j, (_, color, f) in enumerate(series):
            x, by = f(w, v), y + j * bar
            if x is None:
                continue
            o.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>'
                     '<text x="%.1f" y="%d" font-size="9">%.2f</text>'
                     % (left, by, X(x) - left, bar - 1, color, X(x) + 3, by + bar - 2, x))
        y += rowh
    o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" '
             'stroke-dasharray="4,3"/>' % (X(1), top - 6, X(1), bottom + 2))
    o.append("</svg>")
    return "\n".join(o) + "\n"


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "build", "bench")
    paths = glob.glob(os.path.join(d, "raw-*.txt"))
    if not paths:
        sys.exit("report.py: no raw-*.txt in %s" % d)
    raws = sorted((Raw(p) for p in paths), key=lambda r: kernel_order(r.kernel))
    recs = results(raws)
    t = Table(raws, recs)
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(recs, f, indent=1)
        f.write("\n")
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write(markdown(t, raws))
    with open(os.path.join(d, "report.svg"), "w") as f:
        f.write(svg(t))


if __name__ == "__main__":
    main()
