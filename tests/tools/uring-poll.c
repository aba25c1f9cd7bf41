/*
 * uring-poll: polled io_uring I/O (IORING_SETUP_IOPOLL, O_DIRECT) against a
 * block device in the awkward ways that strand polled bios on buggy stacked
 * drivers, with every block checked against what the program last wrote
 * there. Built statically on the host by scripts/build-test-tools; the guest
 * has it as /blkfast/test-tools/uring-poll, and tests/lib.sh runs it with
 * uring_poll DEV ARGS...
 *
 * usage: uring-poll [options] DEV
 *
 * Blocks are 4096 bytes. Each I/O covers BS/4096 blocks at a random
 * 4096-aligned offset in the region, and no two I/Os in flight share a
 * block. Each block written carries a header (magic, run id, its offset, a
 * generation number) and a pattern derived from them; a read of a block this
 * run wrote must show the generation last written there, and a block it never
 * wrote must not hold its data. At the end of every mode, every block written
 * is read back (polled too) and checked.
 *
 *   -m MODE   what to do (default flood):
 *      flood     keep -d I/Os in flight, reads and writes mixed (-w), until
 *                -n I/Os have completed
 *      overflow  a ring with a -q entry completion queue (and a submission
 *                queue half that size) gets -d I/Os submitted without
 *                reaping, no io_uring_enter for -p ms, then everything is
 *                reaped (the kernel keeps the CQEs that did not fit:
 *                IORING_FEAT_NODROP); again until -n I/Os
 *      close     -d I/Os submitted, then the ring closed
 *                (io_uring_queue_exit) without reaping any of them; -r times.
 *                DEV is opened O_EXCL and each request holds the file, so the
 *                next exclusive open succeeds only once the closed ring's
 *                I/O has ended: then what it wrote is read back (each block
 *                must hold the old or the new data) with a fresh ring
 *      rings     -t threads, each with a ring of its own, pinned round-robin
 *                to the CPUs the program may run on, each running flood on
 *                its own slice of the region; -n counts all rings, -d is
 *                per ring
 *   -b BS     I/O size, a multiple of 4096 (default 4096; e.g. 8k, 96k)
 *   -d N      I/Os in flight (default 512: more than a null_blk queue's 64
 *             tags times its poll queues; overflow 256; rings 128 per ring)
 *   -n N      I/Os in all (default 20000; close mode does -r times -d)
 *   -w PCT    percentage of writes (default 50)
 *   -q N      overflow: completion queue entries (default 8)
 *   -p MS     overflow: the pause before reaping (default 500)
 *   -r N      close: rings to close (default 20)
 *   -t N      rings: threads (default 4)
 *   -S        rings: IORING_SETUP_SQPOLL too, each SQ thread pinned
 *             (IORING_SETUP_SQ_AFF) to another CPU than its ring's thread
 *             when there are two CPUs or more
 *   -o OFF    the region's start, a multiple of 4096 (default 0)
 *   -s SIZE   the region's size (default: to the end of DEV, BLKGETSIZE64)
 *   -T SECS   an I/O not completed after SECS seconds is a hang (default 120)
 *   -i        interrupt-driven: no IORING_SETUP_IOPOLL (for comparison)
 *   -V        verify the data (always on; accepted for clarity)
 *   -x        4096-aligned buffers (posix_memalign; always on; accepted)
 *   -h        this text
 * Sizes take a k, M or G suffix (powers of 1024). The region (each ring's
 * slice of it in rings mode) needs room for twice the I/O in flight:
 * 2 * N * BS bytes.
 *
 * Exit status 0 with one summary line on stdout, e.g.
 *   uring-poll: flood: 20000 I/Os (9984 reads, 10016 writes), 0 EAGAIN
 *   resubmitted, verified 4096 blocks
 * (one line); 1 with one line on stderr on an I/O error or a short I/O
 * ("uring-poll: MODE: I/O error at offset X: ..."), a data mismatch
 * ("uring-poll: MODE: data mismatch at offset X (wrote generation G, read
 * ...)") or an I/O that did not complete within -T seconds ("uring-poll:
 * MODE: hang: ..."); 2 on a usage error. Completions with -EAGAIN are
 * resubmitted and counted, not errors.
 *
 * The hang check is a watchdog in the main thread: it looks at the age of
 * every I/O in flight, because a wait on an IOPOLL ring has no timeout (the
 * kernel ignores the timeout of a polled wait) and may spin in the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <liburing.h>
#include <linux/fs.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
"usage: uring-poll [options] DEV\n"
"Polled io_uring I/O (IORING_SETUP_IOPOLL, O_DIRECT) on DEV, data verified.\n"
"  -m MODE   flood (default), overflow, close or rings\n"
"  -b BS     I/O size, a multiple of 4096 (default 4096)\n"
"  -d N      I/Os in flight (default 512; overflow 256; rings 128 per ring)\n"
"  -n N      I/Os in all (default 20000)\n"
"  -w PCT    percentage of writes (default 50)\n"
"  -q N      overflow: completion queue entries (default 8)\n"
"  -p MS     overflow: pause before reaping (default 500)\n"
"  -r N      close: rings to close with their I/O in flight (default 20)\n"
"  -t N      rings: threads, each with its own ring (default 4)\n"
"  -S        rings: IORING_SETUP_SQPOLL too\n"
"  -o OFF    region start (default 0)\n"
"  -s SIZE   region size (default: to the end of DEV)\n"
"  -T SECS   an I/O not completed after SECS seconds is a hang (default 120)\n"
"  -i        no IORING_SETUP_IOPOLL (interrupt-driven, for comparison)\n"
"  -V, -x    verification and aligned buffers: always on\n"
"Sizes take a k, M or G suffix. See the top of tests/tools/uring-poll.c.\n";

#define UNIT 4096u			/* a block: what the tables track */
#define WORDS (UNIT / 8)
#define MAGIC 0x4c4c4f50474e4952ull	/* "RINGPOLL" */

enum mode { FLOOD, OVERFLOW, CLOSE, RINGS };
static const char *const mode_names[] = { "flood", "overflow", "close", "rings" };

enum kind { RD, WR, VERIFY, RESOLVE };

static struct {
	enum mode mode;
	unsigned bs, upi;		/* I/O size, in bytes and in blocks */
	unsigned depth, wpct, cq, pause_ms, rounds, threads, limit;
	unsigned long long nios, off, size;
	int size_set, sqpoll, iopoll;
	const char *dev;
} opt;

static uint64_t nonce;			/* this run's id, in every block header */
static uint64_t nblocks;		/* the region, in blocks, from opt.off */
static uint32_t *gen_tab;		/* generation last written, 0: never */
static uint8_t *busy_tab;		/* an I/O in flight covers the block */

struct slot {
	void *buf;
	uint64_t b;			/* first block */
	uint32_t n;			/* blocks */
	uint32_t gen;			/* WR, RESOLVE: the generation written */
	enum kind kind;
	int inflight;			/* read by the watchdog */
	int64_t t0;			/* first submission, ns; read by the watchdog */
};

struct worker {
	int idx, fd, cpu, sq_cpu;
	char where[64];			/* " (ring 2 of 4, CPU 1)" in rings mode */
	struct io_uring ring;
	unsigned ring_flags, cq_entries;	/* of the ring set up last */
	uint64_t b0, b1;		/* this worker's blocks: [b0, b1) */
	struct slot *slots;
	unsigned nslots, *freel, nfree, *retry, nretry, inflight;
	uint64_t rng;
	uint32_t gen;
	uint64_t target;		/* I/Os to complete */
	uint64_t reads, writes, eagain, refused, verified, rounds, ovf_rounds;
	uint64_t landed, lost, partly, unreaped, held;
	int saw_overflow;
	unsigned ovf_cq;		/* overflow: the CQ's size */
	const char *phase;		/* read by the watchdog */
	int done;			/* read by the watchdog */
	pthread_t tid;
	uint64_t scratch[WORDS] __attribute__((aligned(64)));
};

static pthread_mutex_t die_lock = PTHREAD_MUTEX_INITIALIZER;

static void vdie(const struct worker *w, const char *fmt, va_list ap)
{
	pthread_mutex_lock(&die_lock);	/* one message; the process ends */
	fflush(stdout);
	fprintf(stderr, "uring-poll: %s: ", mode_names[opt.mode]);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "%s\n", w ? w->where : "");
	fflush(stderr);
	_exit(1);
}

static void __attribute__((format(printf, 2, 3), noreturn))
fail(const struct worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(w, fmt, ap);
	va_end(ap);
	_exit(1);
}

static void __attribute__((format(printf, 1, 2), noreturn))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("uring-poll: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (uring-poll -h: usage)\n", stderr);
	exit(2);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t mix64(uint64_t x)	/* splitmix64's finalizer */
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t rnd(struct worker *w)
{
	w->rng += 0x9e3779b97f4a7c15ull;
	return mix64(w->rng);
}

/* --- the data: a header and a pattern per block */

static uint64_t block_off(uint64_t b) { return opt.off + b * UNIT; }

static void fill_block(uint64_t *p, uint64_t off, uint32_t gen)
{
	uint64_t seed = mix64(nonce ^ mix64(off ^ ((uint64_t)gen << 44)));
	unsigned i;

	p[0] = MAGIC;
	p[1] = nonce;
	p[2] = off;
	p[3] = gen;
	for (i = 4; i < WORDS; i++)
		p[i] = mix64(seed + i);
}

static int ours(const uint64_t *p) { return p[0] == MAGIC && p[1] == nonce; }

/* 0: the block holds generation gen of offset off; else 1 + the first byte
 * that differs */
static unsigned block_differs(struct worker *w, const uint64_t *p, uint64_t off,
			      uint32_t gen)
{
	const unsigned char *a = (const void *)p, *e = (const void *)w->scratch;
	unsigned i;

	fill_block(w->scratch, off, gen);
	if (!memcmp(p, w->scratch, UNIT))
		return 0;
	for (i = 0; i < UNIT && a[i] == e[i]; i++)
		;
	return i + 1;
}

static void __attribute__((noreturn))
mismatch(struct worker *w, const uint64_t *p, uint64_t off, uint32_t gen,
	 const char *what)
{
	char wrote[96], got[160];
	unsigned d;

	if (gen)
		snprintf(wrote, sizeof(wrote), "wrote generation %" PRIu32 "%s", gen, what);
	else
		snprintf(wrote, sizeof(wrote), "never written by this run%s", what);
	if (!ours(p)) {
		snprintf(got, sizeof(got), "data this run did not write: %016" PRIx64
			 " %016" PRIx64 " ...", p[0], p[1]);
	} else if (p[2] == off && p[3] == gen) {
		d = block_differs(w, p, off, gen);
		snprintf(got, sizeof(got), "generation %" PRIu32 ", but byte %u of the block differs",
			 gen, d - 1);
	} else {
		d = block_differs(w, p, p[2], (uint32_t)p[3]);
		snprintf(got, sizeof(got), "generation %" PRIu64, p[3]);
		if (p[2] != off)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 " written for offset %" PRIu64, p[2]);
		if (d)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 ", corrupted after its header");
	}
	fail(w, "data mismatch at offset %" PRIu64 " (%s, read %s)", off, wrote, got);
}

/* A read of the slot's blocks completed: each must hold what was last
 * written there, or, never written by this run, nothing this run wrote. */
static void check_read(struct worker *w, struct slot *s)
{
	uint32_t i, g;
	const uint64_t *p;

	for (i = 0; i < s->n; i++) {
		p = (const uint64_t *)((char *)s->buf + (size_t)i * UNIT);
		g = gen_tab[s->b + i];
		if (g) {
			if (block_differs(w, p, block_off(s->b + i), g))
				mismatch(w, p, block_off(s->b + i), g, "");
			if (s->kind == VERIFY)
				w->verified++;
		} else if (ours(p)) {
			mismatch(w, p, block_off(s->b + i), 0, "");
		}
	}
}

/* close mode: what a write of a closed ring left in its blocks, read back
 * once the ring's I/O has ended: the new data or the old, block by block. */
static void resolve(struct worker *w, struct slot *s)
{
	uint32_t i, old, got_new = 0;
	uint64_t off;
	const uint64_t *p;

	for (i = 0; i < s->n; i++) {
		p = (const uint64_t *)((char *)s->buf + (size_t)i * UNIT);
		off = block_off(s->b + i);
		old = gen_tab[s->b + i];
		if (!block_differs(w, p, off, s->gen)) {
			gen_tab[s->b + i] = s->gen;
			got_new++;
		} else if (old ? block_differs(w, p, off, old) != 0 : ours(p)) {
			char what[64] = " with the closed ring, nothing before";

			if (old)
				snprintf(what, sizeof(what),
					 " with the closed ring, generation %" PRIu32 " before",
					 old);
			mismatch(w, p, off, s->gen, what);
		}
	}
	if (got_new == s->n)
		w->landed++;
	else if (got_new)
		w->partly++;
	else
		w->lost++;
}

/* --- I/O */

static void ring_init(struct worker *w, unsigned entries, unsigned cq)
{
	struct io_uring_params p;
	int ret;

	memset(&p, 0, sizeof(p));
	if (opt.iopoll)
		p.flags |= IORING_SETUP_IOPOLL;
	if (cq) {
		p.flags |= IORING_SETUP_CQSIZE;
		p.cq_entries = cq;
	}
	if (opt.sqpoll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000;
		if (w->sq_cpu >= 0) {
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = w->sq_cpu;
		}
	}
	ret = io_uring_queue_init_params(entries, &w->ring, &p);
	if (ret < 0)
		fail(w, "io_uring_queue_init_params (%u entries, flags %#x): %s",
		     entries, p.flags, strerror(-ret));
	if (cq && !(p.features & IORING_FEAT_NODROP))
		fail(w, "the kernel lacks IORING_FEAT_NODROP");
	w->ring_flags = p.flags;
	w->cq_entries = p.cq_entries;
}

static void submit(struct worker *w)
{
	int ret = io_uring_submit(&w->ring);

	if (ret >= 0 || ret == -EINTR)
		return;
	if (ret == -EBUSY || ret == -EAGAIN) {	/* the SQEs stay queued */
		w->refused++;
		return;
	}
	fail(w, "io_uring_submit: %s", strerror(-ret));
}

static struct io_uring_sqe *get_sqe(struct worker *w)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&w->ring);

	if (!sqe) {
		submit(w);
		sqe = io_uring_get_sqe(&w->ring);
	}
	if (!sqe && (w->ring_flags & IORING_SETUP_SQPOLL)) {
		io_uring_sqring_wait(&w->ring);
		sqe = io_uring_get_sqe(&w->ring);
	}
	return sqe;
}

/* queue the slot's I/O; -1: no room in the submission queue now */
static int issue(struct worker *w, struct slot *s)
{
	struct io_uring_sqe *sqe = get_sqe(w);
	unsigned len = s->n * UNIT;

	if (!sqe)
		return -1;
	if (s->kind == WR)
		io_uring_prep_write(sqe, w->fd, s->buf, len, block_off(s->b));
	else
		io_uring_prep_read(sqe, w->fd, s->buf, len, block_off(s->b));
	io_uring_sqe_set_data64(sqe, s - w->slots);
	return 0;
}

/* what the worker does, for the watchdog's report */
static void set_phase(struct worker *w, const char *phase)
{
	__atomic_store_n(&w->phase, phase, __ATOMIC_RELAXED);
}

static void set_inflight(struct slot *s, int on)
{
	if (on)
		__atomic_store_n(&s->t0, now_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&s->inflight, on, __ATOMIC_RELEASE);
}

static struct slot *take_slot(struct worker *w)
{
	return w->nfree ? &w->slots[w->freel[--w->nfree]] : NULL;
}

static void release(struct worker *w, struct slot *s)
{
	uint32_t i;

	if (s->kind != VERIFY)
		for (i = 0; i < s->n; i++)
			busy_tab[s->b + i] = 0;
	set_inflight(s, 0);
	w->freel[w->nfree++] = s - w->slots;
	w->inflight--;
}

static int run_free(uint64_t b)
{
	unsigned i;

	for (i = 0; i < opt.upi; i++)
		if (busy_tab[b + i])
			return 0;
	return 1;
}

/* a random place for an I/O where none is in flight */
static int pick(struct worker *w, uint64_t *bp)
{
	uint64_t span = w->b1 - w->b0 - opt.upi + 1, start, i;
	int t;

	for (t = 0; t < 32; t++) {
		*bp = w->b0 + rnd(w) % span;
		if (run_free(*bp))
			return 0;
	}
	start = rnd(w) % span;
	for (i = 0; i < span; i++) {
		*bp = w->b0 + (start + i) % span;
		if (run_free(*bp))
			return 0;
	}
	return -1;
}

/* a new read or write at a random place; -1: not now */
static int start_random(struct worker *w)
{
	struct slot *s;
	uint64_t b;
	uint32_t i;

	if (!w->nfree || pick(w, &b) < 0)
		return -1;
	s = take_slot(w);
	s->b = b;
	s->n = opt.upi;
	s->kind = rnd(w) % 100 < opt.wpct ? WR : RD;
	if (s->kind == WR) {
		s->gen = ++w->gen;
		for (i = 0; i < s->n; i++)
			fill_block((uint64_t *)((char *)s->buf + (size_t)i * UNIT),
				   block_off(b + i), s->gen);
	}
	if (issue(w, s) < 0) {
		w->freel[w->nfree++] = s - w->slots;
		return -1;
	}
	for (i = 0; i < s->n; i++)
		busy_tab[b + i] = 1;
	w->inflight++;
	set_inflight(s, 1);
	return 0;
}

static const char *kind_name(enum kind k)
{
	static const char *const names[2][4] = {
		{ "read", "write", "read-back", "read-back" },
		{ "polled read", "polled write", "polled read-back", "polled read-back" },
	};

	return names[!!opt.iopoll][k];
}

static void complete(struct worker *w, const struct io_uring_cqe *cqe)
{
	struct slot *s;
	unsigned len;

	if (cqe->user_data >= w->nslots)
		fail(w, "a completion for an I/O never submitted (user_data %llu, res %d)",
		     (unsigned long long)cqe->user_data, cqe->res);
	s = &w->slots[cqe->user_data];
	if (!s->inflight)
		fail(w, "a second completion of a %s at offset %" PRIu64 " (res %d)",
		     kind_name(s->kind), block_off(s->b), cqe->res);
	len = s->n * UNIT;
	if (cqe->res == -EAGAIN) {
		w->eagain++;
		w->retry[w->nretry++] = s - w->slots;
		return;
	}
	if (cqe->res < 0)
		fail(w, "I/O error at offset %" PRIu64 ": %s (%s of %u bytes)",
		     block_off(s->b), strerror(-cqe->res), kind_name(s->kind), len);
	if ((unsigned)cqe->res != len)
		fail(w, "short I/O at offset %" PRIu64 ": %s of %u bytes returned %d",
		     block_off(s->b), kind_name(s->kind), len, cqe->res);
	switch (s->kind) {
	case WR:
		for (uint32_t i = 0; i < s->n; i++)
			gen_tab[s->b + i] = s->gen;
		w->writes++;
		break;
	case RD:
		check_read(w, s);
		w->reads++;
		break;
	case VERIFY:
		check_read(w, s);
		break;
	case RESOLVE:
		resolve(w, s);
		break;
	}
	release(w, s);
}

/* resubmit what completed with -EAGAIN, wait for a completion, handle all
 * there are */
static void reap_some(struct worker *w)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	int ret;

	while (w->nretry && !issue(w, &w->slots[w->retry[w->nretry - 1]]))
		w->nretry--;
	while (!io_uring_cq_ready(&w->ring)) {
		/* returns without a completion now and then (the kernel's
		 * polling loop yields when it should reschedule) */
		ret = io_uring_submit_and_wait(&w->ring, 1);
		if (ret == -EBUSY || ret == -EAGAIN)
			w->refused++;
		else if (ret < 0 && ret != -EINTR)
			fail(w, "waiting for completions: %s", strerror(-ret));
		if (io_uring_cq_has_overflow(&w->ring))
			w->saw_overflow = 1;
	}
	if (io_uring_cq_has_overflow(&w->ring))
		w->saw_overflow = 1;
	io_uring_for_each_cqe(&w->ring, head, cqe) {
		complete(w, cqe);
		n++;
	}
	io_uring_cq_advance(&w->ring, n);
}

static void reap_all(struct worker *w)
{
	while (w->inflight)
		reap_some(w);
}

static void ring_exit(struct worker *w)
{
	io_uring_queue_exit(&w->ring);
	memset(&w->ring, 0, sizeof(w->ring));
}

static int open_dev(struct worker *w, int excl)
{
	int fd = open(opt.dev, O_RDWR | O_DIRECT | (excl ? O_EXCL : 0));

	if (fd < 0 && excl && errno == EBUSY)
		fail(w, "cannot open %s exclusively (O_EXCL): %s; close mode needs a device that nothing else holds",
		     opt.dev, strerror(errno));
	if (fd < 0)
		fail(w, "cannot open %s: %s", opt.dev, strerror(errno));
	return fd;
}

/* --- the modes */

static void run_flood(struct worker *w)
{
	uint64_t issued = 0;

	ring_init(w, opt.depth, 0);
	set_phase(w, "waiting for completions, the queue kept full");
	while (w->reads + w->writes < w->target) {
		while (w->inflight < opt.depth && issued < w->target &&
		       !start_random(w))
			issued++;
		if (!w->inflight)
			fail(w, "could not submit a single I/O (%" PRIu64 " submits refused)",
			     w->refused);
		reap_some(w);
	}
	ring_exit(w);
}

static void run_overflow(struct worker *w)
{
	uint64_t issued = 0;
	unsigned i;

	ring_init(w, opt.cq >= 2 ? opt.cq / 2 : 1, opt.cq);
	w->ovf_cq = w->cq_entries;
	while (issued < w->target) {
		/* liburing enters with IORING_ENTER_GETEVENTS on every
		 * submit to an IOPOLL ring: each submit polls once, without
		 * waiting; the CQEs it posts stay unreaped */
		set_phase(w, "submitting without reaping");
		for (i = 0; i < opt.depth && issued < w->target; i++) {
			if (start_random(w) < 0)
				break;
			issued++;
		}
		if (!i && !w->inflight)
			fail(w, "could not submit a single I/O (%" PRIu64 " submits refused)",
			     w->refused);
		submit(w);
		set_phase(w, "pausing with the completion queue unreaped");
		sleep_ms(opt.pause_ms);
		set_phase(w, "reaping a completion queue that overflowed");
		w->saw_overflow = io_uring_cq_has_overflow(&w->ring);
		reap_all(w);
		w->rounds++;
		w->ovf_rounds += w->saw_overflow;
	}
	ring_exit(w);
}

static void run_close(struct worker *w)
{
	struct slot *s;
	unsigned r, i;

	for (r = 0; r < opt.rounds; r++) {
		ring_init(w, opt.depth, 0);
		set_phase(w, "submitting to a ring about to be closed");
		for (i = 0; i < opt.depth; i++)
			if (start_random(w) < 0)
				break;
		submit(w);
		/* most rounds close at once, some after a moment in which
		 * part of the I/O completes (and is never reaped) */
		if (r % 3)
			sleep_ms(r % 3);
		w->unreaped += io_uring_cq_ready(&w->ring);
		set_phase(w, "the ring was closed with its I/O in flight; waiting for that I/O to end (the device stays claimed until it has)");
		ring_exit(w);
		close(w->fd);
		for (i = 0; (w->fd = open(opt.dev, O_RDWR | O_DIRECT | O_EXCL)) < 0; i++) {
			if (errno != EBUSY)
				fail(w, "cannot open %s exclusively: %s", opt.dev,
				     strerror(errno));
			w->held += !i;
			sleep_ms(1);
		}
		/* the closed ring's I/O has ended: its reads are done with,
		 * its writes are read back */
		ring_init(w, opt.depth, 0);
		set_phase(w, "reading back what the closed ring wrote");
		for (i = 0; i < w->nslots; i++) {
			s = &w->slots[i];
			if (!s->inflight)
				continue;
			if (s->kind == RD) {
				w->reads++;
				release(w, s);
				continue;
			}
			w->writes++;
			s->kind = RESOLVE;
			set_inflight(s, 1);
			while (issue(w, s) < 0)
				reap_some(w);
		}
		reap_all(w);
		ring_exit(w);
	}
}

/* read back every block written, polled, with a fresh ring */
static void verify_all(struct worker *w)
{
	struct slot *s;
	uint64_t b, i;
	uint32_t n;

	ring_init(w, opt.depth, 0);
	set_phase(w, "reading back every block written");
	for (b = w->b0; b < w->b1; b += n) {
		n = w->b1 - b < opt.upi ? w->b1 - b : opt.upi;
		for (i = 0; i < n && !gen_tab[b + i]; i++)
			;
		if (i == n)
			continue;
		while (!(s = take_slot(w)))
			reap_some(w);
		s->b = b;
		s->n = n;
		s->kind = VERIFY;
		w->inflight++;
		set_inflight(s, 1);
		while (issue(w, s) < 0)
			reap_some(w);
	}
	reap_all(w);
	ring_exit(w);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	int ret;

	if (w->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (ret)
			fail(w, "cannot pin the thread to CPU %d: %s", w->cpu, strerror(ret));
	}
	w->fd = open_dev(w, opt.mode == CLOSE);
	switch (opt.mode) {
	case FLOOD:
	case RINGS:
		run_flood(w);
		break;
	case OVERFLOW:
		run_overflow(w);
		break;
	case CLOSE:
		run_close(w);
		break;
	}
	verify_all(w);
	close(w->fd);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* --- the watchdog: an I/O in flight for longer than -T seconds is a hang */

static void watchdog(struct worker *ws, unsigned nw)
{
	int64_t now, limit = opt.limit * 1000000000ll, t0, oldest_t0 = 0;
	struct slot *s, *oldest;
	unsigned running, i, j, stuck;

	for (;;) {
		running = 0;
		now = now_ns();
		for (i = 0; i < nw; i++) {
			struct worker *w = &ws[i];

			if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE))
				continue;
			running++;
			stuck = 0;
			oldest = NULL;
			for (j = 0; j < w->nslots; j++) {
				s = &w->slots[j];
				if (!__atomic_load_n(&s->inflight, __ATOMIC_ACQUIRE))
					continue;
				t0 = __atomic_load_n(&s->t0, __ATOMIC_RELAXED);
				if (now - t0 <= limit)
					continue;
				stuck++;
				if (!oldest || t0 < oldest_t0) {
					oldest = s;
					oldest_t0 = t0;
				}
			}
			if (stuck)
				fail(w, "hang: a %s of %u bytes at offset %" PRIu64
				     " has not completed after %u s (%u I/Os that old; %s)",
				     kind_name(oldest->kind), oldest->n * UNIT,
				     block_off(oldest->b), opt.limit, stuck,
				     __atomic_load_n(&w->phase, __ATOMIC_RELAXED));
		}
		if (!running)
			return;
		sleep_ms(250);
	}
}

/* --- the command line */

static unsigned long long parse_size(const char *s, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		usage_error("%s: not a size: '%s'", what, s);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end)
		usage_error("%s: not a size: '%s'", what, s);
	return v;
}

static unsigned parse_uint(const char *s, const char *what, unsigned min, unsigned max)
{
	unsigned long long v = parse_size(s, what);

	if (v < min || v > max)
		usage_error("%s must be from %u to %u, not %s", what, min, max, s);
	return v;
}

int main(int argc, char **argv)
{
	int depth_set = 0, c, fd;
	unsigned long long devsize;
	unsigned nw, i, ncpus = 0, *cpus;
	struct worker *ws;
	struct stat st;
	cpu_set_t set;
	uint64_t slice, sum[6] = { 0 };
	char cpulist[256] = "", sqlist[256] = "";

	opt.mode = FLOOD;
	opt.bs = UNIT;
	opt.depth = 512;
	opt.nios = 20000;
	opt.wpct = 50;
	opt.cq = 8;
	opt.pause_ms = 500;
	opt.rounds = 20;
	opt.threads = 4;
	opt.limit = 120;
	opt.iopoll = 1;
	while ((c = getopt(argc, argv, "m:b:d:n:w:q:p:r:t:So:s:T:iVxh")) != -1) {
		switch (c) {
		case 'm':
			for (i = 0; i < 4 && strcmp(optarg, mode_names[i]); i++)
				;
			if (i == 4)
				usage_error("-m: no mode '%s' (flood, overflow, close, rings)", optarg);
			opt.mode = i;
			break;
		case 'b': opt.bs = parse_uint(optarg, "-b", UNIT, 64u << 20); break;
		case 'd': opt.depth = parse_uint(optarg, "-d", 1, 32768); depth_set = 1; break;
		case 'n': opt.nios = parse_uint(optarg, "-n", 1, 1u << 31); break;
		case 'w': opt.wpct = parse_uint(optarg, "-w", 0, 100); break;
		case 'q': opt.cq = parse_uint(optarg, "-q", 1, 65536); break;
		case 'p': opt.pause_ms = parse_uint(optarg, "-p", 0, 60000); break;
		case 'r': opt.rounds = parse_uint(optarg, "-r", 1, 1u << 20); break;
		case 't': opt.threads = parse_uint(optarg, "-t", 1, 1024); break;
		case 'S': opt.sqpoll = 1; break;
		case 'o': opt.off = parse_size(optarg, "-o"); break;
		case 's': opt.size = parse_size(optarg, "-s"); opt.size_set = 1; break;
		case 'T': opt.limit = parse_uint(optarg, "-T", 1, 86400); break;
		case 'i': opt.iopoll = 0; break;
		case 'V': case 'x': break;	/* always on */
		case 'h': fputs(usage_text, stdout); return 0;
		default: usage_error("unknown option");
		}
	}
	if (optind != argc - 1)
		usage_error("one device expected");
	opt.dev = argv[optind];
	if (opt.bs % UNIT)
		usage_error("-b %u is not a multiple of %u", opt.bs, UNIT);
	opt.upi = opt.bs / UNIT;
	if (!depth_set)
		opt.depth = opt.mode == OVERFLOW ? 256 : opt.mode == RINGS ? 128 : 512;
	if (opt.sqpoll && opt.mode != RINGS)
		usage_error("-S is for rings mode");
	if (opt.mode == OVERFLOW && opt.pause_ms >= opt.limit * 500u)
		usage_error("-p %u ms is not well below the hang limit -T %u s",
			    opt.pause_ms, opt.limit);
	if (opt.off % UNIT || opt.size % UNIT)
		usage_error("-o and -s must be multiples of %u", UNIT);

	fd = open(opt.dev, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		usage_error("%s: %s", opt.dev, strerror(errno));
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &devsize))
			usage_error("%s: BLKGETSIZE64: %s", opt.dev, strerror(errno));
	} else if (S_ISREG(st.st_mode) && opt.mode != CLOSE) {
		devsize = st.st_size;
	} else {
		usage_error("%s is not a block device%s", opt.dev,
			    opt.mode == CLOSE ? " (close mode needs one)" : " or a file");
	}
	close(fd);
	if (opt.off >= devsize)
		usage_error("-o %llu is beyond the end of %s (%llu bytes)", opt.off,
			    opt.dev, devsize);
	if (!opt.size_set)
		opt.size = (devsize - opt.off) / UNIT * UNIT;
	if (opt.off + opt.size > devsize)
		usage_error("-o %llu -s %llu goes beyond the end of %s (%llu bytes)",
			    opt.off, opt.size, opt.dev, devsize);
	nblocks = opt.size / UNIT;
	nw = opt.mode == RINGS ? opt.threads : 1;
	slice = nblocks / nw;
	if (slice < 2ull * opt.depth * opt.upi)
		usage_error("the region (%llu bytes%s) is too small for %u I/Os of %u bytes in flight: it needs 2 * %u * %u bytes%s; use a smaller -d or -b",
			    opt.size, nw > 1 ? ", split between the rings" : "",
			    opt.depth, opt.bs, opt.depth, opt.bs, nw > 1 ? " per ring" : "");

	gen_tab = calloc(nblocks, sizeof(*gen_tab));
	busy_tab = calloc(nblocks, 1);
	ws = calloc(nw, sizeof(*ws));
	if (!gen_tab || !busy_tab || !ws)
		fail(NULL, "out of memory for %" PRIu64 " blocks", nblocks);
	nonce = mix64(now_ns() ^ ((uint64_t)getpid() << 32) ^ (uintptr_t)&opt) | 1;

	/* the CPUs to pin the rings to: those the program may run on */
	if (sched_getaffinity(0, sizeof(set), &set))
		fail(NULL, "sched_getaffinity: %s", strerror(errno));
	cpus = calloc(CPU_SETSIZE, sizeof(*cpus));
	if (!cpus)
		fail(NULL, "out of memory");
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpus++] = c;

	for (i = 0; i < nw; i++) {
		struct worker *w = &ws[i];
		unsigned j;

		w->idx = i;
		w->cpu = w->sq_cpu = -1;
		w->b0 = i * slice;
		w->b1 = i == nw - 1 ? nblocks : (i + 1) * slice;
		w->target = opt.nios / nw + (i < opt.nios % nw);
		w->rng = nonce + i * 0x100000001b3ull;
		set_phase(w, "starting");
		if (opt.mode == RINGS) {
			w->cpu = cpus[i % ncpus];
			if (opt.sqpoll && ncpus >= 2)
				w->sq_cpu = cpus[(i + 1) % ncpus];
			snprintf(w->where, sizeof(w->where), " (ring %u of %u, CPU %d)",
				 i + 1, nw, w->cpu);
			snprintf(cpulist + strlen(cpulist), sizeof(cpulist) - strlen(cpulist),
				 "%s%d", i ? "," : "", w->cpu);
			snprintf(sqlist + strlen(sqlist), sizeof(sqlist) - strlen(sqlist),
				 "%s%d", i ? "," : "", w->sq_cpu);
		}
		w->nslots = opt.depth;
		w->slots = calloc(w->nslots, sizeof(*w->slots));
		w->freel = calloc(w->nslots, sizeof(*w->freel));
		w->retry = calloc(w->nslots, sizeof(*w->retry));
		if (!w->slots || !w->freel || !w->retry)
			fail(w, "out of memory");
		for (j = 0; j < w->nslots; j++) {
			if (posix_memalign(&w->slots[j].buf, UNIT, opt.bs))
				fail(w, "out of memory for %u buffers of %u bytes",
				     w->nslots, opt.bs);
			w->freel[w->nfree++] = w->nslots - 1 - j;
		}
	}
	for (i = 0; i < nw; i++) {
		c = pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]);
		if (c)
			fail(&ws[i], "pthread_create: %s", strerror(c));
	}
	watchdog(ws, nw);
	for (i = 0; i < nw; i++) {
		pthread_join(ws[i].tid, NULL);
		sum[0] += ws[i].reads;
		sum[1] += ws[i].writes;
		sum[2] += ws[i].eagain;
		sum[3] += ws[i].verified;
		sum[4] += ws[i].refused;
	}

	printf("uring-poll: %s: ", mode_names[opt.mode]);
	switch (opt.mode) {
	case FLOOD:
		break;
	case OVERFLOW:
		printf("%" PRIu64 " rounds of up to %u I/Os with a CQ of %u entries, the CQ overflowed in %" PRIu64 ": ",
		       ws[0].rounds, opt.depth, ws[0].ovf_cq, ws[0].ovf_rounds);
		break;
	case CLOSE:
		printf("%u rings closed with %u I/Os each in flight, %" PRIu64
		       " of their completions posted and never reaped, their I/O held the device after the close in %"
		       PRIu64 " rounds; of the writes %" PRIu64 " landed, %" PRIu64
		       " did not, %" PRIu64 " partly: ",
		       opt.rounds, opt.depth, ws[0].unreaped, ws[0].held, ws[0].landed,
		       ws[0].lost, ws[0].partly);
		break;
	case RINGS:
		printf("%u rings, threads on CPUs %s", nw, cpulist);
		if (opt.sqpoll)
			printf(", SQPOLL threads on CPUs %s", ws[0].sq_cpu >= 0 ? sqlist : "any");
		printf(": ");
		break;
	}
	printf("%" PRIu64 " I/Os (%" PRIu64 " reads, %" PRIu64 " writes)", sum[0] + sum[1],
	       sum[0], sum[1]);
	if (opt.bs != UNIT)
		printf(" of %u bytes", opt.bs);
	printf(", %" PRIu64 " EAGAIN resubmitted", sum[2]);
	if (sum[4])
		printf(", %" PRIu64 " submits refused (EBUSY/EAGAIN)", sum[4]);
	printf(", verified %" PRIu64 " blocks%s\n", sum[3], opt.iopoll ? "" : " (no IOPOLL)");
	return 0;
}
