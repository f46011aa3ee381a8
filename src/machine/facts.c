/* facts.c - the machine literals perf's metrics read, read as perf reads them. */
#include "machine/facts.h"

#include <math.h>
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

/* How many distinct texts the online CPUs' topology file NAME (else OLD) holds, as
 * perf's cpu_topology counts packages, dies and cores; *smt: one names two CPUs. */
static double distinct_lists(const struct machine *m, const char *name, const char *old, bool *smt)
{
	char **seen = xcalloc((size_t)(m->online.n ? m->online.n : 1), sizeof(char *));
	int n = 0;
	for (int i = 0; i < m->online.n; i++) {
		char *t = cpu_file(m, m->online.cpu[i], name);
		if (!t && old)
			t = cpu_file(m, m->online.cpu[i], old);
		if (!t)
			continue;
		int k = 0;
		while (k < n && strcmp(seen[k], t))
			k++;
		if (k < n) {
			free(t);
			continue;
		}
		if (smt && (strchr(t, ',') || strchr(t, '-')))
			*smt = true;
		seen[n++] = t;
	}
	for (int k = 0; k < n; k++)
		free(seen[k]);
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

static void read_facts(const struct machine *m, double *out)
{
	bool smt = false;
	out[FACT_NUM_CPUS] = present_cpus(m);
	out[FACT_NUM_CPUS_ONLINE] = m->online.n;
	out[FACT_NUM_PACKAGES] = distinct_lists(m, "package_cpus_list", "core_siblings_list", NULL);
	/* perf counts dies on x86 (and s390) where CPU 0 has a die list; elsewhere none */
	char *die0 = is_x86(m) ? cpu_file(m, 0, "die_cpus_list") : NULL;
	out[FACT_NUM_DIES] = die0 ? distinct_lists(m, "die_cpus_list", NULL, NULL) : 0;
	free(die0);
	out[FACT_NUM_CORES] = distinct_lists(m, "core_cpus_list", "thread_siblings_list", &smt);
	char *path = path_join(m->root, "sys/devices/system/cpu/smt/active");
	char *active = read_text_file(path, 64);
	free(path);
	out[FACT_SMT_ON] = active ? atoi(active) == 1 : smt;
	free(active);
	out[FACT_CORE_WIDE] = 1;
	out[FACT_TSC_FREQ] = tsc_freq(m);
	path = path_join(m->root, "sys/firmware/acpi/tables/NFIT");
	out[FACT_HAS_PMEM] = access(path, F_OK) == 0;
	free(path);
}

void machine_facts_read(const struct machine *m, double *out)
{
	if (!m->facts) { /* each CPU's topology files: read once, kept with the machine */
		double *facts = xcalloc(FACT_COUNT, sizeof(double));
		read_facts(m, facts);
		((struct machine *)m)->facts = facts; /* a cache: machines are made on the heap */
	}
	memcpy(out, m->facts, sizeof(double) * FACT_COUNT);
}
