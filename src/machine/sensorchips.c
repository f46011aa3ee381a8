/* SPDX-License-Identifier: GPL-2.0-only */
/* sensorchips.c - hwmon sensor inputs as PMUs.
 *
 * Each input becomes a PMU with one alias, "value", whose scale turns the raw reading
 * into °C, W, J or RPM: libsensors already gives those (scale 1); sysfs files give
 * millidegrees, microwatts and microjoules. Energy is cumulative (power from energy is
 * a rate), the others are gauges. The socket comes from the device's numa_node where it
 * says one. BlueField's bfperf is not a sensor device (its blocks are counters). */
#include "machine/sensorchips.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysfs.h"
#include "base/util.h"
#include "machine/hwsensors.h"
#include "machine/pmu.h"

static const char *const kind_names[] = { "temp", "power", "energy", "fan" };

static void add_sensor(struct machine *m, int *cap, enum sensor_kind kind, const char *chip, const char *feature,
		       const char *label, const char *devdir, bool files, const char *file, const void *handle, int sub)
{
	char name[256];
	snprintf(name, sizeof(name), "sensor_%s_%s_%s", kind_names[kind], chip, feature);
	for (char *c = name; *c; c++) /* a PMU-like name: no '/', '-' kept readable as '_' */
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
			*c = '_';
	if (machine_find_pmu(m, name))
		return;
	struct pmu p = { .name = xstrdup(name), .dir = xstrdup(devdir ? devdir : ""), .type = -1 };
	p.sensor = xcalloc(1, sizeof(*p.sensor));
	*p.sensor = (struct sensor_feature){ .kind = (int)kind, .file = file ? xstrdup(file) : NULL, .handle = handle,
		.subfeature = sub };
	/* files: m°C, µW, µJ; libsensors: °C, W, J. Energy is counted in µJ either way. */
	double scale = kind == SENSOR_ENERGY ? 1e-6 : !files || kind == SENSOR_FAN ? 1 : kind == SENSOR_TEMP ? 1e-3 : 1e-6;
	static const char *const units[] = { "C", "W", "Joules", "RPM" };
	pmu_set_only_event(&p, "value", scale, units[kind]);
	p.attrs = xcalloc(3, sizeof(*p.attrs));
	p.attrs[p.nattrs++] = (struct pmu_attr){ xstrdup("chip"), xstrdup(chip) };
	p.attrs[p.nattrs++] = (struct pmu_attr){ xstrdup("label"), xstrdup(label && *label ? label : feature) };
	char *numa = devdir ? sysfs_read_attr(devdir, "device/numa_node") : NULL;
	uint64_t node;
	if (numa && parse_u64(numa, &node) && node < 4096)
		p.attrs[p.nattrs++] = (struct pmu_attr){ xstrdup("socket"), xasprintf("%llu", (unsigned long long)node) };
	free(numa);
	cpulist_add(&p.cpus, m->online.n ? m->online.cpu[0] : 0);
	cpulist_copy(&p.associated, &p.cpus);
	grow_array(&m->pmus, cap, m->npmus + 1, sizeof(*m->pmus));
	m->pmus[m->npmus++] = p;
}

struct live_ctx {
	struct machine *m;
	int *cap;
};

static void live_one(void *ctx, const struct hw_sensor_found *f)
{
	struct live_ctx *c = ctx;
	add_sensor(c->m, c->cap, f->kind, f->chip, f->feature, f->label, f->path, false, NULL, f->handle, f->subfeature);
}

/* A tree's hwmon devices: NAME/temp1_input (+ temp1_label), power1_input or
 * power1_average, energy1_input, fan1_input. */
static void tree_sensors(struct machine *m, int *cap)
{
	static const char *const inputs[][2] = { { "temp", "_input" }, { "power", "_input" }, { "power", "_average" },
						 { "energy", "_input" }, { "fan", "_input" } };
	static const enum sensor_kind kinds[] = { SENSOR_TEMP, SENSOR_POWER, SENSOR_POWER, SENSOR_ENERGY, SENSOR_FAN };
	for (int i = 0; i < m->nhwmon; i++) {
		if (!strcmp(m->hwmon[i].name, "bfperf"))
			continue;
		const char *dir = m->hwmon[i].dir, *base = strrchr(dir, '/');
		char chip[128];
		int same = 0; /* the device's name, made unique with its hwmon number only if needed */
		for (int k = 0; k < m->nhwmon; k++)
			same += !strcmp(m->hwmon[k].name, m->hwmon[i].name);
		if (same > 1)
			snprintf(chip, sizeof(chip), "%s-%s", m->hwmon[i].name, base ? base + 1 : dir);
		else
			str_copy(chip, sizeof(chip), m->hwmon[i].name);
		char **names;
		int n = list_dir(dir, &names);
		for (int k = 0; k < n; k++) {
			for (size_t t = 0; t < ARRAY_SIZE(inputs); t++) {
				const char *nm = names[k];
				size_t pl = strlen(inputs[t][0]);
				if (strncmp(nm, inputs[t][0], pl) || !str_has_suffix(nm, inputs[t][1]))
					continue;
				char feature[64];
				snprintf(feature, sizeof(feature), "%.*s", (int)(strlen(nm) - strlen(inputs[t][1])), nm);
				if (strlen(feature) <= pl || strspn(feature + pl, "0123456789") != strlen(feature + pl))
					continue;
				char *file = path_join(dir, nm), *lab = xasprintf("%s_label", feature);
				char *label = sysfs_read_attr(dir, lab);
				add_sensor(m, cap, kinds[t], chip, feature, label, dir, true, file, NULL, 0);
				free(label);
				free(lab);
				free(file);
			}
		}
		free_names(names, n);
	}
}

static int cmp_pmu(const void *a, const void *b)
{
	return strverscmp(((const struct pmu *)a)->name, ((const struct pmu *)b)->name);
}

void sensors_discover(struct machine *m)
{
	int cap = m->npmus;
	if (!strcmp(m->root, "/")) { /* libsensors reads the real /sys, with sensors3.conf's labels */
		hw_sensors_init(); /* held until machine_free, whether it started or not */
		m->libsensors = true;
		struct live_ctx c = { m, &cap };
		hw_sensors_each(live_one, &c);
	} else {
		tree_sensors(m, &cap);
	}
	qsort(m->pmus, (size_t)m->npmus, sizeof(*m->pmus), cmp_pmu);
}
