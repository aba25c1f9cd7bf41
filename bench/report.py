#!/usr/bin/env python3
"""Tables from the benchmark output of bench/run (standard library only).

    bench/report.py [DIR]

Reads DIR/raw-KERNEL.txt (DIR defaults to build/$BASE/bench; BASE, like the
Makefile's, to its "export BASE ?=" line), the output of bench/workloads.sh
on each kernel (with bench/run's BENCH-HOST lines), and
writes into DIR:
  results.json  one record per workload, variant, kernel and metric with every
                repetition and its boot and round, median, min and max; a
                failed fio run is a record with an "error" field instead
  report.md     base against patched, ratios to the reference workloads, the
                set-ups, fio command lines, kernels and environment
  report.svg    a bar chart of the patched/base and stacked/raw IOPS ratios

Ratios are paired, not pooled: stacked/raw per boot and round, patched/base
per pair of boots (see pooling()).
"""
import glob
import json
import os
import re
import statistics
import sys
import time

METRICS = ("iops", "ctx_per_io", "all_ctx_per_io", "avg_lat_us", "p99_lat_us",
           "usr_cpu", "sys_cpu", "polls_per_io")


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
    try:
        # ->poll calls on the null_blk devices per I/O of the device under
        # test, both over the whole fio command (kernels with poll_stats)
        polls = int(extra["polls"]) / int(extra["ios"])
    except (KeyError, ValueError, ZeroDivisionError):
        polls = None
    return {
        "iops": iops,
        # with --thread, fio counts the context switches per job
        "ctx_per_io": job["ctx"] / ios if ios else None,
        # all CPUs, per second of the whole fio command, by IOPS
        "all_ctx_per_io": all_cs,
        # mean and p99 of one distribution: fio's completion latency (clat,
        # the only one with percentiles by default)
        "avg_lat_us": side["clat_ns"]["mean"] / 1000 if ios else None,
        "p99_lat_us": p99 / 1000 if p99 is not None else None,
        "usr_cpu": job["usr_cpu"],
        "sys_cpu": job["sys_cpu"],
        "polls_per_io": polls,
    }


class Raw:
    """One kernel's raw file: its runs, errors, set-ups, fio commands and
    environment. bench/run -b appends one guest output per boot, each
    starting with BENCH-KERNEL: a boot here is one such part of the file
    (1, 2, ...), labelled with the boot= of its lines when they have one."""

    def __init__(self, path):
        self.path = path
        self.kernel = os.path.basename(path)[len("raw-"):-len(".txt")]
        self.uname, self.cpus = "?", "?"
        self.boots = 0      # BENCH-KERNEL lines so far
        self.label = {}     # boot -> the session's boot number (bench/run -B)
        self.guessed = False  # lines without round= (older workloads.sh)
        self.setups = {}    # (boot, workload) -> BENCH-SETUP lines: its round
        self.env = {}       # BENCH-ENV key -> values, in order
        self.host = {}      # BENCH-HOST key -> values, in order
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

    def where(self, w, extra):
        """(boot, round) of a result line; older lines have no round=: it
        is then the number of set-ups of the workload so far in the boot."""
        boot = max(self.boots, 1)
        if "boot" in extra:
            b = extra["boot"]
            self.label.setdefault(boot, int(b) if b.isdigit() else b)
        if "round" in extra:
            return boot, int(extra["round"])
        self.guessed = True
        return boot, max(self.setups.get((boot, w), 0), 1)

    def line(self, line):
        tag, _, rest = line.partition(" ")
        f = rest.split(" ")
        if tag == "BENCH-KERNEL":
            self.uname, self.cpus = f[0], " ".join(f[1:])
            self.boots += 1
        elif tag in ("BENCH-ENV", "BENCH-HOST") and len(f) >= 2:
            d = self.env if tag == "BENCH-ENV" else self.host
            vals = d.setdefault(f[0], [])
            value = " ".join(f[1:]).strip()
            if value not in vals:
                vals.append(value)
        elif tag == "BENCH-SETUP" and len(f) >= 2:
            self.refs[f[0]] = f[1]
            self.lines.setdefault(f[0], []).append(line)
            key = (max(self.boots, 1), f[0])
            self.setups[key] = self.setups.get(key, 0) + 1
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
                run["boot"], run["round"] = self.where(f[0], extra)
            except (ValueError, KeyError, IndexError, TypeError) as e:
                self.errors[key] = "unreadable fio output (%s)" % e
                return
            self.runs.setdefault(key, []).append(run)
        elif tag == "BENCH-ERR" and len(f) >= 2:
            key = (f[0], f[1])
            self.add(key)
            msg, at = f[2:], []
            while msg and msg[0].split("=")[0] in ("boot", "round"):
                at.append(msg[0].replace("=", " "))
                msg = msg[1:]
            text = " ".join(msg).strip() or "fio failed"
            self.errors[key] = text + (" (%s)" % ", ".join(at) if at else "")

    def boot_name(self, b):
        return self.label.get(b, b)

    def rounds_run(self):
        """The (boot, round) pairs with a run."""
        return {(x["boot"], x["round"]) for rs in self.runs.values() for x in rs}

    def shape(self):
        """Boots, rounds per boot and runs per round, at most."""
        rounds = max((x["round"] for rs in self.runs.values() for x in rs), default=0)
        per = {}
        for key, rs in self.runs.items():
            for x in rs:
                k = key + (x["boot"], x["round"])
                per[k] = per.get(k, 0) + 1
        return max(self.boots, 1), rounds, max(per.values(), default=0)


def kernel_order(name):
    return ({"base": 0, "patched": 1}.get(name, 2), name)


def results(raws):
    """The records of results.json."""
    recs = []
    for r in raws:
        for w, v in r.order:
            runs = r.runs.get((w, v), [])
            for m in METRICS:
                ok = [x for x in runs if x[m] is not None]
                vals = [x[m] for x in ok]
                if vals:
                    recs.append({"workload": w, "variant": v, "kernel": r.kernel,
                                 "metric": m, "reps": vals,
                                 "boot": [r.boot_name(x["boot"]) for x in ok],
                                 "round": [x["round"] for x in ok],
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


def spread(xs):
    """Median, min, max and count of the ratios that could be computed."""
    xs = [x for x in xs if x is not None]
    return (statistics.median(xs), min(xs), max(xs), len(xs)) if xs else None


def median_of(runs, m):
    vals = [x[m] for x in runs if x[m] is not None]
    return statistics.median(vals) if vals else None


def by_round(runs):
    """(boot, round) -> the runs of that round of that boot."""
    out = {}
    for x in runs:
        out.setdefault((x["boot"], x["round"]), []).append(x)
    return out


class Table:
    """Pooled medians by (kernel, workload, variant, metric), and the paired
    ratios: a ratio is a spread() of per-round or per-boot-pair ratios."""

    def __init__(self, raws, recs):
        self.raw = {r.kernel: r for r in raws}
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
        # patched/base: the k-th boot of one kernel with the k-th of the
        # other, which bench/run -b boots next to each other
        if self.both:
            nb = min(self.raw["base"].boots, self.raw["patched"].boots)
            self.boot_pairs = [(b, b) for b in range(1, nb + 1)]

    def median(self, k, w, v, m):
        x = self.rec.get((k, w, v, m))
        return x["median"] if x else None

    def runs(self, k, w, v):
        return self.raw[k].runs.get((w, v), [])

    def vs_base(self, w, v):
        base, patched = self.runs("base", w, v), self.runs("patched", w, v)
        return spread(ratio(median_of([x for x in patched if x["boot"] == p], "iops"),
                            median_of([x for x in base if x["boot"] == b], "iops"))
                      for b, p in self.boot_pairs)

    def vs_ref(self, k, w, v, m="iops"):
        ref = self.refs.get(w, "-")
        if ref == "-":
            return None
        mine, theirs = by_round(self.runs(k, w, v)), by_round(self.runs(k, ref, v))
        return spread(ratio(median_of(mine[at], m), median_of(theirs[at], m))
                      for at in mine if at in theirs)

    def vs(self, k, w, other, v):
        """IOPS of w over those of other, paired per (boot, round)."""
        mine, theirs = by_round(self.runs(k, w, v)), by_round(self.runs(k, other, v))
        return spread(ratio(median_of(mine[at], "iops"), median_of(theirs[at], "iops"))
                      for at in mine if at in theirs)

    def lat_vs_ref(self, k, w, v):
        return self.vs_ref(k, w, v, "avg_lat_us")

    def iops_cell(self, k, w, v):
        x = self.rec.get((k, w, v, "iops"))
        e = self.err.get((k, w, v))
        cell = "%s (%s–%s)" % (num(x["median"]), num(x["min"]), num(x["max"])) if x else ""
        if e:
            cell += (" " if cell else "") + "**error:** " + e.replace("|", "\\|")
        return cell or "–"

    def per_kernel(self, w, v, m, fmt=num):
        return " / ".join(fmt(self.median(k, w, v, m)) for k in self.kernels)


def rcell(x, n):
    """A paired ratio: median (min–max), and how many pairs when not n."""
    if x is None:
        return "–"
    med, lo, hi, k = x
    cell = "%.2f" % med if k == 1 else "%.2f (%.2f–%.2f)" % (med, lo, hi)
    return cell if k == n else cell + " n=%d" % k


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def same(per_kernel):
    """One text for a value per kernel: once if all are the same."""
    texts = list(dict.fromkeys(per_kernel.values()))
    if len(texts) == 1:
        return texts[0]
    return "; ".join("%s: %s" % kv for kv in per_kernel.items())


def pooling(t, raws):
    """The header: what each column pools, in the numbers of this report."""
    shape, ratios = {}, {}
    for r in raws:
        b, i, n = r.shape()
        shape[r.kernel] = " × ".join((plural(b, "boot"), plural(i, "round"), plural(n, "run")))
        ratios[r.kernel] = plural(len(r.rounds_run()), "ratio")
    out = ["What each column pools:", "",
           "- *IOPS*: median (min–max) of all fio runs of a kernel, pooled "
           "over its boots and rounds (%s)." % same(shape),
           "- */ref*: IOPS of the workload over that of *ref*, the workload "
           "it is compared with (no stacking layer, or scheduler none), per "
           "boot and round: the median of each one's runs in the same round "
           "of the same boot. The cell is the median (min–max) of these "
           "per-round ratios, one per round of each boot: %s (n= where "
           "fewer). *lat/ref*: the same for mean latency." % same(ratios)]
    if t.both:
        out.append(vs_base_text(t))
    out += ["- *ctx/IO fio*: context switches of fio's threads per I/O; "
            "*ctx/IO all*: context switches on all CPUs (kernel threads too) "
            "per second of the whole fio command (start-up and ramp "
            "included), divided by its IOPS; *mean µs* and *p99 µs*: fio's "
            "completion latency (clat: submission to completion), mean and "
            "99th percentile of the same samples. These are medians of all "
            "runs, pooled as for IOPS, given as %s." % " / ".join(t.kernels)]
    for r in raws:
        if r.guessed:
            out.append("- %s has no boot= and round= on its lines (an older "
                       "bench/workloads.sh): its boots are its BENCH-KERNEL "
                       "lines, its rounds the order of its set-ups."
                       % os.path.basename(r.path))
    return out + [""]


def vs_base_text(t):
    base, patched, n = t.raw["base"], t.raw["patched"], len(t.boot_pairs)
    text = "- *patched/base*: "
    if base.boots != patched.boots:
        text += "(base has %s, patched %s: %s paired) " % (
            plural(base.boots, "boot"), plural(patched.boots, "boot"),
            "the first %d of each" % n if n else "none")
    if n == 1:
        return text + ("median IOPS of all runs of one boot of patched over "
                       "that of one boot of base: different boots, see the "
                       "note at the end.")
    which = ""
    if n and all(b in base.label and p in patched.label for b, p in t.boot_pairs):
        which = " (boots %s of the session)" % ", ".join(
            "%s and %s" % (base.label[b], patched.label[p]) for b, p in t.boot_pairs)
    return text + ("IOPS of patched over base per pair of boots, the k-th boot "
                   "of each kernel%s, which bench/run -b runs one after the "
                   "other: the median of all runs of each boot. The cell is the "
                   "median (min–max) over the %s. It compares different boots: "
                   "see the note at the end." % (which, plural(n, "pair")))


def environment(raws):
    """Where the figures were measured: the host as bench/run recorded it,
    each guest as bench/workloads.sh printed it."""
    out = ["## Environment", ""]

    def host(key):
        return same({r.kernel: ", ".join(r.host.get(key, ["not recorded"]))
                     for r in raws})

    if any(r.host for r in raws):
        dates = sorted(d for r in raws for d in r.host.get("date", []))
        out += ["- boots started: %s" % (" to ".join(dict.fromkeys([dates[0], dates[-1]]))
                                         if dates else "not recorded"),
                "- host CPU: %s" % host("cpu"),
                "- QEMU: %s" % host("qemu"),
                "- accelerator: %s" % host("accel").upper()]
    else:
        out.append("- host: not recorded (no BENCH-HOST lines: the raw files "
                   "do not come from bench/run, or from an older one)")
    for r in raws:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(r.path)))
        boots = plural(r.boots, "boot")
        if r.label:
            boots += " (%s of the session)" % ", ".join(
                str(r.boot_name(b)) for b in range(1, r.boots + 1))
        env = lambda key: " / ".join(r.env.get(key, ["?"]))
        guest = ("fio %s, CPU %s, memory %s, command line `%s`"
                 % (env("fio"), env("cpu"), env("memory"), env("cmdline"))
                 if r.env else "guest not recorded (an older bench/workloads.sh)")
        out.append("- %s: `%s` (%s), %s, last run finished %s (%s); %s"
                   % (r.kernel, r.uname, r.cpus, boots, when,
                      os.path.basename(r.path), guest))
    return out + [""]


def markdown(t, raws):
    ks = t.kernels
    out = ["# blkfast benchmark: %s" % " vs ".join(ks), ""] + pooling(t, raws)
    head = ["workload", "variant", "ref"] + ["%s IOPS" % k for k in ks]
    if t.both:
        head.append("patched/base")
    head += ["/ref %s" % k for k in ks] + ["lat/ref %s" % k for k in ks]
    head += ["ctx/IO fio", "ctx/IO all", "mean µs", "p99 µs"]
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    nround = {k: len(t.raw[k].rounds_run()) for k in ks}
    for w, v in t.order:
        row = [w, v, t.refs.get(w, "-")] + [t.iops_cell(k, w, v) for k in ks]
        if t.both:
            row.append(rcell(t.vs_base(w, v), len(t.boot_pairs)))
        row += [rcell(t.vs_ref(k, w, v), nround[k]) for k in ks]
        row += [rcell(t.lat_vs_ref(k, w, v), nround[k]) for k in ks]
        row += [t.per_kernel(w, v, "ctx_per_io"), t.per_kernel(w, v, "all_ctx_per_io"),
                t.per_kernel(w, v, "avg_lat_us", us),
                t.per_kernel(w, v, "p99_lat_us", us)]
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    out += polled(t)
    out += environment(raws)

    out += ["## Set-ups and fio command lines", "",
            "As the guest printed them; every run adds --output-format=json.", ""]
    for w in dict.fromkeys(w for w, _ in t.order):
        lines = []
        for r in raws:     # each set-up once, not once per boot and round
            for x in r.lines.get(w, []):
                if x not in lines:
                    lines.append(x)
        out += ["### %s" % w, "", "```"] + lines + ["```", ""]

    out += ["Report written %s." % time.strftime("%Y-%m-%d %H:%M:%S %Z"), "",
            "Note: under QEMU TCG (software emulation) absolute figures swing "
            "by ±20% from one boot to the next, and drift within a boot: "
            "hence the ratios of runs of the same boot and round (/ref). "
            "patched/base compares different boots and moves by as much.", ""]
    return "\n".join(out)


def polled(t):
    """Each X-poll workload over its X-irq twin in the same rounds, the
    same for its reference (the raw device), and the quotient: how much of
    the member's own gain from polling the stacked device keeps."""
    rows = []
    for w, v in t.order:
        if not w.endswith("-poll") or (w[:-5] + "-irq", v) not in t.order:
            continue
        ref = t.refs.get(w, "-")
        for k in t.kernels:
            mine = t.vs(k, w, w[:-5] + "-irq", v)
            raw = t.vs(k, ref, t.refs.get(w[:-5] + "-irq", "-"), v) \
                if ref != "-" else None
            keep = ratio(mine[0], raw[0]) if mine and raw else None
            n = len(t.raw[k].rounds_run())
            rows.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                w, v, k, rcell(mine, n), rcell(raw, n),
                "%.2f" % keep if keep is not None else "–",
                rcell(t.vs_ref(k, w, v), n),
                num(t.median(k, w, v, "polls_per_io"))))
    if not rows:
        return []
    return ["## Polled over interrupt-driven", "",
            "poll/irq: IOPS of the polled workload over its interrupt-driven "
            "twin, paired per boot and round; raw poll/irq: the same for the "
            "reference device; kept: the first over the second; /raw poll: "
            "the polled workload over the polled reference; polls/IO: "
            "->poll calls on the null_blk devices per I/O of the device "
            "under test (kernels that report them).", "",
            "| workload | variant | kernel | poll/irq | raw poll/irq | kept | "
            "/raw poll | polls/IO |", "|---|---|---|---|---|---|---|---|"] + rows + [""]


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
    xmax = max([1.5] + [x[2] * 1.1 for x in vals if x is not None])
    bar, gap, left, width, top = 11, 10, 210, 460, 50
    rowh = bar * len(series) + gap
    height = top + rowh * len(rows) + 30
    X = lambda x: left + width * x / xmax
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (left + width + 60, height),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="10" y="18" font-size="14">blkfast: IOPS ratios (median and '
         'min–max of the paired ratios)</text>']
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
            r, by = f(w, v), y + j * bar
            if r is None:
                continue
            x, lo, hi, _ = r
            o.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>'
                     '<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>'
                     '<text x="%.1f" y="%d" font-size="9">%.2f</text>'
                     % (left, by, X(x) - left, bar - 1, color,
                        X(lo), by + bar / 2, X(hi), by + bar / 2,
                        X(max(x, hi)) + 3, by + bar - 2, x))
        y += rowh
    o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" '
             'stroke-dasharray="4,3"/>' % (X(1), top - 6, X(1), bottom + 2))
    o.append("</svg>")
    return "\n".join(o) + "\n"


def default_base(top):
    """The Makefile's default BASE (its "export BASE ?= ..." line)."""
    with open(os.path.join(top, "Makefile")) as f:
        for line in f:
            m = re.match(r"export BASE \?= *(\S+)", line)
            if m:
                return m.group(1)
    sys.exit("report.py: no default BASE in the Makefile; set BASE")


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    base = os.environ.get("BASE") or default_base(top)
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "build", base, "bench")
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
