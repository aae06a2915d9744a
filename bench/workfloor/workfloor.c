// workfloor: the least work a reader of a TREC qrels file and run must do
// to compute MAP, in plain C at -O3, as a floor for issue 23's end-to-end
// figures next to bench/linefloor (which only finds the line ends).
//
// It reads both files once, side by side, through 1 MiB buffers (as
// linefloor does), assumes what rankmetrics must check (both sorted by qid
// in the same order, 4 qrels fields, at least 6 run fields, well-formed
// decimal numbers) and checks none of it: it finds the line ends (memchr),
// cuts each line into fields at bytes <= ' ', parses the relevance and the
// score (plain decimals: digits, a point, digits; exact for bench/gen's
// numbers), puts the judged documents of a query in a hash table (a docno
// of at most 8 bytes is its own 64-bit key, a longer one is hashed; open
// addressing, cleared per query), looks
// each ranked document up, sorts a query's documents by score and sums its
// average precision. No line numbers, no error paths, no duplicate
// policy, no output format: what remains is the work no correct reader can
// skip. It prints the MAP over the queries of the run (ties broken by
// input order, so it may differ from trec_eval's in the last digits) and
// the seconds of the best of -reps runs.
//
//   gcc -O3 -march=native bench/workfloor/workfloor.c -o workfloor
//   workfloor QRELS RUN [REPS]
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { BUF = 1 << 20 };

typedef struct {
	int fd;
	char *buf;
	size_t pos, end;
	int eof;
} reader;

static void reader_open(reader *r, const char *path) {
	r->fd = open(path, O_RDONLY);
	if (r->fd < 0) {
		perror(path);
		exit(1);
	}
	if (!r->buf) r->buf = malloc(BUF);
	r->pos = r->end = 0;
	r->eof = 0;
}

// next_line returns the next line (without '\n') and its length, or NULL.
static const char *next_line(reader *r, size_t *n) {
	for (;;) {
		char *p = r->buf + r->pos;
		char *nl = memchr(p, '\n', r->end - r->pos);
		if (nl) {
			*n = (size_t)(nl - p);
			r->pos += *n + 1;
			return p;
		}
		if (r->eof) {
			if (r->pos < r->end) {
				*n = r->end - r->pos;
				r->pos = r->end;
				return p;
			}
			return NULL;
		}
		size_t rest = r->end - r->pos;
		memmove(r->buf, p, rest);
		r->pos = 0;
		r->end = rest;
		ssize_t got = read(r->fd, r->buf + rest, BUF - rest);
		if (got <= 0) r->eof = 1;
		else r->end += (size_t)got;
	}
}

// fields cuts line b of n bytes at bytes <= ' ' into at most max fields.
static int fields(const char *b, size_t n, const char **f, size_t *len, int max) {
	int k = 0;
	size_t i = 0;
	while (i < n && k < max) {
		while (i < n && (unsigned char)b[i] <= ' ') i++;
		if (i == n) break;
		size_t j = i;
		while (j < n && (unsigned char)b[j] > ' ') j++;
		f[k] = b + i;
		len[k] = j - i;
		k++;
		i = j;
	}
	return k;
}

static const double pow10tab[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static double parse_num(const char *b, size_t n) {
	size_t i = 0;
	int neg = 0;
	if (i < n && (b[i] == '-' || b[i] == '+')) neg = b[i++] == '-';
	uint64_t m = 0;
	int exp = 0;
	for (; i < n && (unsigned)(b[i] - '0') <= 9; i++) m = m * 10 + (uint64_t)(b[i] - '0');
	if (i < n && b[i] == '.')
		for (i++; i < n && (unsigned)(b[i] - '0') <= 9; i++, exp--) m = m * 10 + (uint64_t)(b[i] - '0');
	double v = (double)m;
	if (exp < 0) v /= pow10tab[-exp];
	return neg ? -v : v;
}

// load8 reads the first min(n, 8) bytes of b as a little-endian word,
// zeros above: a docno of at most 8 bytes is its own key, compared with
// one instruction (runio's short ids do the same).
static inline uint64_t load8(const char *b, size_t n) {
	uint64_t w = 0;
	if (n >= 8) {
		memcpy(&w, b, 8);
		return w;
	}
	if (n & 4) {
		uint32_t x;
		memcpy(&x, b, 4);
		uint32_t y;
		memcpy(&y, b + n - 4, 4);
		return (uint64_t)x | (uint64_t)y << (8 * (n - 4));
	}
	for (size_t i = 0; i < n; i++) w |= (uint64_t)(unsigned char)b[i] << (8 * i);
	return w;
}

static inline uint64_t mix(uint64_t h) {
	h *= 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

static uint64_t hash_long(const char *b, size_t n) {
	uint64_t h = 0x243f6a8885a308d3ull ^ n;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, b, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		b += 8;
		n -= 8;
	}
	return mix(h ^ load8(b, n));
}

enum { SLOTS = 1 << 12, MAXDOCS = SLOTS / 2, ARENA = 1 << 20 };

// A slot holds the docno's key (itself when at most 8 bytes), its length
// (0: empty) and its relevance; longer docnos are compared in the arena.
typedef struct {
	uint64_t key;
	uint32_t off, n;
	double rel;
} slot;

typedef struct {
	slot s[SLOTS];
	uint16_t used[MAXDOCS];
	int nused;
	char arena[ARENA];
	size_t arenaLen;
} table;

static void table_clear(table *t) {
	for (int i = 0; i < t->nused; i++) t->s[t->used[i]].n = 0;
	t->nused = 0;
	t->arenaLen = 0;
}

static inline uint64_t key_of(const char *d, size_t n) { return n <= 8 ? load8(d, n) : hash_long(d, n); }

static inline int same(const table *t, const slot *s, uint64_t key, const char *d, size_t n) {
	return s->key == key && s->n == n && (n <= 8 || memcmp(t->arena + s->off, d, n) == 0);
}

static void table_put(table *t, const char *d, size_t n, double rel) {
	uint64_t key = key_of(d, n);
	for (size_t i = mix(key ^ n) & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
		slot *s = &t->s[i];
		if (s->n == 0) {
			if (t->nused == MAXDOCS || t->arenaLen + n > ARENA) {
				fprintf(stderr, "workfloor: too many judgments in a query\n");
				exit(1);
			}
			if (n > 8) memcpy(t->arena + t->arenaLen, d, n);
			*s = (slot){key, (uint32_t)t->arenaLen, (uint32_t)n, rel};
			t->arenaLen += n > 8 ? n : 0;
			t->used[t->nused++] = (uint16_t)i;
			return;
		}
		if (same(t, s, key, d, n)) return;
	}
}

static double table_get(const table *t, const char *d, size_t n) {
	uint64_t key = key_of(d, n);
	for (size_t i = mix(key ^ n) & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
		const slot *s = &t->s[i];
		if (s->n == 0) return 0;
		if (same(t, s, key, d, n)) return s->rel;
	}
}

typedef struct {
	double score;
	int rel;
	int idx;
} item;

static inline int before(const item *x, const item *y) {
	return x->score > y->score || (x->score == y->score && x->idx < y->idx);
}

// sort_items sorts by score, highest first (input order among ties): a
// quicksort inlined with its comparison, insertion sort below 16 items
// (qsort's call per comparison took most of the time).
static void sort_items(item *it, int n) {
	while (n > 16) {
		item p = it[n / 2];
		int i = 0, j = n - 1;
		while (i <= j) {
			while (before(&it[i], &p)) i++;
			while (before(&p, &it[j])) j--;
			if (i <= j) {
				item x = it[i];
				it[i++] = it[j];
				it[j--] = x;
			}
		}
		if (j + 1 < n - i) {
			sort_items(it, j + 1);
			it += i;
			n -= i;
		} else {
			sort_items(it + i, n - i);
			n = j + 1;
		}
	}
	for (int i = 1; i < n; i++) {
		item x = it[i];
		int j = i;
		while (j > 0 && before(&x, &it[j - 1])) {
			it[j] = it[j - 1];
			j--;
		}
		it[j] = x;
	}
}

// same_qid compares a line's qid with the query's: one word compare when
// it is at most 8 bytes long.
static inline int same_qid(const char *a, size_t n, const char *qid, size_t qidn) {
	if (n != qidn) return 0;
	return n <= 8 ? load8(a, n) == load8(qid, n) : memcmp(a, qid, n) == 0;
}

static double pass(const char *qpath, const char *rpath, reader *q, reader *r, table *t, item **items, int *cap, long *queries) {
	reader_open(q, qpath);
	reader_open(r, rpath);
	const char *f[6];
	size_t fl[6];
	char qid[256];
	size_t qidn = 0;
	double sum = 0;
	long nq = 0;
	size_t n;
	const char *ql = next_line(q, &n), *rl;
	size_t qn = n;
	rl = next_line(r, &n);
	size_t rn = n;
	while (rl) {
		// The run's query: its qid, then its judgments, then its lines.
		fields(rl, rn, f, fl, 6);
		qidn = fl[0] < sizeof qid ? fl[0] : sizeof qid - 1;
		memcpy(qid, f[0], qidn);
		table_clear(t);
		int relevant = 0;
		while (ql) {
			fields(ql, qn, f, fl, 4);
			if (!same_qid(f[0], fl[0], qid, qidn)) break;
			double rel = parse_num(f[3], fl[3]);
			relevant += rel > 0;
			table_put(t, f[2], fl[2], rel);
			ql = next_line(q, &qn);
		}
		int k = 0;
		while (rl) {
			fields(rl, rn, f, fl, 6);
			if (!same_qid(f[0], fl[0], qid, qidn)) break;
			if (k == *cap) {
				*cap = *cap ? 2 * *cap : 1024;
				*items = realloc(*items, (size_t)*cap * sizeof **items);
			}
			(*items)[k] = (item){parse_num(f[4], fl[4]), table_get(t, f[2], fl[2]) > 0, k};
			k++;
			rl = next_line(r, &rn);
		}
		sort_items(*items, k);
		double ap = 0;
		int hits = 0;
		for (int i = 0; i < k; i++)
			if ((*items)[i].rel) ap += (double)++hits / (i + 1);
		sum += relevant ? ap / relevant : 0;
		nq++;
	}
	close(q->fd);
	close(r->fd);
	*queries = nq;
	return nq ? sum / nq : 0;
}

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: workfloor QRELS RUN [REPS]\n");
		return 2;
	}
	int reps = argc > 3 ? atoi(argv[3]) : 5;
	reader q = {0}, r = {0};
	table *t = calloc(1, sizeof *t);
	item *items = NULL;
	int cap = 0;
	long nq = 0;
	double best = 1e300, map = 0;
	for (int i = -1; i < reps; i++) { // one warm-up run
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		map = pass(argv[1], argv[2], &q, &r, t, &items, &cap, &nq);
		clock_gettime(CLOCK_MONOTONIC, &b);
		double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
		if (i >= 0 && s < best) best = s;
	}
	printf("{\"peer\": \"floor-work-c\", \"queries\": %ld, \"map\": %.6f, \"seconds\": %.4f}\n", nq, map, best);
	return 0;
}
