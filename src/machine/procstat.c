/* SPDX-License-Identifier: GPL-2.0-only */
/* procstat.c - CPU utilisation from /proc/stat. */
#include "machine/procstat.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sysfs.h"
#include "base/util.h"

struct procstat *procstat_new(const char *root)
{
	struct procstat *ps = xcalloc(1, sizeof(*ps));
	ps->path = path_join(root, "proc/stat");
	ps->util_all = NAN;
	ps->fd = -1;
	return ps;
}

/* The whole file from offset 0 into ps->buf: /proc/stat is regenerated on each read
 * from the start, so one open descriptor and a pread() per refresh suffice. */
static char *read_all(struct procstat *ps)
{
	if (ps->refused)
		return NULL;
	if (ps->fd < 0 && (ps->fd = open_regular_at(AT_FDCWD, ps->path)) < 0) {
		ps->refused = errno == EINVAL;
		return NULL;
	}
	if (!ps->cap)
		ps->buf = xmalloc(ps->cap = 16384);
	for (;;) {
		ssize_t n = pread(ps->fd, ps->buf, ps->cap - 1, 0);
		if (n < 0) {
			close(ps->fd);
			ps->fd = -1;
			return NULL;
		}
		if ((size_t)n < ps->cap - 1) {
			ps->buf[n] = '\0';
			return ps->buf;
		}
		ps->buf = xrealloc(ps->buf, ps->cap *= 2); /* many CPUs: read it whole */
		if (ps->cap > (64u << 20))
			return NULL;
	}
}

/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice":
 * idle time is idle + iowait; guest time is already inside user and nice. */
static bool parse_times(const char *line, struct cpu_times *t)
{
	/* by hand, not sscanf: it ran once per CPU every refresh and was most of the
	 * host meters' cost; the digits are plain decimal in any locale */
	uint64_t v[8] = { 0 };
	const char *p = line;
	while (*p && *p != ' ')
		p++; /* the "cpuN" label */
	int n = 0;
	for (; n < 8; n++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		uint64_t x = 0;
		while (*p >= '0' && *p <= '9')
			x = x * 10 + (uint64_t)(*p++ - '0');
		v[n] = x;
	}
	if (n < 4)
		return false;
	uint64_t idle = v[3] + v[4];
	uint64_t total = 0;
	for (int i = 0; i < 8; i++)
		total += v[i];
	t->total = total;
	t->busy = total - idle;
	return true;
}

static double percent(const struct cpu_times *now, const struct cpu_times *prev)
{
	if (now->total <= prev->total || now->busy < prev->busy)
		return NAN;
	return 100.0 * (double)(now->busy - prev->busy) / (double)(now->total - prev->total);
}

/* Make room for CPU number id (rows are kept by CPU number, never by position: a CPU
 * going offline removes its row and must not shift the others). */
static void grow_cpus(struct procstat *ps, int id)
{
	if (id < ps->ncpus)
		return;
	int n = id + 1;
	ps->cpu_id = xrealloc(ps->cpu_id, sizeof(int) * (size_t)n);
	ps->cpu = xrealloc(ps->cpu, sizeof(*ps->cpu) * (size_t)n);
	ps->prev_cpu = xrealloc(ps->prev_cpu, sizeof(*ps->prev_cpu) * (size_t)n);
	ps->util_cpu = xrealloc(ps->util_cpu, sizeof(double) * (size_t)n);
	ps->seen = xrealloc(ps->seen, sizeof(bool) * (size_t)n);
	ps->prev_seen = xrealloc(ps->prev_seen, sizeof(bool) * (size_t)n);
	for (int i = ps->ncpus; i < n; i++) {
		ps->cpu_id[i] = i;
		ps->cpu[i] = ps->prev_cpu[i] = (struct cpu_times){ 0 };
		ps->util_cpu[i] = NAN;
		ps->seen[i] = ps->prev_seen[i] = false;
	}
	ps->ncpus = n;
}

bool procstat_update(struct procstat *ps)
{
	char *text = read_all(ps);
	if (!text)
		return false;
	struct cpu_times all = { 0 };
	bool have_all = false;
	char *save = NULL;
	for (int i = 0; i < ps->ncpus; i++)
		ps->seen[i] = false;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "cpu", 3))
			continue;
		struct cpu_times t;
		if (!parse_times(line, &t))
			continue;
		if (line[3] == ' ') {
			all = t;
			have_all = true;
			continue;
		}
		char *end;
		long id = strtol(line + 3, &end, 10);
		if (end == line + 3 || id < 0 || id >= 1 << 20)
			continue;
		grow_cpus(ps, (int)id);
		ps->cpu[id] = t;
		ps->seen[id] = true;
	}
	if (!have_all)
		return false;
	ps->util_all = ps->primed ? percent(&all, &ps->prev_all) : NAN;
	for (int i = 0; i < ps->ncpus; i++) {
		bool both = ps->primed && ps->seen[i] && ps->prev_seen[i];
		ps->util_cpu[i] = both ? percent(&ps->cpu[i], &ps->prev_cpu[i]) : NAN;
		ps->prev_cpu[i] = ps->cpu[i];
		ps->prev_seen[i] = ps->seen[i];
	}
	ps->prev_all = all;
	ps->all = all;
	ps->primed = true;
	return true;
}

void procstat_free(struct procstat *ps)
{
	if (!ps)
		return;
	if (ps->fd >= 0)
		close(ps->fd);
	free(ps->buf);
	free(ps->path);
	free(ps->cpu_id);
	free(ps->cpu);
	free(ps->prev_cpu);
	free(ps->util_cpu);
	free(ps->seen);
	free(ps->prev_seen);
	free(ps);
}
