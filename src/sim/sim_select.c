/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_select.c - how much of a rate a counter's filters select: the model's dimensions
 * weigh the cells the event's format fields pick (a mask's bits, a device's BDF, an
 * address under a mask, the devices behind a root complex), and which events the
 * simulated driver refuses, scales or counts in turn. */
#include "sim/simmodel.h"
#include "sim/simmodel_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/pcimap.h"

/* Is cell (or, from the PCI map, the device at bit/bdf) selected by attr's fields? */
static bool cell_on(const struct sim_cell *cell, const struct pmu *p, const struct event_attr *attr, int bit,
		    uint64_t value)
{
	const struct format_field *ff = pmu_find_format(p, cell->field);
	if (!ff)
		return false;
	uint64_t v = format_extract(ff, attr->config);
	if (cell->by_value) {
		const struct format_field *mf = cell->mask_field ? pmu_find_format(p, cell->mask_field) : NULL;
		uint64_t mask = mf ? format_extract(mf, attr->config) : ~0ull;
		return (v & mask) == (value & mask);
	}
	return bit < 0 ? v != 0 : (v >> bit) & 1;
}

/* The devices behind the root complex at (socket, rc): their root port and BDF. */
static int rc_devices(const struct sim_place *at, int *rps, uint64_t *bdfs, int cap)
{
	int n = 0;
	for (int i = 0; at->pci && i < at->pci->n; i++) {
		const struct pci_port *pp = &at->pci->ports[i];
		if (pp->socket != at->socket || pp->rc != at->index)
			continue;
		for (int d = 0; d < pp->ndevices && n < cap; d++) {
			unsigned seg, bus, dev, fn;
			if (sscanf(pp->devices[d], "%x:%x:%x.%x", &seg, &bus, &dev, &fn) != 4)
				continue;
			rps[n] = pp->rp;
			bdfs[n++] = ((uint64_t)bus << 8) | ((uint64_t)dev << 3) | fn;
		}
	}
	return n;
}

/* Does the PCI map know this socket's root complexes? (Not root, no config space: the
 * model cannot say where traffic comes from, and counts all of it.) */
static bool pci_known(const struct sim_place *at)
{
	for (int i = 0; at && at->pci && i < at->pci->n; i++)
		if (at->pci->ports[i].socket == at->socket)
			return true;
	return false;
}

/* Adds a cell's weight to *all and, if attr selects it, to *sel; *any once the filter
 * is set at all (a mask naming only root ports without devices selects nothing, not
 * everything). */
static void weigh_cell(const struct sim_cell *cell, const struct pmu *p, const struct event_attr *attr,
		       const struct sim_place *at, double *all, double *sel, bool *any)
{
	const struct format_field *ff = cell->by_value ? NULL : pmu_find_format(p, cell->field);
	if (ff && format_extract(ff, attr->config))
		*any = true;
	if (!cell->from_pci) {
		*all += cell->weight;
		if (cell_on(cell, p, attr, cell->bit, cell->value)) {
			*sel += cell->weight;
			*any = true;
		}
		return;
	}
	if (!pci_known(at)) { /* unknown topology: every device, as the unfiltered count */
		*all += cell->weight;
		*sel += cell->weight;
		return;
	}
	int rps[64];
	uint64_t bdfs[64];
	int n = rc_devices(at, rps, bdfs, 64);
	for (int k = 0; k < n; k++) {
		double w = cell->weight / n;
		*all += w;
		if (cell_on(cell, p, attr, rps[k], bdfs[k])) {
			*sel += w;
			*any = true;
		}
	}
}

/* Is the dimension off because another mode's field (unless=) is set? */
static bool dim_off(const struct sim_dim *dim, const struct pmu *p, const struct event_attr *attr)
{
	bool off = false;
	char fld[64];
	for (const char *q = dim->unless; q && *q && !off;) {
		size_t n = strcspn(q, ",");
		if (n && n < sizeof(fld)) {
			memcpy(fld, q, n);
			fld[n] = '\0';
			const struct format_field *uf = pmu_find_format(p, fld);
			off = uf && format_extract(uf, attr->config) != 0;
		}
		q += n + (q[n] == ',');
	}
	return off;
}

double sim_selection(const struct sim_section *sec, const struct pmu *p, const char *event,
		     const struct event_attr *attr, const struct sim_place *at)
{
	if (!sec || !event)
		return 1.0;
	for (int i = 0; i < sec->nunfiltered; i++)
		if (!strcmp(sec->unfiltered[i], event))
			return 1.0;
	double f = 1.0;
	for (int d = 0; d < sec->ndims; d++) {
		const struct sim_dim *dim = &sec->dims[d];
		double all = 0, sel = 0;
		bool any = false;
		if (dim_off(dim, p, attr))
			continue;
		if (dim->when) { /* a value filter counts only while its enable field is set */
			const struct format_field *en = pmu_find_format(p, dim->when);
			if (!en || !format_extract(en, attr->config))
				continue;
			any = true; /* on: only the matching cells count, none is nothing */
		}
		for (int c = 0; c < dim->ncells; c++)
			weigh_cell(&dim->cells[c], p, attr, at, &all, &sel, &any);
		f *= any ? sel : all;
	}
	return f;
}

bool sim_event_unsupported(const struct sim_section *sec, const char *event)
{
	for (int i = 0; sec && event && i < sec->nunsupported; i++)
		if (!strcmp(sec->unsupported[i], event))
			return true;
	return false;
}

bool sim_rate_is_scaled(const struct sim_section *sec, const char *event)
{
	for (int i = 0; sec && event && i < sec->nscaled; i++)
		if (!strcmp(sec->scaled[i], event))
			return true;
	return false;
}

int sim_general_counters(const struct sim_section *sec, const char *event)
{
	if (!sec || !sec->counters)
		return 0;
	for (int i = 0; event && i < sec->nfixed; i++)
		if (!strcmp(sec->fixed[i], event))
			return 0;
	return sec->counters;
}

double sim_running_fraction(const struct sim_section *sec)
{
	return sec ? sec->running : 1.0;
}
