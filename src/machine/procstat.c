/* procstat.c - CPU utilisation from /proc/stat. */
#include "machine/procstat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysfs.h"
#include "base/util.h"

struct procstat *procstat_new(const char *root)
{
	struct procstat *ps = xcalloc(1, sizeof(*ps));
	ps->path = path_join(root, "proc/stat");
	ps->util_all = NAN;
	return ps;
}

/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice":
 * idle time is idle + iowait; guest time is already inside user and nice. */
static bool parse_times(const char *line, struct cpu_times *t)
{
	unsigned long long v[8] = { 0 };
	int n = sscanf(line, "%*s %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		       &v[6], &v[7]);
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

bool procstat_update(struct procstat *ps)
{
	char *text = read_text_file(ps->path, 1 << 20);
	if (!text)
		return false;
	int n = 0;
	struct cpu_times all = { 0 };
	bool have_all = false;
	char *save = NULL;
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
		int id = atoi(line + 3);
		if (n >= ps->ncpus) {
			ps->cpu_id = xrealloc(ps->cpu_id, sizeof(int) * (size_t)(n + 1));
			ps->cpu = xrealloc(ps->cpu, sizeof(*ps->cpu) * (size_t)(n + 1));
			ps->prev_cpu = xrealloc(ps->prev_cpu, sizeof(*ps->prev_cpu) * (size_t)(n + 1));
			ps->util_cpu = xrealloc(ps->util_cpu, sizeof(double) * (size_t)(n + 1));
			ps->prev_cpu[n] = (struct cpu_times){ 0 };
			ps->ncpus = n + 1;
		}
		ps->cpu_id[n] = id;
		ps->cpu[n++] = t;
	}
	free(text);
	if (!have_all)
		return false;
	ps->ncpus = n;
	ps->util_all = ps->primed ? percent(&all, &ps->prev_all) : NAN;
	for (int i = 0; i < n; i++) {
		ps->util_cpu[i] = ps->primed ? percent(&ps->cpu[i], &ps->prev_cpu[i]) : NAN;
		ps->prev_cpu[i] = ps->cpu[i];
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
	free(ps->path);
	free(ps->cpu_id);
	free(ps->cpu);
	free(ps->prev_cpu);
	free(ps->util_cpu);
	free(ps);
}
