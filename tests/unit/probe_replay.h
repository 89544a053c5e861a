/*
 * probe_replay.h - one case of a probe's instruction table run through the
 * engine and compared with what the GPU recorded (test_exec_table,
 * test_exec_f16): the rows made by the probe's own row function, the
 * kernel named after the case launched over them on the mock machine, the
 * outputs against the case's line of the results. One TAP line a case;
 * the first differing row is printed. Include after tap.h, exec_mock.h
 * and probe_rows.h.
 */
#ifndef PROBE_REPLAY_H
#define PROBE_REPLAY_H

/* A probe's row i of generator gen: the kernel's three inputs. */
typedef void (*probe_row_fn)(int gen, int i, uint64_t *a, uint64_t *b,
			     uint64_t *c);
/* Whether got stands for want (a: the row's first input); NULL: bits. */
typedef bool (*probe_same_fn)(const char *name, uint64_t a, uint64_t got,
			      uint64_t want);

/* The buffers a replay launches over, each 4,096 rows. */
struct probe_bufs {
	uint64_t *a, *b, *c, *d;
};

static inline void replay_case(struct mock *mk, struct ex_module *m,
			       const char *res, const char *name, int n,
			       int gen, probe_row_fn row, probe_same_fn same,
			       const struct probe_bufs *x, int pass)
{
	static uint64_t want[4096];
	const char *how = pass ? "" : " (baseline)";
	int got = recorded(res, name, want, 4096), bad = -1;
	struct ex_result r;

	for (int i = 0; i < n && i < 4096; i++) {
		row(gen, i, &x->a[i], &x->b[i], &x->c[i]);
		x->d[i] = 0xcdcdcdcdcdcdcdcdull;
	}
	struct {
		uint64_t a, b, c, d;
		int32_t n;
	} params = { (uintptr_t)x->a, (uintptr_t)x->b, (uintptr_t)x->c,
		     (uintptr_t)x->d, n };
	struct ex_launch l = mock_launch(mk, m, name, &params,
					 (uint32_t)(n + 127) / 128, 1, 128, 1, 1);
	l.baseline = !pass;
	if (got != n || l.kernel < 0) {
		ok(0, "%s%s: %d rows recorded, the kernel is in the PTX", name,
		   how, got);
		return;
	}
	if (ex_launch_run(&l, &r) != EX_OK) {
		ok(0, "%s%s runs", name, how);
		printf("#   %s\n", r.message);
		return;
	}
	for (int i = 0; i < n && bad < 0; i++)
		if (same ? !same(name, x->a[i], x->d[i], want[i])
			 : x->d[i] != want[i])
			bad = i;
	if (!ok(bad < 0, "%s%s: %d rows as the GPU computed them", name, how, n))
		printf("#   row %d: a=%llx b=%llx c=%llx: got %llx, want %llx\n",
		       bad, (unsigned long long)x->a[bad],
		       (unsigned long long)x->b[bad],
		       (unsigned long long)x->c[bad],
		       (unsigned long long)x->d[bad],
		       (unsigned long long)want[bad]);
}

#endif
