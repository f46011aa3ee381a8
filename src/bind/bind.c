/* SPDX-License-Identifier: GPL-2.0-only */
/* bind.c - bind profiles to a machine: each group's instances (one per PMU it matches,
 * per CPU, per root port; sums over sockets and the machine), their names, labels and
 * details, then the static halves of frames. Their events are encoded by
 * instance_encode.c, their values made by bind_values.c. */
#include "bind/bind.h"
#include "bind/bind_blend.h"
#include "bind/bind_cpu_sums.h"
#include "bind/bind_limits.h"
#include "profile/profile_match.h"
#include "bind/bind_values.h"
#include "bind/constraint_note.h"
#include "bind/event_groups.h"
#include "bind/instance.h"
#include "profile/profile_prune.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/expr.h"
#include "base/numtext.h"
#include "base/util.h"
#include "bind/counter_share.h"
#include "machine/cpuid.h"
#include "machine/encode_memo.h"
#include "machine/pcimap.h"


/* The '}' that closes the '{' at p, counting nested braces, or NULL. */
static const char *closing_brace(const char *p)
{
	int depth = 0;
	for (; *p; p++)
		if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return p;
	return NULL;
}

struct template_ctx {
	const struct machine *m;
	char (*caps)[2][64];
	int ncaps, cpu;
	const struct pmu *pmu;
};

static char *expand(const struct template_ctx *c, const char *tmpl);

/* {@ATTR}: the PMU's attribute; {@PMU/ATTR}: another PMU's (the IIO stack's dieN for its
 * free-running twin, which has none). ATTR and PMU may hold {names}. */
static const char *template_attr(const struct template_ctx *c, const char *inner, size_t n)
{
	char *text = xstrndup(inner, n);
	char *name = expand(c, text);
	const struct pmu *pmu = c->pmu;
	char *attr = strrchr(name, '/');
	if (attr) {
		*attr++ = '\0';
		pmu = c->m ? machine_find_pmu(c->m, name) : NULL;
	}
	const char *val = pmu ? pmu_attr(pmu, attr ? attr : name) : NULL;
	free(name);
	free(text);
	return val;
}

/* Substitute {name} in tmpl from the captures (and {cpu} where there is one, {@ATTR}). */
static char *expand(const struct template_ctx *c, const char *tmpl)
{
	size_t cap = strlen(tmpl) + 64, len = 0;
	char *out = xmalloc(cap);
	for (const char *p = tmpl; *p;) {
		const char *val = NULL;
		char num[16];
		size_t skip = 1;
		const char *close = *p == '{' ? closing_brace(p) : NULL;
		if (close) {
			size_t n = (size_t)(close - p - 1);
			for (int i = 0; i < c->ncaps && !val; i++)
				if (strlen(c->caps[i][0]) == n && !strncmp(c->caps[i][0], p + 1, n))
					val = c->caps[i][1];
			if (!val && n > 1 && p[1] == '@')
				val = template_attr(c, p + 2, n - 1);
			if (!val && n == 3 && !strncmp(p + 1, "cpu", 3) && c->cpu >= 0) {
				format_int(num, sizeof(num), c->cpu);
				val = num;
			}
			if (val)
				skip = n + 2;
		}
		size_t add = val ? strlen(val) : 1;
		if (len + add + 1 > cap)
			out = xrealloc(out, cap = (len + add + 1) * 2);
		memcpy(out + len, val ? val : p, add);
		len += add;
		p += skip;
	}
	out[len] = '\0';
	return out;
}

static char *expand_template(const struct machine *m, const char *tmpl, char caps[][2][64], int ncaps, int cpu,
			     const struct pmu *pmu)
{
	return expand(&(struct template_ctx){ m, caps, ncaps, cpu, pmu }, tmpl);
}


static int capture_int(char caps[][2][64], int ncaps, const char *name)
{
	for (int i = 0; i < ncaps; i++) {
		uint64_t v;
		if (!strcmp(caps[i][0], name) && parse_u64(caps[i][1], &v) && v < 1u << 20)
			return (int)v;
	}
	return -1;
}

static void add_detail(struct instance *inst, char *line)
{
	inst->details = xrealloc(inst->details, sizeof(char *) * (size_t)(inst->ndetails + 1));
	inst->details[inst->ndetails++] = line;
}

/* The instance is a PCIe root complex ("SOCKET RC" from the group's pci_rc): its lspci
 * segment goes into its label and display name, its root ports and the devices behind
 * them into its details, from the machine's PCI map. Takes ids. */
static void describe_root_complex(const struct machine *m, struct instance *inst, char *ids)
{
	int socket = -1, rc = -1;
	if (sscanf(ids, "%d %d", &socket, &rc) != 2) {
		diag_warn("%s: pci_rc '%s' is not two numbers (socket and RC)", inst->group->name, ids);
		free(ids);
		return;
	}
	free(ids);
	const struct pci_map *pm = m->pci;
	for (int i = 0; pm && i < pm->n; i++) {
		const struct pci_port *rp = &pm->ports[i];
		if (rp->socket != socket || rp->rc != rc)
			continue;
		if (!inst->ndetails) { /* lspci's segment:bus of the RC's first root port */
			char seg[16];
			snprintf(seg, sizeof(seg), "%04x:%02x", rp->segment, rp->bus);
			instance_add_label(inst, "segment", seg);
			char *d = xasprintf("%s (%s)", inst->display ? inst->display : inst->name, seg);
			free(inst->display);
			inst->display = d;
		}
		add_detail(inst, xasprintf("RP%d %s", rp->rp, rp->bdf));
		if (inst->nrps < (int)ARRAY_SIZE(inst->rps))
			inst->rps[inst->nrps++] = rp->rp;
		for (int k = 0; k < rp->ndevices; k++)
			add_detail(inst, xasprintf(" %s", rp->devices[k]));
	}
	if (!inst->ndetails)
		add_detail(inst, xstrdup("root ports unknown: the PCI config space shows no root complex map "
					 "(reading it needs root)"));
}

/* The instance is a PCI host bridge (an Intel IIO stack) whose root bus "SEG:BUS" the
 * group's pci_bus gives (the driver's dieN attribute): the segment:bus goes into its
 * label and display name, the devices on that bus and behind its bridges into its
 * details. No such attribute (Sapphire Rapids' 6.12 driver prints none): nothing said.
 * Takes text. */
static void describe_pci_bus(const struct machine *m, struct instance *inst, char *text)
{
	unsigned seg, bus;
	char tail;
	if (sscanf(text, "%x:%x%c", &seg, &bus, &tail) != 2 || seg > 0xffff || bus > 0xff) {
		if (!strchr(text, '{')) /* an unexpanded template: the driver has no map here */
			diag_warn("%s, instance %s: pci_bus %s reads '%.40s%s', not SEGMENT:BUS", inst->group->name,
				  inst->name, inst->group->pci_bus, text, strlen(text) > 40 ? "..." : "");
		free(text);
		return;
	}
	free(text);
	char where[16];
	snprintf(where, sizeof(where), "%04x:%02x", seg, bus);
	instance_add_label(inst, "segment", where);
	char *d = xasprintf("%s (%s)", inst->display ? inst->display : inst->name, where);
	free(inst->display);
	inst->display = d;
	char **devices;
	int n = pci_bus_devices(m->root, seg, bus, &devices);
	for (int i = 0; i < n; i++)
		add_detail(inst, devices[i]);
	free(devices);
	if (!n)
		add_detail(inst, xasprintf("no PCI device on bus %s", where));
}

/* {socket} for a template whose PMU name captured none: the socket of the instance's
 * CPU (Intel's per-CPU instances, Grace's NUMA-node suffixes, AMD's UMC index).
 * Returns the new number of captures. */
static int add_socket_capture(char caps[][2][64], int ncaps, int socket)
{
	if (capture_int(caps, ncaps, "socket") >= 0 || ncaps >= PROFILE_MAX_CAPS || socket < 0)
		return ncaps;
	memcpy(caps[ncaps][0], "socket", sizeof("socket"));
	format_int(caps[ncaps][1], sizeof(caps[ncaps][1]), socket);
	return ncaps + 1;
}

/* bind_pmu_instance's cpu for a group counting tasks: one instance, "all" of them */
#define CPU_OF_TASKS (-2)

/* The instance's events encoded; an encoding error makes it unavailable, and is said. */
static void encode_or_say(struct session *s, struct instance *inst)
{
	char *err;
	if (instance_encode(s, inst, &err) < 0) {
		diag_warn("%s: group %s, instance %s: %s", inst->profile->path, inst->group->name, inst->name, err);
		free(inst->unavailable);
		inst->unavailable = err;
	}
}

static void bind_pmu_instance(struct session *s, int *cap, struct profile *prof, const struct prof_group *g,
			      const struct pmu *p, char caps[][2][64], int ncaps, int cpu)
{
	struct instance *inst = instance_add(s, cap);
	inst->profile = prof;
	inst->group = g;
	inst->pmu = p;
	for (int i = 0; i < ncaps; i++)
		instance_add_label(inst, caps[i][0], caps[i][1]);
	if (cpu >= 0) {
		char num[16];
		cpulist_add(&inst->cpus, cpu);
		inst->socket = machine_socket_of(s->machine, cpu);
		/* an uncore PMU counting on several sockets (Intel's cpumask "0,56"): its
		 * per-CPU instances are per socket, and {socket} in a template is the CPU's */
		ncaps = add_socket_capture(caps, ncaps, inst->socket);
		inst->name = expand_template(s->machine, g->instance ? g->instance : "cpu{cpu}", caps, ncaps, cpu, p);
		format_int(num, sizeof(num), cpu);
		instance_add_label(inst, "cpu", num);
	} else if (cpu == CPU_OF_TASKS) {
		/* one counter an event, on whichever CPU the tasks run (the source opens it for
		 * any CPU): its CPU here is only where it is read */
		if (p->cpus.n)
			cpulist_add(&inst->cpus, p->cpus.cpu[0]);
		inst->socket = -1;
		inst->name = xasprintf("all%s", g->aggregate_suffix ? g->aggregate_suffix : "");
	} else {
		cpulist_copy(&inst->cpus, &p->cpus);
		if (s->some_cpus && pmu_counts_tasks(p)) /* -C: those of its CPUs alone */
			cpulist_intersect(&inst->cpus, &s->only_cpus);
		inst->socket = capture_int(caps, ncaps, "socket");
		uint64_t node;
		const char *sock = p->sensor ? pmu_attr(p, "socket") : NULL;
		if (p->sensor || p->timer) /* a sensor's socket is its device's NUMA node, or none: the machine's */
			inst->socket = sock && parse_u64(sock, &node) && node < 4096 ? (int)node : -1;
		else if (inst->socket < 0 && p->cpus.n)
			inst->socket = machine_socket_of(s->machine, p->cpus.cpu[0]);
		/* a PMU named by something else (Grace's NUMA node): {socket} is its CPU's */
		if (!p->sensor)
			ncaps = add_socket_capture(caps, ncaps, inst->socket);
		inst->name = g->instance ? expand_template(s->machine, g->instance, caps, ncaps, -1, p) : xstrdup(p->name);
	}
	if (inst->socket >= 0) {
		char num[16];
		format_int(num, sizeof(num), inst->socket);
		instance_add_label(inst, "socket", num);
	}
	if (p->sensor) { /* a sensor is known by its chip and label, as sensors(1) shows them */
		instance_add_label(inst, "chip", pmu_attr(p, "chip") ? pmu_attr(p, "chip") : "");
		instance_add_label(inst, "label", pmu_attr(p, "label") ? pmu_attr(p, "label") : "");
	}
	instance_alloc_arrays(inst);
	instance_read_attrs(inst);
	if (g->label)
		inst->display = expand_template(s->machine, g->label, caps, ncaps, cpu, p);
	if (g->pci_rc)
		describe_root_complex(s->machine, inst, expand_template(s->machine, g->pci_rc, caps, ncaps, cpu, p));
	if (g->pci_bus)
		describe_pci_bus(s->machine, inst, expand_template(s->machine, g->pci_bus, caps, ncaps, cpu, p));
	inst->notes = xstrdup("");
	for (int k = 0; k < g->nnotes; k++) {
		const char *v = pmu_attr(p, g->notes[k]);
		if (!v)
			continue;
		char *n = xasprintf("%s%s%s", inst->notes, *inst->notes ? ", " : "", v);
		free(inst->notes);
		inst->notes = n;
	}
	encode_or_say(s, inst);
	if (!p->cpus.n && !inst->unavailable)
		inst->unavailable = xasprintf("PMU %s has no CPU to count on (%s)", p->name,
					      p->has_cpumask ? "its cpumask is empty or unreadable" : "no CPU is online");
}

/* per_bit = FILTER EVENT...: for a root complex with known root ports, one instance per
 * port counting EVENTS with only the port's bit of the mask FILTER set (Enter shows them
 * under the RC: per-root-port bandwidth). The kernel multiplexes them with the RC's own
 * events when the PMU has too few counters; their coverage says so. */
static void bind_root_ports(struct session *s, int *cap, int parent)
{
	const struct prof_group *g = s->inst[parent].group;
	char *copy = xstrdup(g->per_bit), *save = NULL;
	char *fname = strtok_r(copy, " \t", &save);
	int f = -1;
	for (int i = 0; fname && i < g->nfilters; i++)
		if (!strcmp(g->filters[i].term, fname))
			f = i;
	if (f < 0 || g->filters[f].type != FILTER_MASK) {
		diag_warn("%s: [group %s] per_bit names '%s', which is not a mask filter of the group", s->inst[parent].profile->path,
			  g->name, fname ? fname : "");
		free(copy);
		return;
	}
	bool *wanted = xcalloc((size_t)g->nevents, sizeof(bool));
	for (char *ev = strtok_r(NULL, " \t", &save); ev; ev = strtok_r(NULL, " \t", &save))
		for (int e = 0; e < g->nevents; e++)
			wanted[e] |= !strcmp(g->events[e].name, ev) || !strcmp(g->events[e].terms, ev);
	free(copy);
	int nrps = s->inst[parent].nrps;
	for (int k = 0; k < nrps; k++) {
		struct instance *pi = &s->inst[parent];
		int rp = pi->rps[k];
		const struct pmu *p = pi->pmu;
		if (pi->unavailable || !pmu_find_format(p, g->filters[f].term) || rp < 0 || rp >= 64)
			break;
		char *name = xasprintf("%s/rp%d", pi->name, rp);
		struct cpulist cpus;
		cpulist_copy(&cpus, &pi->cpus);
		int socket = pi->socket, nl = pi->nlabels;
		struct label labels[16];
		memcpy(labels, pi->labels, sizeof(struct label) * (size_t)(nl < 16 ? nl : 16));
		const struct profile *prof = pi->profile;
		struct instance *inst = instance_add(s, cap); /* pi may move */
		inst->profile = prof;
		inst->group = g;
		inst->pmu = p;
		inst->name = name;
		inst->socket = socket;
		inst->cpus = cpus;
		inst->parent = parent;
		for (int i = 0; i < nl && i < 16; i++)
			instance_add_label(inst, labels[i].key, labels[i].value);
		char num[16];
		format_int(num, sizeof(num), rp);
		instance_add_label(inst, "rp", num);
		inst->display = xasprintf("RP%d", rp);
		inst->wanted = xmalloc(sizeof(bool) * (size_t)g->nevents);
		memcpy(inst->wanted, wanted, sizeof(bool) * (size_t)g->nevents);
		instance_alloc_arrays(inst);
		instance_read_attrs(inst);
		inst->notes = xstrdup("");
		for (int i = 0; i < g->nfilters; i++) /* a root port's own bit, the rest as the RC starts */
			inst->filter_set[i] = i == f || inst->filter_set[i];
		inst->filter_value[f] = 1ull << rp;
		inst->locked_filter = f;
		char *err;
		if (instance_encode(s, inst, &err) < 0) {
			free(inst->unavailable);
			inst->unavailable = err;
		}
	}
	free(wanted);
}

/* Is instance i a member of the sum: on the socket (-1: any), and where the sum is a
 * core's or a node's, of that one (its CPU's entry in key_of_cpu)? */
static bool sum_member(const struct session *s, int i, int socket, const int *key_of_cpu, int key)
{
	const struct instance *in = &s->inst[i];
	if (socket >= 0 && in->socket != socket)
		return false;
	return !key_of_cpu || (in->cpus.n && in->cpus.cpu[0] < s->machine->max_cpu && key_of_cpu[in->cpus.cpu[0]] == key);
}

/* A sum of the group's instances [first, last): the machine's, a socket's, or (key_of_cpu)
 * a core's or a node's. kind says which ('a', 's', 'c', 'n'). */
static void add_sum(struct session *s, int *cap, struct profile *prof, const struct prof_group *g, int first, int last,
		    int socket, const int *key_of_cpu, int key, char kind, const char *name)
{
	int n = 0;
	for (int i = first; i < last; i++)
		n += sum_member(s, i, socket, key_of_cpu, key);
	if (!n)
		return;
	struct instance *inst = instance_add(s, cap);
	inst->profile = prof;
	inst->group = g;
	inst->name = xstrdup(name);
	inst->socket = socket;
	inst->sum_kind = kind;
	if (socket >= 0) {
		char num[16];
		format_int(num, sizeof(num), socket);
		instance_add_label(inst, "socket", num);
	}
	inst->members = xmalloc(sizeof(int) * (size_t)n);
	for (int i = first; i < last; i++) {
		if (sum_member(s, i, socket, key_of_cpu, key)) {
			inst->members[inst->nmembers++] = i;
			for (int c = 0; c < s->inst[i].cpus.n; c++)
				cpulist_add(&inst->cpus, s->inst[i].cpus.cpu[c]);
		}
	}
	instance_alloc_arrays(inst);
	inst->notes = xstrdup("");
	const struct instance *first_member = &s->inst[inst->members[0]];
	for (int e = 0; e < g->nevents; e++)
		inst->present[e] = first_member->present[e];
	for (int f = 0; f < g->nfilters; f++) {
		inst->filter_set[f] = first_member->filter_set[f];
		inst->filter_value[f] = first_member->filter_value[f];
	}
	/* attributes come from the first member's PMU */
	for (int a = 0; a < g->nattrs; a++)
		inst->vars[group_attr_slot(g, a)] = first_member->vars[group_attr_slot(g, a)];
}

/* Is g for what this session counts (target = tasks | machine)? */
static bool group_for_this_target(const struct session *s, const struct prof_group *g)
{
	return !g->for_target || (g->for_target == 't') == s->count_tasks;
}

/* --per-core, --per-node: a sum of the group's CPUs per core (named by its first CPU) or
 * per NUMA node, in the order their first CPUs come */
static void add_core_or_node_sums(struct session *s, int *cap, struct profile *prof, const struct prof_group *g,
				  int first, int last)
{
	const int *key = s->per_of_cpu;
	for (int i = first; i < last; i++) {
		const struct instance *in = &s->inst[i];
		if (!in->cpus.n || in->cpus.cpu[0] >= s->machine->max_cpu)
			continue;
		int k = key[in->cpus.cpu[0]], seen = 0;
		for (int j = first; j < i && !seen; j++)
			seen = s->inst[j].cpus.n && s->inst[j].cpus.cpu[0] < s->machine->max_cpu && key[s->inst[j].cpus.cpu[0]] == k;
		if (seen)
			continue;
		char name[96];
		snprintf(name, sizeof(name), "%s%d%s", s->per_kind == 'c' ? "core" : "node", k,
			 g->aggregate_suffix ? g->aggregate_suffix : "");
		add_sum(s, cap, prof, g, first, last, -1, key, k, s->per_kind, name);
	}
}

/* Under -M, whether no chosen metric reads any of g's events. */
static bool group_unread(const struct prof_group *g)
{
	for (int e = 0; g->wanted && e < g->nevents; e++)
		if (g->wanted[e])
			return false;
	return g->wanted != NULL && !g->hosts_perf;
}

/* Binds g to every PMU it matches; a PMU it would match but for the CPU model is marked
 * in model_miss (MODEL_OTHER or MODEL_UNKNOWN), and the group's own such verdict is
 * returned (MODEL_OK: none). */
static enum model_verdict bind_group(struct session *s, int *cap, struct profile *prof, const struct prof_group *g,
		       enum model_verdict *model_miss)
{
	int first = s->ninstances;
	enum model_verdict worst = MODEL_OK;
	if (group_unread(g))
		return worst; /* -M chose no metric that reads it */
	if (!group_for_this_target(s, g))
		return worst; /* for a command's counts, or for the machine's, alone */
	bool sums = binds_cpu_sums(s, g); /* its socket rows count, bound here */
	for (int i = 0; i < s->machine->npmus; i++) {
		const struct pmu *p = &s->machine->pmus[i];
		char caps[PROFILE_MAX_CAPS][2][64];
		int ncaps;
		enum model_verdict v;
		if (!group_matches(g, p, caps, &ncaps, &v)) {
			if (v == MODEL_OTHER || v == MODEL_UNKNOWN)
				model_miss[i] = worst = v;
			continue;
		}
		if (s->count_tasks && pmu_counts_tasks(p)) { /* the tasks' counts: one instance */
			bind_pmu_instance(s, cap, prof, g, p, caps, ncaps, CPU_OF_TASKS);
			s->inst[s->ninstances - 1].follows_tasks = true;
			first = s->ninstances; /* no sums of it */
			continue;
		}
		if (g->split == SPLIT_CPU) {
			struct cpulist cpus = { 0 };
			group_cpus_on(s, g, p, &cpus);
			int made = s->ninstances;
			if (sums)
				bind_cpu_sums(s, cap, prof, g, p, &cpus);
			for (int k = made; k < s->ninstances; k++)
				encode_or_say(s, &s->inst[k]);
			for (int c = 0; !sums && c < cpus.n; c++)
				bind_pmu_instance(s, cap, prof, g, p, caps, ncaps, cpus.cpu[c]);
			cpulist_free(&cpus);
		} else {
			bind_pmu_instance(s, cap, prof, g, p, caps, ncaps, -1);
			if (g->per_bit && s->inst[s->ninstances - 1].nrps)
				bind_root_ports(s, cap, s->ninstances - 1);
		}
	}
	int last = s->ninstances;
	/* per-PMU instances sum too (AMD's UMCs, one PMU each, per socket), but not those
	 * split into root ports: the ports are already in their RC */
	if ((g->split != SPLIT_CPU && g->per_bit) || last == first)
		return worst;
	if (g->aggregate_socket && !sums) {
		int maxsock = -1;
		for (int i = first; i < last; i++)
			if (s->inst[i].socket > maxsock)
				maxsock = s->inst[i].socket;
		for (int sk = 0; sk <= maxsock; sk++) {
			char name[96];
			snprintf(name, sizeof(name), "socket%d%s", sk, g->aggregate_suffix ? g->aggregate_suffix : "");
			add_sum(s, cap, prof, g, first, last, sk, NULL, 0, 's', name);
		}
	}
	if (g->aggregate_all && (!sums || g->aggregate_socket)) { /* (sums: of the socket rows) */
		char name[96];
		snprintf(name, sizeof(name), "all%s", g->aggregate_suffix ? g->aggregate_suffix : "");
		add_sum(s, cap, prof, g, first, last, -1, NULL, 0, 'a', name);
	}
	if (s->per_kind && g->split == SPLIT_CPU && (g->aggregate_all || g->aggregate_socket))
		add_core_or_node_sums(s, cap, prof, g, first, last);
	return worst;
}

const char *instance_event_name(const struct instance *inst, int event)
{
	const struct prof_event *e = &inst->group->events[event];
	/* the sysfs alias where the profile names one, else the profile's own name */
	const struct pmu_alias *a = inst->pmu ? pmu_find_alias(inst->pmu, e->terms) : NULL;
	return a ? a->name : e->name;
}

const char *instance_event_unit(const struct instance *inst, int event)
{
	const struct pmu_alias *a = inst->pmu ? pmu_find_alias(inst->pmu, inst->group->events[event].terms) : NULL;
	return a ? a->unit : NULL;
}

/* The sysfs alias of each event of a group's instances on one PMU, looked up once for the
 * run of instances that share both (every CPU's instance of a core group). */
struct event_aliases {
	const struct pmu *pmu;
	const struct prof_group *group;
	const struct pmu_alias **alias;
	bool *known;
};

static const struct pmu_alias *event_alias(struct event_aliases *ea, const struct instance *inst, int e)
{
	if (ea->pmu != inst->pmu || ea->group != inst->group) {
		int n = inst->group->nevents ? inst->group->nevents : 1;
		ea->alias = xrealloc(ea->alias, sizeof(*ea->alias) * (size_t)n);
		ea->known = xrealloc(ea->known, sizeof(bool) * (size_t)n);
		memset(ea->known, 0, sizeof(bool) * (size_t)n);
		ea->pmu = inst->pmu;
		ea->group = inst->group;
	}
	if (!ea->known[e])
		ea->alias[e] = inst->pmu ? pmu_find_alias(inst->pmu, inst->group->events[e].terms) : NULL;
	ea->known[e] = true;
	return ea->alias[e];
}

/* The static halves of frames: what each instance, value and counter slot is. */
static void build_infos(struct session *s)
{
	s->iinfo = xcalloc((size_t)(s->ninstances ? s->ninstances : 1), sizeof(*s->iinfo));
	int n = 0;
	for (int i = 0; i < s->ninstances; i++)
		n += s->inst[i].ncounters;
	s->ncounters = n;
	s->cinfo = xcalloc((size_t)(n ? n : 1), sizeof(*s->cinfo));
	struct event_aliases ea = { 0 };
	int k = 0;
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		s->iinfo[i] = (struct instance_info){
			.name = inst->name, .profile = inst->profile, .group = inst->group,
			.pmu = inst->pmu ? inst->pmu->name : NULL, .socket = inst->socket, .sum_kind = inst->sum_kind,
			.nlabels = inst->nlabels,
			.labels = inst->labels, .nmembers = inst->nmembers, .members = inst->members, .nparts = inst->nparts,
			.parts = inst->parts, .first_counter = k,
			.ncounters = inst->ncounters, .present = inst->present, .notes = inst->notes,
			.cpus_counted = inst->sum_kind && !inst->nmembers && !inst->nparts ? inst->cpus.n : 0,
			.display = inst->display ? inst->display : inst->name, .ndetails = inst->ndetails, .parent = inst->parent,
			.details = (const char *const *)inst->details,
			/* the attribute slots of its formula variables: constant for the session */
			.attrs = inst->vars && inst->group->nattrs ? inst->vars + group_attr_slot(inst->group, 0) : NULL };
		for (int c = 0; c < inst->ncounters; c++, k++) {
			struct counter *ct = &inst->counters[c];
			const struct pmu_alias *a = event_alias(&ea, inst, ct->event); /* as instance_event_name, _unit */
			ct->slot = k;
			s->cinfo[k] = (struct counter_info){ .instance = i, .event = ct->event, .cpu = ct->cpu,
							     .event_name = a ? a->name : inst->group->events[ct->event].name,
							     .unit = a ? a->unit : NULL,
							     .kind = ct->kind, .width = ct->width, .config = ct->attr.config,
							     .exclude = ct->attr.exclude };
		}
	}
	free(ea.alias);
	free(ea.known);
}

/* What the sampler relies on every refresh, checked once here: each counter has its own
 * frame slot and an event of its group, each value an instance and a formula, and an
 * aggregate's members come before it (one pass sums them). */
static void assert_bound(const struct session *s)
{
	for (int i = 0; i < s->ninstances; i++) {
		const struct instance *inst = &s->inst[i];
		for (int c = 0; c < inst->ncounters; c++) {
			const struct counter *ct = &inst->counters[c];
			assert(ct->slot >= 0 && ct->slot < s->ncounters && ct->event >= 0 && ct->event < inst->group->nevents);
			(void)ct;
		}
		for (int k = 0; k < inst->nmembers; k++)
			assert(inst->members[k] < i);
		for (int k = 0; k < inst->nparts; k++)
			assert(inst->parts[k] < i);
	}
	for (int k = 0; k < s->nvalues; k++) {
		const struct value_info *vi = &s->vinfo[k];
		assert(vi->instance >= 0 && vi->instance < s->ninstances && vi->form >= 0 && vi->form < vi->m->nforms);
		(void)vi;
	}
}

/* The PMUs a profile's model-specific groups would count but for the CPU model, and
 * that none of its other groups counts: said once for the profile (a warning) and by
 * each PMU (list pmus). */
static void note_model_misses(struct session *s, const struct profile *prof, const enum model_verdict *miss, int first)
{
	const struct machine *m = s->machine;
	char *names = NULL, *known = NULL;
	int n = 0;
	enum model_verdict v = MODEL_OK;
	for (int i = 0; i < m->npmus; i++) {
		if (miss[i] == MODEL_OK || s->pmu_note[i]) /* the common case: no scan */
			continue;
		bool bound = false;
		for (int k = first; k < s->ninstances && !bound; k++)
			bound = s->inst[k].pmu == &m->pmus[i];
		if (bound)
			continue;
		v = miss[i];
		for (int g = 0; g < prof->ngroups; g++) { /* the models its groups are for */
			char caps[PROFILE_MAX_CAPS][2][64];
			int ncaps;
			enum model_verdict gv;
			if (!group_matches(&prof->groups[g], &m->pmus[i], caps, &ncaps, &gv) && gv == v)
				model_globs_add(&known, &prof->groups[g]);
		}
		if (n++ < 3) {
			char *x = xasprintf("%s%s%s", names ? names : "", names ? ", " : "", m->pmus[i].name);
			free(names);
			names = x;
		}
		s->pmu_note[i] = xasprintf("%s: not for this CPU model", prof->name);
	}
	if (!n)
		return;
	char *why = model_reason(m, prof, known, v);
	free(known);
	diag_warn("%s: %d PMU%s (%s%s) not counted: %s", prof->path, n, n == 1 ? "" : "s", names, n > 3 ? ", ..." : "", why);
	free(why);
	free(names);
}

/* Group g of prof bound no instance: said missing, unless it is one of a family's
 * variants, -M chose nothing it counts, or the group it is the alternative of bound. */
static void note_missing(struct session *s, const struct profile *prof, int g, const bool *bound, enum model_verdict gm)
{
	const struct prof_group *grp = &prof->groups[g];
	if (bound[g] || grp->alternative || group_unread(grp) || !group_for_this_target(s, grp) ||
	    (grp->alternative_group >= 0 && grp->alternative_to && bound[grp->alternative_group]))
		return;
	s->missing = xrealloc(s->missing, sizeof(*s->missing) * (size_t)(s->nmissing + 1));
	s->missing_why = xrealloc(s->missing_why, sizeof(char *) * (size_t)(s->nmissing + 1));
	char *known = NULL;
	model_globs_add(&known, grp);
	s->missing_why[s->nmissing] = gm != MODEL_OK ? model_reason(s->machine, prof, known, gm) : NULL;
	free(known);
	s->missing[s->nmissing++] = grp;
}

void session_bind(struct session *s)
{
	int cap = 0;
	struct counter_tally tally = { 0, NULL };
	s->encodings = encode_memo_new(s->machine);
	int np = s->machine->npmus;
	s->pmu_note = xcalloc((size_t)(np ? np : 1), sizeof(char *));
	for (int pi = 0; pi < s->nprofiles && !s->refusal; pi++) {
		struct profile *prof = s->profiles[pi];
		profile_plan_event_groups(prof, s->machine); /* perf's catalogue: its groups, then */
		profile_keep_read_events(prof);              /* its chosen metrics' events alone */
		enum model_verdict *miss = xcalloc((size_t)(np ? np : 1), sizeof(*miss));
		int first = s->ninstances, ng = prof->ngroups ? prof->ngroups : 1;
		bool *bound = xcalloc((size_t)ng, sizeof(bool));
		enum model_verdict *gm = xcalloc((size_t)ng, sizeof(*gm));
		for (int g = 0; g < prof->ngroups && !s->refusal; g++) {
			int before = s->ninstances;
			gm[g] = bind_group(s, &cap, prof, &prof->groups[g], miss);
			bound[g] = s->ninstances > before;
			s->refusal = counter_tally_add(&tally, s, before, prof);
		}
		for (int g = 0; g < prof->ngroups; g++)
			note_missing(s, prof, g, bound, gm[g]);
		free(bound);
		free(gm);
		bind_blends(s, &cap, prof, first);
		note_model_misses(s, prof, miss, first);
		free(miss);
	}
	counter_tally_free(&tally);
	encode_memo_free(s->encodings);
	s->encodings = NULL;
	bind_values(s);
	bind_facts(s);
	session_note_constraints(s);
	/* the arrays grew by doubling, their slack zeroed (resident): give it back, for the
	 * frames made next to reuse (a demo's instances alone left 100 KB) */
	s->inst = xrealloc(s->inst, sizeof(*s->inst) * (size_t)(s->ninstances ? s->ninstances : 1));
	s->vinfo = xrealloc(s->vinfo, sizeof(*s->vinfo) * (size_t)(s->nvalues ? s->nvalues : 1));
	build_infos(s);
	assert_bound(s);
}

void session_refresh_counter_info(struct session *s)
{
	for (int i = 0; i < s->ninstances; i++)
		for (int c = 0; c < s->inst[i].ncounters; c++) {
			const struct counter *ct = &s->inst[i].counters[c];
			s->cinfo[ct->slot].kind = ct->kind;
			s->cinfo[ct->slot].width = ct->width;
			s->cinfo[ct->slot].takes_turns = ct->takes_turns;
		}
}

void instance_free(struct instance *inst)
{
	const struct prof_group *g = inst->group;
	free(inst->name);
	free(inst->labels);
	free(inst->notes);
	free(inst->display);
	free(inst->wanted);
	free(inst->refused);
	free(inst->closed);
	for (int i = 0; i < inst->ndetails; i++)
		free(inst->details[i]);
	free(inst->details);
	cpulist_free(&inst->cpus);
	free(inst->members);
	free(inst->parts);
	free(inst->tally);
	for (int e = 0; e < g->nevents; e++) {
		free(inst->event_str[e]);
		free(inst->event_na[e]);
	}
	free(inst->event_str); /* and the arrays carved with it (instance_alloc_arrays) */
	free(inst->event_absent);
	free(inst->counters);
	free(inst->open_error);
	free(inst->unavailable);
	counters_free_shares(inst);
}
