/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_points.c - evaluating a model's rates: which rates a counter needs (and what they
 * read), and the points that evaluate them at a place (socket, index, CPU) and time, each
 * rate once per point however many counters read it. */
#include "sim/simmodel.h"
#include "sim/simmodel_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/expr.h"
#include "base/util.h"

static void mark_use(void *ctx, int slot)
{
	if (slot < SLOT_NFIXED)
		((struct sim_section *)ctx)->uses[slot] = true;
}

/* What a rate reads, through the rates above it it reads. */
struct rate_reads {
	const uint8_t *reads; /* per rate: READS_CPU | READS_T */
	uint8_t mask;
};
enum { READS_CPU = 1, READS_T = 2 };

static void mark_reads(void *ctx, int slot)
{
	struct rate_reads *c = ctx;
	if (slot == SLOT_CPU)
		c->mask |= READS_CPU;
	else if (slot == SLOT_T)
		c->mask |= READS_T;
	else if (slot >= SLOT_NFIXED)
		c->mask |= c->reads[slot - SLOT_NFIXED];
}

/* What each rate varies with (a rate reads only the slots and the rates above it, so one
 * pass in order settles it), kept for fill_lists(). */
static void rate_reads(struct sim_section *sec)
{
	sec->reads = xcalloc((size_t)sec->nrates + 1, 1);
	for (int list = 0; list < RATES_NLISTS; list++)
		sec->lists[list] = xcalloc((size_t)sec->nrates + 1, sizeof(int));
	for (int r = 0; r < sec->nrates; r++) {
		struct rate_reads c = { sec->reads, 0 };
		if (sec->rates[r].expr)
			expr_foreach_var(sec->rates[r].expr, mark_reads, &c);
		sec->reads[r] = c.mask;
	}
}

/* The section's needed rates in lists by what they vary with: those that read the CPU
 * are a CPU's own, the rest its socket's; those that do not read t are evaluated once.
 * In place: points hold the lists and their lengths by address. */
static void fill_lists(struct sim_section *sec)
{
	memset(sec->nlist, 0, sizeof(sec->nlist));
	for (int r = 0; r < sec->nrates; r++) {
		if (!sec->needed[r])
			continue;
		bool by_t = sec->reads[r] & READS_T, by_cpu = sec->reads[r] & READS_CPU;
		enum rate_list all = by_t ? RATES_ALL_T : RATES_ALL_ONCE;
		enum rate_list own = by_cpu ? (by_t ? RATES_CPU_T : RATES_CPU_ONCE) : (by_t ? RATES_SHARED_T : RATES_SHARED_ONCE);
		sec->lists[all][sec->nlist[all]++] = r;
		sec->lists[own][sec->nlist[own]++] = r;
	}
}

static int by_event(const void *a, const void *b, void *section)
{
	const struct sim_section *sec = section;
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(sec->rates[x].event, sec->rates[y].event);
	return c ? c : x - y; /* the first of a name, as a scan finds it */
}

static void index_rates(struct sim_section *sec)
{
	sec->by_name = xmalloc(sizeof(int) * (size_t)(sec->nrates + 1));
	for (int r = 0; r < sec->nrates; r++)
		sec->by_name[r] = r;
	qsort_r(sec->by_name, (size_t)sec->nrates, sizeof(int), by_event, sec);
}

static void need_rate(struct sim_section *sec, int r);

static void need_read(void *ctx, int slot)
{
	if (slot >= SLOT_NFIXED)
		need_rate(ctx, slot - SLOT_NFIXED);
}

/* Rate r is read from now on, and what it reads: the section's points evaluate it at
 * their next read (once-evaluated ones again, to have it). */
static void need_rate(struct sim_section *sec, int r)
{
	if (sec->needed[r])
		return;
	sec->needed[r] = true;
	if (sec->rates[r].expr)
		expr_foreach_var(sec->rates[r].expr, need_read, sec);
	sec->lists_stale = true; /* opening a catalogue's counters asks for rates one by one */
	sec->gen++; /* every point of the section evaluates again */
}

int sim_rate_find(const struct sim_section *sec, const char *event)
{
	if (!sec || !event)
		return -1;
	int lo = 0, hi = sec->nrates; /* the first rate whose event is not below */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(sec->rates[sec->by_name[mid]].event, event) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= sec->nrates || strcmp(sec->rates[sec->by_name[lo]].event, event))
		return -1;
	return sec->by_name[lo];
}

int sim_rate_index(const struct sim_section *sec, const char *event)
{
	int r = sim_rate_find(sec, event);
	if (r < 0)
		return -1;
	struct sim_section *shared = (struct sim_section *)sec; /* the model's: found is read */
	shared->readers[r]++;
	need_rate(shared, r);
	return r;
}

/* A counter that read rate closes; when none reads it, the needed rates are those the
 * others read (a hidden pane's counters leave the points' work with them). */
void sim_rate_release(const struct sim_section *csec, int rate)
{
	struct sim_section *sec = (struct sim_section *)csec;
	if (!sec || rate < 0 || rate >= sec->nrates || sec->readers[rate] <= 0 || --sec->readers[rate])
		return;
	memset(sec->needed, 0, sizeof(bool) * (size_t)sec->nrates);
	for (int r = 0; r < sec->nrates; r++)
		if (sec->readers[r])
			need_rate(sec, r);
	sec->lists_stale = true;
	sec->gen++;
}

/* A point evaluates the list of rates that vary with t each time, the next list once. */
static void point_lists(struct sim_point *pt, enum rate_list each)
{
	pt->each = pt->sec->lists[each];
	pt->neach = &pt->sec->nlist[each];
	pt->once = pt->sec->lists[each + 1];
	pt->nonce = &pt->sec->nlist[each + 1];
}

/* How many PMUs the section models on a socket (sim_section_note_units), 1 if not said. */
static double section_units(const struct sim_section *sec, int socket)
{
	return socket >= 0 && socket < sec->nunits && sec->units[socket] > 0 ? sec->units[socket] : 1;
}

void sim_section_note_units(const struct sim_section *csec, int socket, int n)
{
	struct sim_section *sec = (struct sim_section *)csec; /* the model's, shared: set once */
	if (!sec || socket < 0)
		return;
	if (socket >= sec->nunits) {
		sec->units = xrealloc(sec->units, sizeof(int) * (size_t)(socket + 1));
		memset(sec->units + sec->nunits, 0, sizeof(int) * (size_t)(socket + 1 - sec->nunits));
		sec->nunits = socket + 1;
	}
	sec->units[socket] = n;
}

bool sim_section_reads_units(const struct sim_section *sec, int socket)
{
	return sec && sec->uses[SLOT_UNITS] && !(socket >= 0 && socket < sec->nunits && sec->units[socket] > 0);
}

static double *new_slots(struct sim_point *pt, const struct sim_section *sec, int socket, int index, int cpu)
{
	pt->moves = sec->uses[SLOT_T];
	pt->gen = &sec->gen;
	pt->seen = sec->gen;
	double *slots = xcalloc((size_t)(SLOT_NFIXED + sec->nrates), sizeof(double));
	slots[SLOT_UNITS] = section_units(sec, socket);
	slots[SLOT_SOCKET] = socket;
	slots[SLOT_INDEX] = index;
	slots[SLOT_CPU] = cpu;
	pt->rates = slots + SLOT_NFIXED;
	return slots;
}

/* The section's point for the rates that do not read the CPU at (socket, index). */
static struct sim_point *base_point(struct sim_section *sec, int socket, int index)
{
	for (int b = 0; b < sec->nbases; b++) {
		const double *slots = sec->bases[b]->slots;
		if (slots[SLOT_SOCKET] == socket && slots[SLOT_INDEX] == index)
			return sec->bases[b];
	}
	struct sim_point *base = xcalloc(1, sizeof(*base));
	*base = (struct sim_point){ .sec = sec };
	base->slots = new_slots(base, sec, socket, index, -1);
	point_lists(base, RATES_SHARED_T);
	sec->bases = xrealloc(sec->bases, sizeof(*sec->bases) * (size_t)(sec->nbases + 1));
	sec->bases[sec->nbases++] = base;
	return base;
}

static void point_init_whole(struct sim_point *pt, const struct sim_section *sec, int socket, int index, int cpu)
{
	*pt = (struct sim_point){ .sec = sec };
	pt->slots = new_slots(pt, sec, socket, index, cpu);
	point_lists(pt, RATES_ALL_T);
}

int sim_place_index(const char *name)
{
	const char *end = name + strlen(name), *p = end;
	while (p > name && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p < end ? atoi(p) : 0;
}

void sim_point_init(struct sim_point *pt, const struct sim_section *sec, int socket, int index, int cpu)
{
	static const unsigned never;
	*pt = (struct sim_point){ .sec = sec, .gen = &never };
	if (!sec)
		return;
	pt->slots = new_slots(pt, sec, socket, index, cpu);
	bool cpu_own = false, shared = false; /* of all its rates: which are read comes later */
	for (int r = 0; r < sec->nrates; r++)
		*(sec->reads[r] & READS_CPU ? &cpu_own : &shared) = true;
	if (cpu_own && shared) { /* the model's CPUs share what does not vary with them */
		pt->shared = base_point((struct sim_section *)sec, socket, index);
		point_lists(pt, RATES_CPU_T);
	} else {
		point_lists(pt, RATES_ALL_T);
	}
}

struct sim_point *sim_point_at(const struct sim_section *sec, int socket, int index, int cpu)
{
	struct sim_section *s = (struct sim_section *)sec; /* its cache of places, as bases */
	for (int i = 0; i < s->nplaces; i++) {
		const double *slots = s->places[i]->slots;
		if (slots[SLOT_SOCKET] == socket && slots[SLOT_INDEX] == index && slots[SLOT_CPU] == cpu)
			return s->places[i];
	}
	struct sim_point *pt = xcalloc(1, sizeof(*pt));
	sim_point_init(pt, sec, socket, index, cpu);
	s->places = xrealloc(s->places, sizeof(*s->places) * (size_t)(s->nplaces + 1));
	s->places[s->nplaces++] = pt;
	return pt;
}

void sim_point_release(struct sim_point *pt)
{
	free(pt->slots);
	pt->slots = NULL;
}

bool sim_section_reads_cpu(const struct sim_section *sec)
{
	return sec && sec->uses[SLOT_CPU];
}

void sim_point_evaluate(struct sim_point *pt, double t)
{
	const struct sim_section *sec = pt->sec;
	double *slots = pt->slots;
	if (sec->lists_stale) {
		fill_lists((struct sim_section *)sec); /* the model's, as need_rate's */
		((struct sim_section *)sec)->lists_stale = false;
	}
	if (*pt->gen != pt->seen) { /* a rate newly needed: evaluate all again, once-only too */
		pt->valid = false;
		pt->seen = *pt->gen;
	}
	if (pt->valid && (!pt->moves || pt->t == t))
		return;
	pt->t = slots[SLOT_T] = t;
	if (pt->shared) {
		sim_point_evaluate(pt->shared, t);
		for (int list = RATES_SHARED_T; list <= RATES_SHARED_ONCE; list++)
			for (int i = 0; i < sec->nlist[list]; i++) {
				int r = SLOT_NFIXED + sec->lists[list][i];
				slots[r] = pt->shared->slots[r];
			}
	}
	for (int i = 0; !pt->valid && i < *pt->nonce; i++) {
		int r = pt->once[i];
		slots[SLOT_NFIXED + r] = expr_eval(sec->rates[r].expr, slots);
	}
	for (int i = 0; i < *pt->neach; i++) {
		int r = pt->each[i];
		slots[SLOT_NFIXED + r] = expr_eval(sec->rates[r].expr, slots);
	}
	pt->valid = true;
}

double sim_rate_of_reading(const struct sim_section *sec, int rate, const char *event, double t, int socket,
			   double reading)
{
	struct sim_point *pt = sec ? sec->last : NULL; /* the section's last place */
	if (pt && sec->uses[SLOT_READING] && pt->slots[SLOT_READING] != reading) {
		pt->slots[SLOT_READING] = reading;
		pt->valid = false;
	}
	return sim_rate(sec, rate, event, t, socket, 0, 0);
}

double sim_rate(const struct sim_section *sec, int rate, const char *event, double t, int socket, int index, int cpu)
{
	if (!sec || rate < 0)
		return sim_default_rate(event);
	/* callers that keep no point of their own: the section's last place, kept while the
	 * place it is asked for does not change */
	struct sim_point *pt = sec->last;
	double *slots = pt->slots;
	if ((sec->uses[SLOT_SOCKET] && slots[SLOT_SOCKET] != socket) ||
	    (sec->uses[SLOT_INDEX] && slots[SLOT_INDEX] != index) || (sec->uses[SLOT_CPU] && slots[SLOT_CPU] != cpu)) {
		slots[SLOT_SOCKET] = socket;
		slots[SLOT_INDEX] = index;
		slots[SLOT_CPU] = cpu;
		slots[SLOT_UNITS] = section_units(sec, socket);
		pt->valid = false;
	}
	return sim_point_rate(pt, rate, t);
}

void sim_section_ready(struct sim_section *sec)
{
	for (int r = 0; r < sec->nrates; r++)
		if (sec->rates[r].expr)
			expr_foreach_var(sec->rates[r].expr, mark_use, sec);
	rate_reads(sec);
	index_rates(sec);
	sec->last = xcalloc(1, sizeof(*sec->last));
	point_init_whole(sec->last, sec, 0, 0, 0); /* sim_rate() moves it: every rate */
}

/* Plausible, stable rates for events the model does not name. */
double sim_default_rate(const char *event)
{
	uint32_t h = 2166136261u;
	for (const char *p = event; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	if (strstr(event, "cycles"))
		return 1e9 + (double)(h % 1000) * 1e6;
	return 1e6 * (double)(1 + h % 1000);
}
