/* SPDX-License-Identifier: GPL-2.0-only */
/* snapshot.c - a machine as text: one record per line, fields separated by tabs, with
 * tab, newline and backslash escaped; a line starting with a blank belongs to the PMU or
 * root port above it. Numbers print exactly (scales with %.17g). */
#include "machine/snapshot.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/facts.h"
#include "machine/pcimap.h"
#include "machine/pmu.h"

#define MAGIC "pmutop-machine 1"

struct out {
	char *buf;
	size_t len, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap)
		o->buf = xrealloc(o->buf, o->cap = (o->len + n + 1) * 2);
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void field(struct out *o, const char *s)
{
	put(o, "\t", 1);
	for (; s && *s; s++) {
		const char *esc = *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\\' ? "\\\\" : NULL;
		put(o, esc ? esc : s, esc ? 2 : 1);
	}
}

static void fieldf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fieldf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	field(o, s);
	free(s);
}

static void record(struct out *o, const char *kind)
{
	put(o, kind, strlen(kind));
}

static void end(struct out *o)
{
	put(o, "\n", 1);
}

static void cpus_field(struct out *o, const struct cpulist *l)
{
	char *buf = xmalloc(65536);
	cpulist_format(l, buf, 65536);
	field(o, buf);
	free(buf);
}

/* The CPU model and the literals perf's metrics read of the machine: a replay picks
 * perf's catalogue and evaluates #smt_on, #num_dies or the TSC's rate as recorded, not
 * from this host or files below a root that is not there. */
static void snapshot_model(struct out *o, const struct machine *m)
{
	if (m->cpuid) {
		record(o, "cpuid");
		field(o, m->cpuid);
		end(o);
	}
	const int *topo;
	const double *facts = machine_facts_all(m, &topo);
	record(o, "facts");
	for (int k = 0; k < FACT_COUNT; k++)
		fieldf(o, "%.17g", facts[k]);
	end(o);
	for (int c = 0; c < m->max_cpu; c++)
		if (topo[3 * c] >= 0 || topo[3 * c + 1] >= 0 || topo[3 * c + 2] >= 0) {
			record(o, "topo");
			fieldf(o, "%d", c);
			for (int k = 0; k < 3; k++)
				fieldf(o, "%d", topo[3 * c + k]);
			end(o);
		}
}

char *machine_snapshot(const struct machine *m)
{
	struct out o = { 0 };
	record(&o, MAGIC);
	end(&o);
	record(&o, "root");
	field(&o, m->root);
	end(&o);
	record(&o, "online");
	cpus_field(&o, &m->online);
	fieldf(&o, "%d", m->max_cpu);
	end(&o);
	for (int c = 0; c < m->max_cpu; c++)
		if (m->socket_of_cpu[c] >= 0) {
			record(&o, "socket");
			fieldf(&o, "%d", c);
			fieldf(&o, "%d", m->socket_of_cpu[c]);
			end(&o);
		}
	for (int i = 0; i < m->npmus; i++) {
		const struct pmu *p = &m->pmus[i];
		record(&o, "pmu");
		field(&o, p->name);
		field(&o, p->dir);
		fieldf(&o, "%d", p->type);
		fieldf(&o, "%d", p->has_cpumask);
		cpus_field(&o, &p->cpus);
		cpus_field(&o, &p->associated);
		end(&o);
		for (int k = 0; k < p->nformats; k++) {
			record(&o, " format");
			field(&o, p->formats[k].name);
			field(&o, p->formats[k].spec);
			end(&o);
		}
		for (int k = 0; k < p->naliases; k++) {
			record(&o, " alias");
			field(&o, p->aliases[k].name);
			field(&o, p->aliases[k].terms);
			fieldf(&o, "%.17g", p->aliases[k].scale);
			fieldf(&o, "%d", p->aliases[k].unit != NULL);
			field(&o, p->aliases[k].unit);
			end(&o);
		}
		for (int k = 0; k < p->nattrs; k++) {
			record(&o, " attr");
			field(&o, p->attrs[k].name);
			field(&o, p->attrs[k].value);
			end(&o);
		}
		if (p->sensor) { /* a replay reads its values from the recording */
			record(&o, " sensor");
			fieldf(&o, "%d", p->sensor->kind);
			end(&o);
		}
		if (p->timer) { /* arm64's generic timer (a replay reads it from the recording) */
			record(&o, " timer");
			end(&o);
		}
		if (p->hw) {
			const struct hw_block *b = p->hw;
			record(&o, " hw");
			fieldf(&o, "%d", (int)b->type);
			field(&o, b->block);
			field(&o, b->device);
			fieldf(&o, "%d", b->ncounters);
			fieldf(&o, "%d", b->width);
			fieldf(&o, "%d", b->has_enable);
			fieldf(&o, "%d", b->gauge);
			fieldf(&o, "%d", b->truncated);
			fieldf(&o, "%llu", (unsigned long long)b->max_listed);
			end(&o);
		}
	}
	snapshot_model(&o, m);
	for (int i = 0; i < m->nhwmon; i++) {
		record(&o, "hwmon");
		field(&o, m->hwmon[i].name);
		field(&o, m->hwmon[i].dir);
		end(&o);
	}
	for (int i = 0; m->pci && i < m->pci->n; i++) {
		const struct pci_port *rp = &m->pci->ports[i];
		record(&o, "pci");
		field(&o, rp->bdf);
		fieldf(&o, "%d", rp->segment);
		fieldf(&o, "%d", rp->bus);
		fieldf(&o, "%d", rp->rp);
		fieldf(&o, "%d", rp->rc);
		fieldf(&o, "%d", rp->socket);
		end(&o);
		for (int k = 0; k < rp->ndevices; k++) {
			record(&o, " dev");
			field(&o, rp->devices[k]);
			end(&o);
		}
	}
	return o.buf;
}

/* ---- reading ---- */

#define MAXF 12

/* Split one line into unescaped fields (the record kind first); returns the count. */
static int split(char *line, char *f[MAXF])
{
	int n = 0;
	char *w = line;
	f[n++] = line;
	for (char *r = line; *r; r++) {
		if (*r == '\t') {
			*w++ = '\0';
			if (n == MAXF)
				return -1;
			f[n++] = w;
		} else if (*r == '\\' && r[1]) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	return n;
}

static bool num(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* The reader's place in a description: the machine, and the PMU and root port the
 * indented records below them belong to. */
struct reading {
	struct machine *m;
	struct pmu *p;
	struct pci_port *rp;
	int pcap, hcap, rcap;
	double *facts; /* the recorded machine's literals, and its CPUs' topology ids */
	int *topo;
	char why[160]; /* what was wrong with the record, where more than "malformed" is known */
};

/* A record's CPU list (empty allowed), its fault said in r->why. */
static bool record_cpus(struct reading *r, const char *text, struct cpulist *out)
{
	if (!*text || cpulist_parse(text, out))
		return true;
	cpulist_explain(text, r->why, sizeof(r->why));
	return false;
}

static bool rec_root(struct reading *r, char **f)
{
	free(r->m->root);
	r->m->root = xstrdup(f[1]);
	return true;
}

static bool rec_cpuid(struct reading *r, char **f)
{
	free(r->m->cpuid);
	r->m->cpuid = xstrdup(f[1]);
	r->m->cpuid_from = "the recording";
	return true;
}

static bool rec_facts(struct reading *r, char **f)
{
	if (!r->m->socket_of_cpu || r->facts)
		return false;
	r->facts = xmalloc(sizeof(double) * FACT_COUNT);
	for (int k = 0; k < FACT_COUNT; k++) {
		char *end;
		r->facts[k] = strtod_c(f[1 + k], &end);
		if (end == f[1 + k] || *end)
			return false;
	}
	r->topo = xmalloc(sizeof(int) * 3 * (size_t)(r->m->max_cpu ? r->m->max_cpu : 1));
	for (int k = 0; k < 3 * r->m->max_cpu; k++)
		r->topo[k] = -1;
	return true;
}

static bool rec_topo(struct reading *r, char **f)
{
	long c, id[3];
	if (!r->topo || !num(f[1], 0, r->m->max_cpu - 1, &c))
		return false;
	for (int k = 0; k < 3; k++)
		if (!num(f[2 + k], -1, 1 << 22, &id[k]))
			return false;
	for (int k = 0; k < 3; k++)
		r->topo[3 * c + k] = (int)id[k];
	return true;
}

static bool rec_online(struct reading *r, char **f)
{
	struct machine *m = r->m;
	long a;
	if (m->socket_of_cpu || !*f[1] || !record_cpus(r, f[1], &m->online) || !num(f[2], 0, 1 << 20, &a))
		return false;
	m->max_cpu = (int)a;
	m->socket_of_cpu = xmalloc(sizeof(int) * (size_t)(a ? a : 1));
	for (long k = 0; k < a; k++)
		m->socket_of_cpu[k] = -1;
	return true;
}

static bool rec_socket(struct reading *r, char **f)
{
	long a, b;
	if (!num(f[1], 0, r->m->max_cpu - 1, &a) || !num(f[2], 0, 1 << 20, &b))
		return false;
	r->m->socket_of_cpu[a] = (int)b;
	return true;
}

static bool rec_pmu(struct reading *r, char **f)
{
	struct machine *m = r->m;
	long a = 0, b = 0;
	bool ok = num(f[3], -1, INT32_MAX, &a) && num(f[4], 0, 1, &b);
	grow_array(&m->pmus, &r->pcap, m->npmus + 1, sizeof(*m->pmus));
	struct pmu *p = r->p = &m->pmus[m->npmus++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(f[1]);
	p->dir = xstrdup(f[2]);
	p->type = (int)a;
	p->has_cpumask = b;
	ok = ok && record_cpus(r, f[5], &p->cpus) && record_cpus(r, f[6], &p->associated);
	if (ok && m->online.n) { /* a recording names no CPU its machine did not have */
		cpulist_intersect(&p->cpus, &m->online);
		cpulist_intersect(&p->associated, &m->online);
	}
	r->rp = NULL;
	return ok;
}

static bool rec_format(struct reading *r, char **f)
{
	struct format_field ff = { 0 };
	if (!format_parse(f[2], &ff))
		return false;
	ff.name = xstrdup(f[1]);
	ff.spec = xstrdup(f[2]);
	r->p->formats = xrealloc(r->p->formats, sizeof(ff) * (size_t)(r->p->nformats + 1));
	r->p->formats[r->p->nformats++] = ff;
	return true;
}

static bool rec_alias(struct reading *r, char **f)
{
	double scale;
	long a;
	if (!parse_double(f[3], &scale) || !num(f[4], 0, 1, &a))
		return false;
	struct pmu *p = r->p;
	p->aliases = xrealloc(p->aliases, sizeof(*p->aliases) * (size_t)(p->naliases + 1));
	p->aliases[p->naliases++] = (struct pmu_alias){ .name = xstrdup(f[1]), .terms = xstrdup(f[2]), .scale = scale,
							.unit = a ? xstrdup(f[5]) : NULL };
	return true;
}

static bool rec_attr(struct reading *r, char **f)
{
	struct pmu *p = r->p;
	p->attrs = xrealloc(p->attrs, sizeof(*p->attrs) * (size_t)(p->nattrs + 1));
	p->attrs[p->nattrs++] = (struct pmu_attr){ .name = xstrdup(f[1]), .value = xstrdup(f[2]) };
	return true;
}

static bool rec_hw(struct reading *r, char **f)
{
	long a, b, c, d, e, g;
	uint64_t maxl;
	if (r->p->hw || !num(f[1], 0, HW_REGISTER, &a) || !num(f[4], 0, 1 << 16, &b) || !num(f[5], 1, 64, &c) ||
	    !num(f[6], 0, 1, &d) || !num(f[7], 0, 1, &e) || !num(f[8], 0, 1, &g) || !parse_u64(f[9], &maxl))
		return false;
	r->p->hw = xcalloc(1, sizeof(*r->p->hw));
	*r->p->hw = (struct hw_block){ .type = (enum hw_block_type)a, .block = xstrdup(f[2]), .device = xstrdup(f[3]),
				       .ncounters = (int)b, .width = (int)c, .has_enable = d, .gauge = e, .truncated = g,
				       .max_listed = maxl };
	return true;
}

static bool rec_sensor(struct reading *r, char **f)
{
	long a;
	if (r->p->sensor || !num(f[1], 0, 3, &a))
		return false;
	r->p->sensor = xcalloc(1, sizeof(*r->p->sensor));
	r->p->sensor->kind = (int)a;
	return true;
}

static bool rec_timer(struct reading *r, char **f)
{
	(void)f;
	if (r->p->timer)
		return false;
	r->p->timer = true;
	return true;
}

static bool rec_hwmon(struct reading *r, char **f)
{
	struct machine *m = r->m;
	grow_array(&m->hwmon, &r->hcap, m->nhwmon + 1, sizeof(*m->hwmon));
	m->hwmon[m->nhwmon++] = (struct hwmon_dev){ .name = xstrdup(f[1]), .dir = xstrdup(f[2]) };
	return true;
}

static bool rec_pci(struct reading *r, char **f)
{
	long a = 0, b = 0, c = 0, d = 0, e = 0;
	bool ok = num(f[2], 0, 0xffff, &a) && num(f[3], 0, 0xff, &b) && num(f[4], -1, 1 << 20, &c) &&
		  num(f[5], -1, 1 << 20, &d) && num(f[6], -1, 1 << 20, &e);
	struct pci_map *pm = r->m->pci;
	grow_array(&pm->ports, &r->rcap, pm->n + 1, sizeof(*pm->ports));
	struct pci_port *rp = r->rp = &pm->ports[pm->n++];
	memset(rp, 0, sizeof(*rp));
	str_copy(rp->bdf, sizeof(rp->bdf), f[1]);
	rp->segment = (int)a, rp->bus = (int)b, rp->rp = (int)c, rp->rc = (int)d, rp->socket = (int)e;
	r->p = NULL;
	return ok;
}

static bool rec_dev(struct reading *r, char **f)
{
	r->rp->devices = xrealloc(r->rp->devices, sizeof(char *) * (size_t)(r->rp->ndevices + 1));
	r->rp->devices[r->rp->ndevices++] = xstrdup(f[1]);
	return true;
}

/* The records of a description: a name, its field count, whether it belongs to the PMU
 * (or root port) above it, and its reader. */
static const struct {
	const char *name;
	int nfields;
	char under; /* 'p': a PMU's, 'r': a root port's, 0: top level */
	bool (*read)(struct reading *r, char **f);
} records[] = {
	{ "root", 2, 0, rec_root },	      { "online", 3, 0, rec_online },	 { "socket", 3, 0, rec_socket },
	{ "pmu", 7, 0, rec_pmu },	      { " format", 3, 'p', rec_format }, { " alias", 6, 'p', rec_alias },
	{ " attr", 3, 'p', rec_attr },	      { " hw", 10, 'p', rec_hw },	 { " sensor", 2, 'p', rec_sensor },
	{ " timer", 1, 'p', rec_timer },
	{ "hwmon", 3, 0, rec_hwmon },	      { "pci", 7, 0, rec_pci },	 { " dev", 2, 'r', rec_dev },
	{ "cpuid", 2, 0, rec_cpuid },	      { "facts", 1 + FACT_COUNT, 0, rec_facts }, { "topo", 5, 0, rec_topo },
};

static bool read_record(struct reading *r, char **f, int n)
{
	for (size_t i = 0; n > 0 && i < sizeof(records) / sizeof(records[0]); i++)
		if (!strcmp(f[0], records[i].name) && n == records[i].nfields)
			return (records[i].under != 'p' || r->p) && (records[i].under != 'r' || r->rp) && records[i].read(r, f);
	return false;
}

struct machine *machine_from_snapshot(const char *text, char **err)
{
	*err = NULL;
	if (!text || strncmp(text, MAGIC "\n", strlen(MAGIC) + 1)) {
		*err = xstrdup("not a pmutop machine description");
		return NULL;
	}
	struct machine *m = xcalloc(1, sizeof(*m));
	m->pci = xcalloc(1, sizeof(*m->pci));
	struct reading r = { .m = m };
	char *copy = xstrdup(text + strlen(MAGIC) + 1), *save = NULL;
	int lineno = 1;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		char *f[MAXF];
		int n = split(line, f);
		if (!read_record(&r, f, n)) {
			*err = xasprintf("line %d: malformed '%s' record%s%s", lineno, n > 0 ? f[0] : "?", *r.why ? ": " : "",
					 r.why);
			break;
		}
	}
	free(copy);
	if (!*err && (!m->root || !m->socket_of_cpu))
		*err = xstrdup("incomplete: no root or no CPUs");
	if (!*err && r.facts) /* (a recording before these kept none: read as before) */
		machine_facts_set(m, r.facts, r.topo);
	free(r.facts);
	free(r.topo);
	if (*err) {
		if (!m->root)
			m->root = xstrdup("");
		if (!m->socket_of_cpu)
			m->socket_of_cpu = xcalloc(1, sizeof(int));
		machine_free(m);
		return NULL;
	}
	if (!m->pci->n) {
		pci_map_free(m->pci);
		m->pci = NULL;
	}
	for (int i = 0; i < m->npmus; i++)
		pmu_index_aliases(&m->pmus[i]);
	return m;
}
