/* SPDX-License-Identifier: GPL-2.0-only */
/* facts.c - the machine literals perf's metrics read, read as perf reads them. */
#include "machine/facts.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "base/cpulist.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/pmu.h"

static const char *const names[FACT_COUNT] = {
	[FACT_NUM_CPUS] = "#num_cpus", [FACT_NUM_CPUS_ONLINE] = "#num_cpus_online",
	[FACT_NUM_PACKAGES] = "#num_packages", [FACT_NUM_DIES] = "#num_dies", [FACT_NUM_CORES] = "#num_cores",
	[FACT_SMT_ON] = "#smt_on", [FACT_CORE_WIDE] = "#core_wide", [FACT_TSC_FREQ] = "#system_tsc_freq",
	[FACT_HAS_PMEM] = "#has_pmem",
};

const char *machine_fact_name(enum machine_fact f)
{
	return f < FACT_COUNT ? names[f] : NULL;
}

static char *cpu_file(const struct machine *m, int cpu, const char *name)
{
	char *rel = xasprintf("sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	char *path = path_join(m->root, rel);
	char *text = read_text_file(path, 4096);
	free(rel);
	free(path);
	return text ? chomp_text(text) : NULL;
}

/* The first CPU a topology list names ("0-55,112-167": 0), as an id of its package, die
 * or core: the kernel prints one list for all the CPUs it groups, so equal ids are equal
 * lists (perf counts distinct lists). -1: no file. */
static int list_id(const struct machine *m, int cpu, const char *name, const char *old, bool *smt)
{
	char *t = cpu_file(m, cpu, name);
	if (!t && old)
		t = cpu_file(m, cpu, old);
	if (!t)
		return -1;
	if (smt && (strchr(t, ',') || strchr(t, '-')))
		*smt = true;
	char *end;
	long first = strtol(t, &end, 10);
	free(t);
	return end == t || first < 0 || first > 1 << 22 ? -1 : (int)first;
}

/* Per CPU number (below m->max_cpu), its package's, die's and core's ids; -1 for a CPU
 * that is not online or has no such file. */
struct cpu_topo {
	int package, die, core;
};
_Static_assert(sizeof(struct cpu_topo) == 3 * sizeof(int), "a recording keeps three ints a CPU");

/* How many distinct ids of one kind (offset into struct cpu_topo) the CPUs of sel have. */
static double distinct_ids(const struct machine *m, const struct cpu_topo *topo, size_t field, const struct cpulist *sel)
{
	int cap = m->max_cpu > 0 ? m->max_cpu : 1, n = 0;
	unsigned char *seen = xcalloc((size_t)cap + 1, 1);
	for (int i = 0; i < sel->n; i++) {
		int cpu = sel->cpu[i];
		int id = cpu >= 0 && cpu < m->max_cpu ? *(const int *)((const char *)&topo[cpu] + field) : -1;
		if (id < 0)
			continue;
		if (id > cap) { /* a list naming a CPU past those seen: grow */
			seen = xrealloc(seen, (size_t)id + 1);
			memset(seen + cap + 1, 0, (size_t)(id - cap));
			cap = id;
		}
		n += !seen[id];
		seen[id] = 1;
	}
	free(seen);
	return n;
}

static bool is_x86(const struct machine *m)
{
	return m->cpuid && (str_has_prefix(m->cpuid, "GenuineIntel") || str_has_prefix(m->cpuid, "AuthenticAMD") ||
			    str_has_prefix(m->cpuid, "HygonGenuine"));
}

/* perf's #num_cpus: the highest CPU devices/system/cpu/present names, plus one. */
static double present_cpus(const struct machine *m)
{
	char *path = path_join(m->root, "sys/devices/system/cpu/present");
	char *text = read_text_file(path, 65536);
	free(path);
	struct cpulist l = { 0 };
	double n = NAN;
	if (text && cpulist_parse(chomp_text(text), &l) && l.n)
		n = l.cpu[l.n - 1] + 1;
	cpulist_free(&l);
	free(text);
	return n;
}

/* "model name : ... @ 2.10GHz" of proc/cpuinfo below the root, in Hz; 0 if none says. */
static double cpuinfo_tsc_freq(const struct machine *m)
{
	char *path = path_join(m->root, "proc/cpuinfo");
	char *text = read_text_file(path, 1 << 20);
	free(path);
	double hz = 0;
	for (char *line = text; line && *line && !hz;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		const char *at = str_has_prefix(line, "model name") ? strstr(line + 10, " @ ") : NULL;
		double ghz;
		if (at && sscanf(at, " @ %lfGHz", &ghz) == 1)
			hz = ghz * 1e9;
		line = end ? end + 1 : NULL;
	}
	free(text);
	return hz;
}

static double tsc_freq(const struct machine *m)
{
	if (!m->cpuid || !str_has_prefix(m->cpuid, "GenuineIntel"))
		return 0; /* perf: Intel only */
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (!strcmp(m->root, "/") && __get_cpuid(0, &a, &b, &c, &d) && a >= 0x15) {
		__cpuid_count(0x15, 0, a, b, c, d);
		if (a && b && c)
			return (double)c * (double)b / (double)a;
	}
#endif
	return cpuinfo_tsc_freq(m);
}

static void read_facts(const struct machine *m, double *out, struct cpu_topo *topo)
{
	bool smt = false;
	/* perf counts dies on x86 (and s390) where CPU 0 has a die list; elsewhere none */
	char *die0 = is_x86(m) ? cpu_file(m, 0, "die_cpus_list") : NULL;
	for (int c = 0; c < m->max_cpu; c++)
		topo[c] = (struct cpu_topo){ -1, -1, -1 };
	for (int i = 0; i < m->online.n; i++) {
		int cpu = m->online.cpu[i];
		if (cpu < 0 || cpu >= m->max_cpu)
			continue;
		topo[cpu].package = list_id(m, cpu, "package_cpus_list", "core_siblings_list", NULL);
		topo[cpu].die = die0 ? list_id(m, cpu, "die_cpus_list", NULL, NULL) : -1;
		topo[cpu].core = list_id(m, cpu, "core_cpus_list", "thread_siblings_list", &smt);
	}
	free(die0);
	out[FACT_NUM_CPUS] = present_cpus(m);
	out[FACT_NUM_CPUS_ONLINE] = m->online.n;
	out[FACT_NUM_PACKAGES] = distinct_ids(m, topo, offsetof(struct cpu_topo, package), &m->online);
	out[FACT_NUM_DIES] = distinct_ids(m, topo, offsetof(struct cpu_topo, die), &m->online);
	out[FACT_NUM_CORES] = distinct_ids(m, topo, offsetof(struct cpu_topo, core), &m->online);
	char *path = path_join(m->root, "sys/devices/system/cpu/smt/active");
	char *active = read_text_file(path, 64);
	free(path);
	out[FACT_SMT_ON] = active ? atoi(active) == 1 : smt;
	free(active);
	out[FACT_CORE_WIDE] = 1;
	double hz = tsc_freq(m); /* none known: no value, never a frequency of 0 */
	out[FACT_TSC_FREQ] = hz > 0 ? hz : NAN;
	path = path_join(m->root, "sys/firmware/acpi/tables/NFIT");
	out[FACT_HAS_PMEM] = access(path, F_OK) == 0;
	free(path);
}

/* Read once a machine: the facts, then each online CPU's topology ids, kept with it. */
static const double *facts_of(const struct machine *m)
{
	if (!m->facts) { /* each CPU's topology files: read once, kept with the machine */
		size_t n = (size_t)(m->max_cpu > 0 ? m->max_cpu : 0);
		double *facts = xcalloc(FACT_COUNT * sizeof(double) + n * sizeof(struct cpu_topo) + 1, 1);
		read_facts(m, facts, (struct cpu_topo *)(facts + FACT_COUNT));
		((struct machine *)m)->facts = facts; /* a cache: machines are made on the heap */
	}
	return m->facts;
}

void machine_facts_read(const struct machine *m, double *out)
{
	memcpy(out, facts_of(m), sizeof(double) * FACT_COUNT);
}

void machine_facts_of_cpus(const struct machine *m, const struct cpulist *cpus, double *out)
{
	const double *all = facts_of(m);
	const struct cpu_topo *topo = (const struct cpu_topo *)(all + FACT_COUNT);
	memcpy(out, all, sizeof(double) * FACT_COUNT);
	int n = 0;
	for (int i = 0; i < cpus->n; i++)
		n += cpus->cpu[i] >= 0 && cpus->cpu[i] < m->max_cpu && cpulist_contains(&m->online, cpus->cpu[i]);
	out[FACT_NUM_CPUS] = out[FACT_NUM_CPUS_ONLINE] = n;
	if (n == 1 && cpus->n == 1) { /* a CPU's or a box's row: its own ids, no table (a demo has hundreds) */
		const struct cpu_topo *t = &topo[cpus->cpu[0]];
		out[FACT_NUM_PACKAGES] = t->package >= 0;
		out[FACT_NUM_DIES] = all[FACT_NUM_DIES] > 0 ? t->die >= 0 : all[FACT_NUM_DIES];
		out[FACT_NUM_CORES] = t->core >= 0;
		return;
	}
	out[FACT_NUM_PACKAGES] = distinct_ids(m, topo, offsetof(struct cpu_topo, package), cpus);
	if (all[FACT_NUM_DIES] > 0)
		out[FACT_NUM_DIES] = distinct_ids(m, topo, offsetof(struct cpu_topo, die), cpus);
	out[FACT_NUM_CORES] = distinct_ids(m, topo, offsetof(struct cpu_topo, core), cpus);
}

const double *machine_facts_all(const struct machine *m, const int **topo)
{
	const double *all = facts_of(m);
	*topo = (const int *)(all + FACT_COUNT); /* struct cpu_topo is three ints */
	return all;
}

void machine_facts_set(struct machine *m, const double *facts, const int *topo)
{
	size_t n = (size_t)(m->max_cpu > 0 ? m->max_cpu : 0);
	double *cache = xcalloc(FACT_COUNT * sizeof(double) + n * sizeof(struct cpu_topo) + 1, 1);
	memcpy(cache, facts, sizeof(double) * FACT_COUNT);
	memcpy(cache + FACT_COUNT, topo, n * sizeof(struct cpu_topo));
	free(m->facts);
	m->facts = cache;
}
