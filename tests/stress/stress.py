#!/usr/bin/env python3
# stress.py - the soak test: PROCS stress-worker processes (4 threads of
# random alloc/free/advise/prefetch/pool/VMM calls each) for SECONDS, while
# readers walk /cu and read every file, tail events_pipe, hold an events
# file open without reading it, and write advice; and faults: kill -9 of
# random workers (respawned), SIGSTOP/SIGCONT, cufs killed and restarted.
#
#   stress.py --cufs PATH --worker PATH [--seconds N] [--procs N]
#
# Invariants, each failure a violation (exit 1, listed at the end):
#   - no read of a file under /cu takes over 2 s, no write of advice over
#     the 10 s cufs allows a write in all;
#   - cufs and every worker not killed on purpose stay up; a worker's
#     calls fail with nothing but CUDA_ERROR_OUT_OF_MEMORY;
#   - a killed worker leaves processes/ within 5 s;
#   - whenever all workers are parked (SIGUSR1), each device's used_memory
#     equals the sum over live objects shown in snapshot.json (device and
#     host-counted allocations, pools' reserved memory, physical handles,
#     managed residency), within 5 s;
#   - after all workers exit, every device's used_memory is 0: what killed
#     ones held came back;
#   - events_pipe loses nothing it does not say it dropped: a "free id=X"
#     of a process whose allocation X was made after its first line seen
#     comes after that "alloc id=X", unless a dropped line came between;
#   - over a run of 120 s or more, cufs and the steady workers (never
#     killed) grow their resident memory by under 25% + 16 MiB over the
#     second half.
# Runs on the machine and run dir of its environment (tests/private-machine.sh
# gives them), mounts under TMPDIR and removes everything on any exit.
import argparse
import errno
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time

READ_LIMIT = 2.0
# A write takes 10 s at most in all, whatever it waits for (the write
# before it, the connect, the hello, the call: client.c); 1 s more for
# the open and close on a loaded machine.
WRITE_LIMIT = 11.0

lock = threading.Lock()
violations = []
figures = {"reads": 0, "read_errors": 0, "max_read_s": 0.0, "walks": 0,
           "events": 0, "events_dropped_said": 0, "advice_writes": 0,
           "advice_refused": 0, "kill9": 0, "stops": 0, "cufs_kills": 0,
           "settles": 0, "ops_killed": 0}
done = threading.Event()


def violation(what):
    with lock:
        violations.append("%.1fs %s" % (time.monotonic() - T0, what))
    print("stress: VIOLATION: " + what, file=sys.stderr, flush=True)


def count(key, n=1):
    with lock:
        figures[key] += n


def cores_on():
    # A worker that crashes leaves a core in the work dir (core_pattern
    # permitting), which STRESS_KEEP keeps.
    resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY,
                                              resource.RLIM_INFINITY))


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class Cufs:
    def __init__(self, path, mnt, log):
        self.path, self.mnt, self.log = path, mnt, log
        self.proc = None
        self.killing = False

    def start(self):
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen([self.path, "-f", self.mnt],
                                         stdout=log, stderr=log)
        end = time.monotonic() + 10
        while not os.path.isdir(os.path.join(self.mnt, "devices")):
            if time.monotonic() > end or self.proc.poll() is not None:
                raise SystemExit("stress: cufs did not come up; see " +
                                 self.log)
            time.sleep(0.05)

    def unmount(self):
        subprocess.call(["fusermount3", "-u", "-z", self.mnt],
                        stderr=subprocess.DEVNULL)

    def kill_restart(self):
        self.killing = True
        self.proc.kill()
        self.proc.wait()
        self.unmount()
        count("cufs_kills")
        time.sleep(0.2)
        self.start()
        self.killing = False

    def check_up(self):
        if not self.killing and self.proc.poll() is not None:
            violation("cufs exited by itself: %s" % self.proc.returncode)
            self.start()

    def stop(self):
        self.unmount()
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Workers:
    def __init__(self, path, n, work, steady):
        self.path, self.n, self.work, self.steady = path, n, work, steady
        self.procs = {}
        self.gen = {}
        self.stopped = set()
        self.killed_pids = []

    def ops_file(self, slot):
        return os.path.join(self.work, "ops.%d.%d" % (slot, self.gen[slot]))

    def spawn(self, slot):
        self.gen[slot] = self.gen.get(slot, -1) + 1
        err = open(os.path.join(self.work, "worker.%d.%d.err" %
                                (slot, self.gen[slot])), "w")
        self.procs[slot] = subprocess.Popen(
            [self.path, "1000000", self.ops_file(slot)], stderr=err,
            cwd=self.work, preexec_fn=cores_on)
        err.close()

    def report(self, slot):
        try:
            with open(self.ops_file(slot)) as f:
                return dict(kv.split("=") for kv in f.read().split())
        except (OSError, ValueError):
            return {}

    def signal(self, slot, sig):
        try:
            self.procs[slot].send_signal(sig)
        except ProcessLookupError:
            pass

    def kill9(self, slot):
        p = self.procs[slot]
        self.stopped.discard(slot)
        p.kill()
        p.wait()
        count("kill9")
        count("ops_killed", int(self.report(slot).get("ops", 0)))
        self.killed_pids.append((p.pid, time.monotonic()))
        self.spawn(slot)

    def check_up(self):
        for slot, p in self.procs.items():
            if p.poll() is not None:
                violation("worker %d (slot %d) exited by itself: %s; %s" %
                          (p.pid, slot, p.returncode, self.err_tail(slot)))
                self.spawn(slot)

    def err_tail(self, slot):
        try:
            with open(os.path.join(self.work, "worker.%d.%d.err" %
                                   (slot, self.gen[slot]))) as f:
                return f.read()[-300:].strip()
        except OSError:
            return ""


# ---------------------------------------------------------------- readers

def timed_read(path):
    t0 = time.monotonic()
    try:
        with open(path, "rb") as f:
            while f.read(65536):
                pass
        ok = True
    except OSError:
        ok = False
    dt = time.monotonic() - t0
    with lock:
        figures["reads"] += 1
        figures["read_errors"] += not ok
        figures["max_read_s"] = max(figures["max_read_s"], dt)
    if dt > READ_LIMIT:
        violation("read of %s took %.2f s" % (path, dt))


def walker(mnt):
    # find /cu -type f -exec cat: every file, events_pipe (a stream that
    # blocks for lines) aside.
    while not done.is_set():
        n = 0
        for root, dirs, files in os.walk(mnt):
            if done.is_set():
                return
            for name in files:
                if name != "events_pipe":
                    timed_read(os.path.join(root, name))
                    n += 1
        if n:
            count("walks")
        else:
            time.sleep(0.05)  # cufs is being restarted


# A process logs an allocation after it took the id, so threads' lines may
# come out of id order by as long as a thread waits between the two (long,
# on a loaded machine). A free without its alloc line counts only for ids
# above one whose line came SETTLE_S after the stream opened (or after a
# drop for that process): by then every earlier id's line has come.
SETTLE_S = 10.0


def events_tail(mnt):
    """Follows events_pipe; checks that what it lost it was told of."""
    while not done.is_set():
        try:
            f = open(os.path.join(mnt, "events_pipe"), "rb")
        except OSError:
            time.sleep(0.2)
            continue
        try:
            follow(f, time.time())
        except OSError:
            pass  # cufs went away
        f.close()
        time.sleep(0.1)


def follow(f, opened):
    """Reads lines until the stream ends or the run does."""
    line_re = re.compile(r"^(\S+) (\d+\.\d+) (\S+) ?(.*)")
    id_re = re.compile(r"^id=(\d+)")
    drop_re = re.compile(r"^lines=(\d+)")
    first = {}      # pid: id of the first alloc line past its settle time
    live = {}       # pid: ids seen allocated
    since = {}      # pid: when its lines can be trusted again
    all_since = opened + SETTLE_S
    for raw in f:
        if done.is_set():
            return
        count("events")
        m = line_re.match(raw.decode(errors="replace"))
        if not m:
            violation("events_pipe: a line that is not one: %r" % raw[:100])
            continue
        who, ts, what, rest = m.group(1), float(m.group(2)), m.group(3), \
            m.group(4)
        if what == "dropped":
            d = drop_re.match(rest)
            count("events_dropped_said", int(d.group(1)) if d else 0)
            if who == "cufs":
                all_since = ts + SETTLE_S
                first.clear()
                live.clear()
                since.clear()
            else:
                since[who] = ts + SETTLE_S
                first.pop(who, None)
                live.pop(who, None)
            continue
        i = id_re.match(rest)
        if what not in ("alloc", "free") or not i:
            continue
        i = int(i.group(1))
        if what == "alloc":
            live.setdefault(who, set()).add(i)
            if who not in first and ts >= max(all_since, since.get(who, 0)):
                first[who] = i
        elif who in first and i > first[who]:
            if i not in live.get(who, ()):
                violation("events_pipe: process %s freed %d, whose alloc "
                          "line never came, and no line said it was "
                          "dropped" % (who, i))
            else:
                live[who].discard(i)


def idle_holder(mnt):
    """Holds events and events_pipe open and never reads them."""
    held = []
    while not done.is_set():
        if not held:
            try:
                held = [open(os.path.join(mnt, n), "rb")
                        for n in ("events", "events_pipe")]
            except OSError:
                pass
        done.wait(5)
        # after a cufs restart the old ones are dead: open anew
        if held and not os.path.exists(os.path.join(mnt, "devices")):
            for f in held:
                f.close()
            held = []
    for f in held:
        f.close()


def adviser(mnt, rng):
    words = ["set_read_mostly", "unset_read_mostly", "unset_preferred_location",
             "set_preferred_location gpu0", "set_accessed_by gpu1",
             "unset_accessed_by gpu1", "set_preferred_location cpu"]
    while not done.is_set():
        try:
            ids = os.listdir(os.path.join(mnt, "allocations"))
        except OSError:
            time.sleep(0.2)
            continue
        rng.shuffle(ids)
        for i in ids[:20]:
            p = os.path.join(mnt, "allocations", i, "advise")
            t0 = time.monotonic()
            t = [t0] * 3  # when the open, the write and the close ended
            try:
                fd = os.open(p, os.O_WRONLY)
                t[0] = time.monotonic()
                try:
                    os.write(fd, (rng.choice(words) + "\n").encode())
                    t[1] = time.monotonic()
                finally:
                    os.close(fd)
                    t[2] = time.monotonic()
                count("advice_writes")
            except OSError as e:
                # freed meanwhile, not managed, stopped process, cufs
                # restarting: refused with an errno, as it should be
                if e.errno not in (errno.ENOENT, errno.EACCES, errno.ETIMEDOUT,
                                   errno.EAGAIN, errno.ENOTCONN, errno.EIO,
                                   errno.ECONNABORTED, errno.ESRCH,
                                   errno.ENOSYS):
                    violation("advice to %s: %s" % (p, e))
                count("advice_refused")
            if time.monotonic() - t0 > WRITE_LIMIT:
                t = [max(x, t0) for x in t]
                violation("advice write to %s took %.1f s (open %.1f, "
                          "write %.1f, close %.1f)" %
                          (p, time.monotonic() - t0, t[0] - t0,
                           max(t[1] - t[0], 0), max(t[2] - t[1], 0)))
            if done.is_set():
                return
        time.sleep(0.05)


# ---------------------------------------------------------------- checks

def device_sums(snap):
    """(used_memory by device, sum over live objects by device)"""
    devs = snap["machine"]["devices"]
    used = {"gpu%d" % d["index"]: d["used_memory"] for d in devs}
    sums = {k: 0 for k in used}
    for p in snap.get("processes", {}).values():
        for a in p.get("allocations", {}).values():
            if a.get("kind") == "device" and a.get("device") in sums:
                sums[a["device"]] += a["size"]
            for loc, n in a.get("residency", {}).items():
                if a.get("kind") == "managed" and loc in sums:
                    sums[loc] += n
        for pool in p.get("pools", {}).values():
            if not pool.get("imported") and pool.get("location") in sums:
                sums[pool["location"]] += pool["reserved_mem_current"]
        for h in p.get("handles", {}).values():
            if not h.get("imported") and h.get("location") in sums:
                sums[h["location"]] += h["size"]
    return used, sums


def settle_check(mnt, workers):
    """Parks every worker, then compares each device's use with the sum
    over what the processes show."""
    for slot in list(workers.stopped):
        workers.signal(slot, signal.SIGCONT)
    workers.stopped.clear()
    # A worker that has not reported yet may not have its handlers: one
    # just respawned is waited for.
    end = time.monotonic() + 15
    while time.monotonic() < end and not all(
            workers.report(s) for s in workers.procs):
        time.sleep(0.05)
    for slot in workers.procs:
        if workers.report(slot):
            workers.signal(slot, signal.SIGUSR1)
    end = time.monotonic() + 15
    while time.monotonic() < end and not all(
            workers.report(s).get("parked") == "1" for s in workers.procs):
        time.sleep(0.05)
    bad = None
    end = time.monotonic() + 5
    while time.monotonic() < end:
        try:
            with open(os.path.join(mnt, "snapshot.json")) as f:
                snap = json.load(f)
            pids = set(snap.get("processes", {}))
            want = set(str(p.pid) for p in workers.procs.values())
            used, sums = device_sums(snap)
            bad = None if used == sums and want <= pids else (
                used, sums, "missing", want - pids, "others", pids - want)
        except (OSError, ValueError) as e:
            bad = str(e)
        if bad is None:
            break
        time.sleep(0.2)
    if bad is not None:
        violation("settled, devices' used memory is not the sum over live "
                  "objects: %s" % (bad,))
    count("settles")
    for slot in workers.procs:
        if workers.report(slot):
            workers.signal(slot, signal.SIGUSR2)


def check_killed_gone(mnt, workers):
    now = time.monotonic()
    keep = []
    for pid, t in workers.killed_pids:
        if os.path.exists(os.path.join(mnt, "processes", str(pid))):
            if now - t > 5:
                violation("killed process %d still in processes/ after 5 s"
                          % pid)
            else:
                keep.append((pid, t))
    workers.killed_pids = keep


# ---------------------------------------------------------------- main

def main():
    global T0
    ap = argparse.ArgumentParser()
    ap.add_argument("--cufs", required=True)
    ap.add_argument("--worker", required=True)
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--procs", type=int, default=32)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    a = ap.parse_args()
    a.cufs, a.worker = os.path.abspath(a.cufs), os.path.abspath(a.worker)
    rng = random.Random(a.seed)
    T0 = time.monotonic()
    work = tempfile.mkdtemp(prefix="stress.")
    mnt = os.path.join(work, "cu")
    os.mkdir(mnt)
    cufs = Cufs(a.cufs, mnt, os.path.join(work, "cufs.log"))
    steady = set(range(min(4, a.procs)))
    workers = Workers(a.worker, a.procs, work, steady)
    threads = []
    try:
        cufs.start()
        for s in range(a.procs):
            workers.spawn(s)
        for fn, args in ((walker, (mnt,)), (walker, (mnt,)),
                         (events_tail, (mnt,)), (idle_holder, (mnt,)),
                         (adviser, (mnt, random.Random(a.seed + 1)))):
            t = threading.Thread(target=fn, args=args, daemon=True)
            t.start()
            threads.append(t)
        run(a, rng, mnt, cufs, workers)
    finally:
        done.set()
        for s, p in workers.procs.items():
            p.send_signal(signal.SIGCONT)
            p.terminate()
        statuses = {}
        for s, p in workers.procs.items():
            try:
                statuses[s] = p.wait(30)
            except subprocess.TimeoutExpired:
                violation("worker %d did not exit on SIGTERM" % p.pid)
                p.kill()
                p.wait()
        for s, rc in statuses.items():
            # one respawned a moment ago may meet SIGTERM before its
            # handler: it had done nothing yet
            if rc == -signal.SIGTERM and not workers.report(s):
                continue
            if rc != 0:
                violation("worker slot %d exited %s: %s" %
                          (s, rc, workers.err_tail(s)))
        final_checks(mnt, cufs, workers)
        cufs.stop()
        if os.environ.get("STRESS_KEEP"):
            print("stress: kept " + work)
        else:
            subprocess.call(["rm", "-rf", work])
    print_figures(a, workers)
    return 1 if violations else 0


def run(a, rng, mnt, cufs, workers):
    end = T0 + a.seconds
    half = T0 + a.seconds / 2
    cufs_every = max(a.seconds / 8, 5)
    settle_every = max(a.seconds / 10, 5)
    next_cufs = T0 + cufs_every
    next_settle = T0 + settle_every / 2
    rss = {}
    while time.monotonic() < end:
        now = time.monotonic()
        cufs.check_up()
        workers.check_up()
        check_killed_gone(mnt, workers)
        if now >= next_settle:
            settle_check(mnt, workers)
            next_settle = time.monotonic() + settle_every
            continue
        # cufs killed in the first half only: the second half measures
        # its growth
        if now >= next_cufs and (now < half or a.seconds < 120):
            cufs.kill_restart()
            next_cufs = time.monotonic() + cufs_every
        slot = rng.randrange(a.procs)
        r = rng.random()
        if r < 0.4 and slot not in workers.steady:
            workers.kill9(slot)
        elif r < 0.8 and slot not in workers.stopped:
            workers.signal(slot, signal.SIGSTOP)
            workers.stopped.add(slot)
            count("stops")
        for s in list(workers.stopped):
            if rng.random() < 0.3:
                workers.signal(s, signal.SIGCONT)
                workers.stopped.discard(s)
        if now >= half + 20 and "start" not in rss:
            rss["start"] = sample_rss(cufs, workers)
        rss["end"] = sample_rss(cufs, workers)
        time.sleep(rng.uniform(0.2, 0.8))
    if a.seconds >= 120 and "start" in rss:
        for who, kib in rss["start"].items():
            last = rss["end"].get(who)
            print("stress: rss %s %d KiB -> %s KiB" % (who, kib, last))
            if last and last > kib * 1.25 + 16384:
                violation("%s grew from %d to %d KiB over the second half" %
                          (who, kib, last))


def sample_rss(cufs, workers):
    out = {"cufs": rss_kib(cufs.proc.pid)}
    for s in workers.steady:
        out["worker%d" % s] = rss_kib(workers.procs[s].pid)
    return {k: v for k, v in out.items() if v}


def final_checks(mnt, cufs, workers):
    cufs.check_up()
    end = time.monotonic() + 5
    used = None
    while time.monotonic() < end:
        try:
            used = {d: int(open(os.path.join(mnt, "devices", d,
                                             "used_memory")).read())
                    for d in os.listdir(os.path.join(mnt, "devices"))
                    if d.startswith("gpu")}
        except (OSError, ValueError) as e:
            used = str(e)
        if isinstance(used, dict) and not any(used.values()):
            break
        time.sleep(0.2)
    if not isinstance(used, dict) or any(used.values()):
        violation("after every worker exited, devices' used memory is %s"
                  % (used,))
    try:
        left = os.listdir(os.path.join(mnt, "processes"))
    except OSError as e:
        left = [str(e)]
    if left:
        violation("processes/ after every worker exited: %s" % left)


def print_figures(a, workers):
    ops = figures["ops_killed"]
    for s in workers.procs:
        ops += int(workers.report(s).get("ops", 0))
    print("stress: %d s, %d processes x 4 threads, seed %d" %
          (a.seconds, a.procs, a.seed))
    print("stress: operations %d; faults injected: kill -9 %d, SIGSTOP %d, "
          "cufs kill -9 %d" % (ops, figures["kill9"], figures["stops"],
                               figures["cufs_kills"]))
    print("stress: reads %d (%d failed, max %.3f s) in %d walks; events %d "
          "(said dropped %d); advice writes %d (%d refused); settled checks %d"
          % (figures["reads"], figures["read_errors"], figures["max_read_s"],
             figures["walks"], figures["events"],
             figures["events_dropped_said"], figures["advice_writes"],
             figures["advice_refused"], figures["settles"]))
    print("stress: invariant violations %d" % len(violations))
    for v in violations:
        print("stress:   " + v)


if __name__ == "__main__":
    sys.exit(main())
