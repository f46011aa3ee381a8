/* SPDX-License-Identifier: GPL-2.0-only */
/* discover.c - discovery: turn a sysfs tree into plain structs (machine/pmu.h's model).
 *
 * Everything is read relative to one root, so the same code runs on the live /sys and on
 * fixture trees. A file that is missing, unreadable or malformed costs a warning naming
 * it, never the whole discovery. The families with PMUs of their own making (BlueField's
 * bfperf blocks, hwmon sensors) are called from here and use the model only. */
#include "machine/discover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/archtimer.h"
#include "machine/bfperf.h"
#include "machine/cpuid.h"
#include "machine/hwsensors.h"
#include "machine/pcimap.h"
#include "machine/pmu.h"
#include "machine/sensorchips.h"

#define ATTR_LIMIT 65536

/* Entries of a PMU directory that are not driver attributes worth keeping. */
static bool skip_entry(const char *name)
{
	static const char *const skip[] = { "format", "events", "power", "subsystem", "device",
					    "uevent", "driver", "of_node", "firmware_node" };
	for (size_t i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strcmp(name, skip[i]))
			return true;
	return false;
}

/* Takes name and value. */
static void add_attr(struct pmu *p, int *cap, char *name, char *value)
{
	grow_array(&p->attrs, cap, p->nattrs + 1, sizeof(*p->attrs));
	p->attrs[p->nattrs].name = name;
	p->attrs[p->nattrs].value = value;
	p->nattrs++;
}

static void read_formats(struct pmu *p)
{
	char *dir = path_join(p->dir, "format");
	int dfd = dir_open(dir);
	char **names;
	int n = list_dir_at(dfd, &names, NULL);
	int cap = 0;
	for (int i = 0; i < n; i++) {
		char *path = path_join(dir, names[i]);
		char *spec = read_attr_at(dfd, names[i], ATTR_LIMIT);
		struct format_field f = { 0 };
		if (!spec) {
			diag_warn("%s: cannot read: %s", path, sysfs_read_error(errno));
		} else {
			chomp(spec);
			if (!format_parse(spec, &f)) {
				diag_warn("%s: malformed format '%s' (want configN:lo-hi[,lo-hi])", path, spec);
			} else {
				f.name = xstrdup(names[i]);
				f.spec = xstrdup(spec);
				grow_array(&p->formats, &cap, p->nformats + 1, sizeof(f));
				p->formats[p->nformats++] = f;
			}
		}
		free(spec);
		free(path);
	}
	free_names(names, n);
	if (dfd >= 0)
		close(dfd);
	free(dir);
}

static const char *const alias_meta_suffix[] = { ".scale", ".unit", ".per-pkg", ".snapshot" };

static bool is_alias_meta(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(alias_meta_suffix); i++)
		if (str_has_suffix(name, alias_meta_suffix[i]))
			return true;
	return false;
}

static int cmp_name(const void *key, const void *elem)
{
	return strverscmp(key, *(char *const *)elem); /* list_dir's order */
}

/* names is list_dir's, sorted */
static bool listed(char **names, int n, const char *name)
{
	return n > 0 && bsearch(name, names, (size_t)n, sizeof(char *), cmp_name) != NULL;
}

static void read_aliases(struct pmu *p)
{
	char *dir = path_join(p->dir, "events");
	int dfd = dir_open(dir);
	char **names;
	int n = list_dir_at(dfd, &names, NULL);
	int cap = 0;
	for (int i = 0; i < n; i++) {
		if (is_alias_meta(names[i]))
			continue;
		char *terms = read_attr_at(dfd, names[i], ATTR_LIMIT);
		if (!terms) {
			diag_warn("%s/%s: cannot read: %s", dir, names[i], sysfs_read_error(errno));
			continue;
		}
		chomp(terms);
		struct pmu_alias a = { .name = xstrdup(names[i]), .terms = xstrdup(trim(terms)), .scale = 1.0 };
		free(terms);
		/* the directory's listing says which .scale and .unit exist: no open to find out */
		char *meta = xstrcat(names[i], ".scale");
		char *scale = listed(names, n, meta) ? chomp_text(read_attr_at(dfd, meta, ATTR_LIMIT)) : NULL;
		if (scale) {
			char *end;
			double v = strtod_c(scale, &end);
			if (end == scale || (*end && *end != '\n'))
				diag_warn("%s/%s: malformed scale '%s'", dir, meta, scale);
			else
				a.scale = v;
			free(scale);
		}
		free(meta);
		meta = xstrcat(names[i], ".unit");
		a.unit = listed(names, n, meta) ? chomp_text(read_attr_at(dfd, meta, ATTR_LIMIT)) : NULL;
		free(meta);
		grow_array(&p->aliases, &cap, p->naliases + 1, sizeof(a));
		p->aliases[p->naliases++] = a;
	}
	free_names(names, n);
	if (dfd >= 0)
		close(dfd);
	free(dir);
}

/* Plain files of the PMU directory, and one level of sub-directories (caps/, filtermode/). */
static void read_attrs(struct pmu *p)
{
	int dfd = dir_open(p->dir);
	char **names;
	enum dir_kind *kinds;
	int n = list_dir_at(dfd, &names, &kinds);
	int cap = 0;
	for (int i = 0; i < n; i++) {
		if (skip_entry(names[i]))
			continue;
		enum dir_kind kind = dir_entry_kind_at(dfd, names[i], kinds[i]);
		if (!strcmp(names[i], "cpumask") && kind != DIR_KIND_FILE) { /* a directory, a device */
			p->cpumask_error = kind == DIR_KIND_DIR ? EISDIR : EINVAL;
			continue;
		}
		if (kind == DIR_KIND_DIR) {
			int sfd = openat(dfd, names[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			char **sub;
			enum dir_kind *subkinds;
			int m = list_dir_at(sfd, &sub, &subkinds);
			for (int j = 0; j < m; j++) {
				char *v = dir_entry_kind_at(sfd, sub[j], subkinds[j]) == DIR_KIND_FILE
						  ? chomp_text(read_attr_at(sfd, sub[j], ATTR_LIMIT))
						  : NULL;
				if (v)
					add_attr(p, &cap, xstrcat(names[i], "/", sub[j]), v);
			}
			free_names(sub, m);
			free(subkinds);
			if (sfd >= 0)
				close(sfd);
		} else if (kind == DIR_KIND_FILE) {
			/* write-only or root-only files are simply not attributes for us; but an
			 * uncore PMU whose cpumask cannot be read is not a core PMU on every CPU */
			char *v = chomp_text(read_attr_at(dfd, names[i], ATTR_LIMIT));
			if (v)
				add_attr(p, &cap, xstrdup(names[i]), v);
			else if (!strcmp(names[i], "cpumask"))
				p->cpumask_error = errno ? errno : EIO;
		}
	}
	free_names(names, n);
	free(kinds);
	if (dfd >= 0)
		close(dfd);
}

static void read_cpus(struct pmu *p, const struct cpulist *online)
{
	if (p->cpumask_error) { /* counting it on every CPU would multiply an uncore count */
		diag_warn("%s/cpumask: cannot be read (%s): the PMU is unavailable", p->dir,
			  p->cpumask_error == EISDIR ? "a directory" : sysfs_read_error(p->cpumask_error));
		p->has_cpumask = true;
		return;
	}
	const char *mask = pmu_attr(p, "cpumask");
	p->has_cpumask = mask != NULL;
	/* a cpumask that says nothing usable makes the PMU unavailable: counting it on every
	 * CPU instead would multiply an uncore count by the number of CPUs */
	if (mask && !cpulist_parse(mask, &p->cpus)) {
		diag_warn("%s/cpumask: malformed CPU list '%s': the PMU is unavailable", p->dir, mask);
		cpulist_free(&p->cpus);
		memset(&p->cpus, 0, sizeof(p->cpus));
	} else if (mask && !p->cpus.n) {
		diag_warn("%s/cpumask: empty: the PMU is unavailable", p->dir);
	}
	/* core PMUs have no cpumask; hybrid x86 (cpu_core, cpu_atom) and Arm core PMUs say
	 * which CPUs they cover in 'cpus' */
	const char *cpus = p->has_cpumask ? NULL : pmu_attr(p, "cpus");
	if (cpus && cpulist_parse(cpus, &p->cpus))
		p->has_cpumask = true;
	else if (!p->has_cpumask)
		cpulist_copy(&p->cpus, online);
	/* perf opens only on online CPUs: a driver moves its cpumask off a CPU going offline,
	 * and a hybrid PMU's 'cpus' may name CPUs that are off; a list naming thousands of
	 * CPUs that do not exist must not become thousands of counters */
	int dropped = cpulist_intersect(&p->cpus, online);
	if (dropped && !cpus)
		diag_warn("%s/cpumask: %d CPU%s not online left out", p->dir, dropped, dropped == 1 ? "" : "s");
	if (mask && p->cpus.n == 0 && dropped)
		diag_warn("%s/cpumask: no CPU of it is online: the PMU is unavailable", p->dir);
	const char *assoc = pmu_attr(p, "associated_cpus");
	if (!assoc || !cpulist_parse(assoc, &p->associated)) {
		if (assoc)
			diag_warn("%s/associated_cpus: malformed CPU list '%s'", p->dir, assoc);
		cpulist_copy(&p->associated, &p->cpus);
	}
}

/* An Arm core PMU's CPU identity (implementer, part, variant, revision), from its first
 * CPU's MIDR_EL1, kept as the attribute "midr_el1": perf's metrics differ by core and
 * revision (strcmp_cpuid_str in neoverse-n2-v2's metrics.json), and profiles tell them
 * apart with 'when = midr_el1 GLOB'. Nothing on machines without the file. */
static void read_midr(struct pmu *p, const char *root, char **midr_of_cpu)
{
	if (!p->cpus.n || pmu_attr(p, "midr_el1"))
		return;
	int cpu = p->cpus.cpu[0];
	if (!midr_of_cpu[cpu]) { /* read once a CPU: a socket's core PMUs all ask its first */
		char rel[96];
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/regs/identification", cpu);
		char *dir = path_join(root, rel);
		char *v = sysfs_read_attr(dir, "midr_el1");
		free(dir);
		midr_of_cpu[cpu] = v ? v : xstrdup("");
	}
	if (*midr_of_cpu[cpu]) {
		int cap = p->nattrs;
		add_attr(p, &cap, xstrdup("midr_el1"), xstrdup(midr_of_cpu[cpu]));
	}
}

static void read_type(struct pmu *p)
{
	const char *t = pmu_attr(p, "type");
	uint64_t v;
	p->type = -1;
	if (!t) {
		char *path = path_join(p->dir, "type");
		bool there = access(path, F_OK) == 0;
		int err = there && access(path, R_OK) != 0 ? errno : 0;
		free(path);
		if (there)
			diag_warn("%s/type: cannot be read (%s); the PMU cannot be opened", p->dir,
				  strerror(err ? err : EIO));
		else
			diag_warn("%s/type: missing; the PMU cannot be opened", p->dir);
	}
	else if (!parse_u64(t, &v) || v > INT32_MAX)
		diag_warn("%s/type: malformed '%s'", p->dir, t);
	else
		p->type = (int)v;
}

/* Each CPU's socket: a package's first CPU's physical_package_id, given to every CPU its
 * package_cpus_list names (two reads a socket, not one a CPU: a 144-CPU Grace opened 144
 * files); a CPU no list names (a kernel before 5.4, a tree without the lists) reads its own. */
static void read_packages(struct machine *m, const char *cpudir)
{
	enum { UNREAD = -2 };
	bool told = false;
	m->socket_of_cpu = xmalloc(sizeof(int) * (size_t)(m->max_cpu ? m->max_cpu : 1));
	for (int c = 0; c < m->max_cpu; c++)
		m->socket_of_cpu[c] = UNREAD;
	for (int c = 0; c < m->max_cpu; c++) {
		if (m->socket_of_cpu[c] != UNREAD)
			continue;
		char rel[64];
		snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", c);
		char *v = sysfs_read_attr(cpudir, rel);
		uint64_t s;
		int socket = v && parse_u64(v, &s) && s < 65536 ? (int)s : -1;
		free(v);
		m->socket_of_cpu[c] = socket;
		if (socket < 0)
			continue;
		snprintf(rel, sizeof(rel), "cpu%d/topology/package_cpus_list", c);
		char *list = sysfs_read_attr(cpudir, rel);
		struct cpulist pkg = { 0 };
		if (list && cpulist_parse(list, &pkg) && cpulist_contains(&pkg, c)) {
			for (int i = 0; i < pkg.n; i++)
				if (pkg.cpu[i] < m->max_cpu && m->socket_of_cpu[pkg.cpu[i]] == UNREAD)
					m->socket_of_cpu[pkg.cpu[i]] = socket;
		} else if (list && !told) { /* once: the same fault is usually on every CPU */
			diag_warn("%s/%s: malformed CPU list '%s' (not its own package's CPUs); each CPU's "
				  "physical_package_id is read instead",
				  cpudir, rel, chomp_text(list));
			told = true;
		}
		cpulist_free(&pkg);
		free(list);
	}
}

static void discover_cpus(struct machine *m)
{
	char *cpudir = path_join(m->root, "sys/devices/system/cpu");
	char *online = sysfs_read_attr(cpudir, "online");
	if (online && !cpulist_parse(online, &m->online)) {
		char why[160];
		cpulist_explain(online, why, sizeof(why));
		diag_warn("%s/online: '%s': %s", cpudir, online, why);
		m->online.n = 0;
	}
	free(online);
	char **names;
	int n = list_dir(cpudir, &names);
	if (!m->online.n) {
		for (int i = 0; i < n; i++) {
			char *end;
			if (str_has_prefix(names[i], "cpu") && names[i][3] >= '0' && names[i][3] <= '9') {
				long c = strtol(names[i] + 3, &end, 10);
				if (!*end && c < 65536)
					cpulist_add(&m->online, (int)c);
			}
		}
	}
	m->max_cpu = m->online.n ? m->online.cpu[m->online.n - 1] + 1 : 0;
	read_packages(m, cpudir);
	free_names(names, n);
	free(cpudir);
}

static void discover_hwmon(struct machine *m)
{
	char *dir = path_join(m->root, "sys/class/hwmon");
	char **names;
	int n = list_dir(dir, &names);
	int cap = 0;
	for (int i = 0; i < n; i++) {
		char *d = path_join(dir, names[i]);
		char *name = sysfs_read_attr(d, "name");
		if (name) {
			grow_array(&m->hwmon, &cap, m->nhwmon + 1, sizeof(*m->hwmon));
			m->hwmon[m->nhwmon].name = name;
			m->hwmon[m->nhwmon].dir = d;
			m->nhwmon++;
		} else {
			free(d);
		}
	}
	free_names(names, n);
	free(dir);
}

/* A fixture tree may have no cpu/ directory: then the CPUs are those the PMUs name. */
static void online_from_pmus(struct machine *m)
{
	if (m->online.n)
		return;
	for (int i = 0; i < m->npmus; i++) {
		const char *mask = pmu_attr(&m->pmus[i], "cpumask");
		if (!mask)
			mask = pmu_attr(&m->pmus[i], "cpus");
		const char *assoc = pmu_attr(&m->pmus[i], "associated_cpus");
		struct cpulist l;
		if (assoc && cpulist_parse(assoc, &l)) {
			for (int j = 0; j < l.n; j++)
				cpulist_add(&m->online, l.cpu[j]);
			cpulist_free(&l);
		}
		if (mask && cpulist_parse(mask, &l)) {
			for (int j = 0; j < l.n; j++)
				cpulist_add(&m->online, l.cpu[j]);
			cpulist_free(&l);
		}
	}
	if (!m->online.n)
		cpulist_add(&m->online, 0);
	free(m->socket_of_cpu);
	m->max_cpu = m->online.cpu[m->online.n - 1] + 1;
	m->socket_of_cpu = xmalloc(sizeof(int) * (size_t)m->max_cpu);
	for (int c = 0; c < m->max_cpu; c++)
		m->socket_of_cpu[c] = -1;
}

/* The kernel's NMI watchdog (it holds a core counter on each CPU where it is on). */
static int read_nmi_watchdog(const char *root)
{
	char *path = path_join(root, "proc/sys/kernel/nmi_watchdog");
	char *text = read_text_file(path, 64);
	uint64_t v;
	int on = text && parse_u64(trim(text), &v) ? v != 0 : -1;
	free(text);
	free(path);
	return on;
}

struct machine *machine_discover(const char *root)
{
	struct machine *m = xcalloc(1, sizeof(*m));
	m->root = xstrdup(root);
	discover_cpus(m);
	m->pci = pci_map_read(root);

	char *devdir = path_join(root, "sys/bus/event_source/devices");
	char **names;
	int n = list_dir(devdir, &names);
	int list_errno = n < 0 ? errno : 0;
	m->pmus = xcalloc(n > 0 ? (size_t)n : 1, sizeof(struct pmu));
	for (int i = 0; i < n; i++) {
		struct pmu *p = &m->pmus[m->npmus];
		p->dir = path_join(devdir, names[i]);
		if (!is_dir(p->dir)) {
			free(p->dir);
			continue;
		}
		p->name = xstrdup(names[i]);
		read_attrs(p);
		read_formats(p);
		read_aliases(p);
		m->npmus++;
	}
	free_names(names, n);
	online_from_pmus(m);
	m->cpuid = cpuid_read(root, &m->cpuid_from);
	m->nmi_watchdog = read_nmi_watchdog(root);
	const char *cpuid = m->cpuid;
	int ncpus = m->online.n ? m->online.cpu[m->online.n - 1] + 1 : 1;
	char **midr_of_cpu = xcalloc((size_t)ncpus, sizeof(char *));
	for (int i = 0; i < m->npmus; i++) {
		struct pmu *p = &m->pmus[i];
		read_type(p);
		read_cpus(p, &m->online);
		read_midr(p, root, midr_of_cpu);
		if (cpuid && p->cpus.n && !pmu_attr(p, "cpuid")) {
			int cap = p->nattrs;
			add_attr(p, &cap, xstrdup("cpuid"), xstrdup(cpuid));
		}
	}
	for (int c = 0; c < ncpus; c++)
		free(midr_of_cpu[c]);
	free(midr_of_cpu);
	discover_hwmon(m);
	bfperf_discover(m);
	int cap = m->npmus; /* (sensors_discover sorts them all) */
	archtimer_discover(m, &cap);
	sensors_discover(m);
	/* a DPU tree may hold only its bfperf blocks; anything else without PMUs is odd */
	if (list_errno && (list_errno != ENOENT || !m->npmus))
		diag_warn("%s: cannot read: %s", devdir, strerror(list_errno));
	free(devdir);
	for (int i = 0; i < m->npmus; i++)
		pmu_index_aliases(&m->pmus[i]);
	return m;
}

