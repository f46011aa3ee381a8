/* SPDX-License-Identifier: GPL-2.0-only */
/* pmu.c - the machine's model: PMUs, their formats, aliases and attributes, CPUs and
 * sockets, and lookups in them. Discovery (machine/discover.c) fills it. */
#include "machine/pmu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/hwsensors.h"
#include "machine/pcimap.h"

void pmu_free(struct pmu *p)
{
	free(p->name);
	free(p->dir);
	cpulist_free(&p->cpus);
	cpulist_free(&p->associated);
	for (int i = 0; i < p->nformats; i++) {
		free(p->formats[i].name);
		free(p->formats[i].spec);
	}
	free(p->formats);
	for (int i = 0; i < p->naliases; i++) {
		free(p->aliases[i].name);
		free(p->aliases[i].terms);
		free(p->aliases[i].unit);
	}
	free(p->aliases);
	free(p->alias_index);
	for (int i = 0; i < p->nattrs; i++) {
		free(p->attrs[i].name);
		free(p->attrs[i].value);
	}
	free(p->attrs);
	if (p->hw) {
		free(p->hw->block);
		free(p->hw->device);
		free(p->hw);
	}
	if (p->sensor) {
		free(p->sensor->file);
		free(p->sensor);
	}
}

void machine_free(struct machine *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->npmus; i++)
		pmu_free(&m->pmus[i]);
	free(m->pmus);
	for (int i = 0; i < m->nhwmon; i++) {
		free(m->hwmon[i].name);
		free(m->hwmon[i].dir);
	}
	free(m->hwmon);
	pci_map_free(m->pci);
	if (m->libsensors)
		hw_sensors_done();
	cpulist_free(&m->online);
	free(m->socket_of_cpu);
	free(m->cpuid);
	free(m->facts);
	for (char **w = m->midrs; w && *w; w++)
		free(*w);
	free(m->midrs);
	free(m->root);
	free(m);
}

const struct pmu *machine_find_pmu(const struct machine *m, const char *name)
{
	for (int i = 0; i < m->npmus; i++)
		if (!strcmp(m->pmus[i].name, name))
			return &m->pmus[i];
	/* Intel's uncore PMUs have an 'alias' (uncore_type_6_3 for uncore_imc_3), which perf
	 * takes wherever a PMU name goes */
	for (int i = 0; i < m->npmus; i++) {
		const char *alias = pmu_attr(&m->pmus[i], "alias");
		if (alias && !strcmp(alias, name))
			return &m->pmus[i];
	}
	return NULL;
}

const struct format_field *pmu_find_format(const struct pmu *p, const char *name)
{
	for (int i = 0; i < p->nformats; i++)
		if (!strcmp(p->formats[i].name, name))
			return &p->formats[i];
	return NULL;
}

static int by_alias_name(const void *a, const void *b)
{
	const struct alias_ref *x = a, *y = b;
	int d = strcasecmp(x->name, y->name);
	return d ? d : x->pos - y->pos;
}

void pmu_index_aliases(struct pmu *p)
{
	free(p->alias_index);
	p->alias_index = xmalloc(sizeof(*p->alias_index) * (size_t)(p->naliases ? p->naliases : 1));
	for (int i = 0; i < p->naliases; i++)
		p->alias_index[i] = (struct alias_ref){ p->aliases[i].name, i };
	qsort(p->alias_index, (size_t)p->naliases, sizeof(*p->alias_index), by_alias_name);
	p->nindexed = p->naliases;
}

const struct pmu_alias *pmu_find_alias(const struct pmu *p, const char *name)
{
	if (!p->alias_index || p->nindexed != p->naliases) { /* not indexed (yet) */
		for (int i = 0; i < p->naliases; i++)
			if (!strcasecmp(p->aliases[i].name, name))
				return &p->aliases[i];
		return NULL;
	}
	int lo = 0, hi = p->nindexed; /* the first not below name: the first in file order of equals */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcasecmp(p->alias_index[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nindexed && !strcasecmp(p->alias_index[lo].name, name) ? &p->aliases[p->alias_index[lo].pos] : NULL;
}

const char *pmu_attr(const struct pmu *p, const char *name)
{
	for (int i = 0; i < p->nattrs; i++)
		if (!strcmp(p->attrs[i].name, name))
			return p->attrs[i].value;
	return NULL;
}

char *const *machine_midrs(const struct machine *m)
{
	if (m->midrs)
		return m->midrs;
	char **v = xcalloc((size_t)m->npmus + 1, sizeof(char *));
	int n = 0;
	for (int i = 0; i < m->npmus; i++) {
		const char *midr = pmu_attr(&m->pmus[i], "midr_el1");
		int k = 0;
		while (midr && k < n && strcmp(v[k], midr))
			k++;
		if (midr && k == n)
			v[n++] = xstrdup(midr);
	}
	return ((struct machine *)m)->midrs = v; /* a cache: machines are made on the heap */
}

void pmu_set_only_event(struct pmu *p, const char *name, double scale, const char *unit)
{
	p->aliases = xcalloc(1, sizeof(*p->aliases));
	p->aliases[0] = (struct pmu_alias){ .name = xstrdup(name), .terms = xstrdup("event=0x0"), .scale = scale,
					    .unit = unit ? xstrdup(unit) : NULL };
	p->naliases = 1;
	p->formats = xcalloc(1, sizeof(*p->formats));
	format_parse("config:0-7", &p->formats[0]);
	p->formats[0].name = xstrdup("event");
	p->formats[0].spec = xstrdup("config:0-7");
	p->nformats = 1;
}

int64_t pmu_alias_event_number(const char *terms)
{
	uint64_t v;
	if (!str_has_prefix(terms, "event=") || !parse_u64(terms + 6, &v) || v > INT32_MAX)
		return -1;
	return (int64_t)v;
}

const char *pmu_event_name(const struct pmu *p, uint64_t n)
{
	for (int i = 0; p && i < p->naliases; i++)
		if (pmu_alias_event_number(p->aliases[i].terms) == (int64_t)n)
			return p->aliases[i].name;
	return NULL;
}

int machine_socket_of(const struct machine *m, int cpu)
{
	return cpu >= 0 && cpu < m->max_cpu ? m->socket_of_cpu[cpu] : -1;
}
