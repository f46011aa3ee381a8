/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_decode.c - which event an attr counts, as the simulated hardware sees it: the
 * PMU's aliases decoded from their format fields, so a raw encoding, a legacy event or
 * an alias with filters added all find the rate the model names. */
#include "sim/simmodel.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
/* A PMU's last answers: every CPU's instance opens the same few encodings, and a scan of
 * a core PMU's aliases costs two thousand instructions. */
#define DECODE_RECENT 16

/* Bits the alias's own terms set in each word: a field's bits, or a whole word for config=. */
static void alias_masks(const struct pmu *p, const char *terms, uint64_t mask[CONFIG_WORDS])
{
	memset(mask, 0, sizeof(uint64_t) * CONFIG_WORDS);
	char *copy = xstrdup(terms), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		t = trim(t);
		const struct format_field *f = pmu_find_format(p, t);
		if (f && f->word >= 0 && f->word < CONFIG_WORDS)
			mask[f->word] |= f->bits;
		else if (!f && str_has_prefix(t, "config") && (!t[6] || (t[6] >= '0' && t[6] - '0' < CONFIG_WORDS && !t[7])))
			mask[t[6] ? t[6] - '0' : 0] = ~0ull;
	}
	free(copy);
}

/* x86's event select and unit mask name an event together: an alias that sets the event
 * and not the mask is mask 0 (instructions is INST_RETIRED.ANY, not .NOP). */
static void event_needs_umask(const struct pmu *p, uint64_t mask[CONFIG_WORDS])
{
	const struct format_field *ev = pmu_find_format(p, "event"), *um = pmu_find_format(p, "umask");
	if (ev && um && ev->word == um->word && ev->word >= 0 && ev->word < CONFIG_WORDS && (mask[ev->word] & ev->bits))
		mask[um->word] |= um->bits;
}

/* Each PMU's aliases, encoded once: the value and the bits each sets in each word. */
struct decoded_alias {
	const char *name;
	uint64_t value[CONFIG_WORDS], mask[CONFIG_WORDS];
	int bits;
};

struct decoded_answer {
	uint64_t config[CONFIG_WORDS];
	const char *name;
};

struct decoded_pmu {
	const struct pmu *p;
	int n;
	struct decoded_alias *a;
	struct decoded_answer recent[DECODE_RECENT];
	int nrecent, next;
};

struct sim_decoder {
	const struct machine *m;
	int npmus;
	struct decoded_pmu *pmus;
};

struct sim_decoder *sim_decoder_new(const struct machine *m)
{
	struct sim_decoder *d = xcalloc(1, sizeof(*d));
	d->m = m;
	return d;
}

void sim_decoder_free(struct sim_decoder *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->npmus; i++)
		free(d->pmus[i].a);
	free(d->pmus);
	free(d);
}

/* Whether p and q encode alike: the same format fields and the same aliases (a socket's
 * and a root complex's PMUs of one kind). */
static bool same_events(const struct pmu *p, const struct pmu *q)
{
	if (p->nformats != q->nformats || p->naliases != q->naliases)
		return false;
	for (int i = 0; i < p->nformats; i++)
		if (p->formats[i].word != q->formats[i].word || p->formats[i].bits != q->formats[i].bits ||
		    strcmp(p->formats[i].name, q->formats[i].name))
			return false;
	for (int i = 0; i < p->naliases; i++)
		if (strcmp(p->aliases[i].name, q->aliases[i].name) || strcmp(p->aliases[i].terms, q->aliases[i].terms))
			return false;
	return true;
}

/* A PMU decoded already that encodes as p does, or -1: its table is p's. */
static int twin_of(const struct sim_decoder *d, const struct pmu *p)
{
	for (int i = 0; i < d->npmus; i++)
		if (same_events(d->pmus[i].p, p))
			return i;
	return -1;
}

static struct decoded_pmu *decoded(struct sim_decoder *d, const struct pmu *p)
{
	for (int i = 0; i < d->npmus; i++)
		if (d->pmus[i].p == p)
			return &d->pmus[i];
	int twin = twin_of(d, p);
	d->pmus = xrealloc(d->pmus, sizeof(*d->pmus) * (size_t)(d->npmus + 1));
	struct decoded_pmu *dp = &d->pmus[d->npmus++];
	memset(dp, 0, sizeof(*dp));
	dp->p = p;
	if (twin >= 0) {
		dp->n = d->pmus[twin].n;
		dp->a = xmalloc(sizeof(*dp->a) * (size_t)(dp->n ? dp->n : 1));
		memcpy(dp->a, d->pmus[twin].a, sizeof(*dp->a) * (size_t)dp->n);
		return dp;
	}
	dp->a = xcalloc((size_t)(p->naliases ? p->naliases : 1), sizeof(*dp->a));
	for (int i = 0; i < p->naliases; i++) {
		const struct pmu_alias *a = &p->aliases[i];
		char *s = xasprintf("%s/%s/", p->name, a->terms);
		struct encoded_event enc;
		char *err;
		int r = encode_event(d->m, s, &enc, &err);
		free(s);
		if (r < 0) {
			free(err);
			continue;
		}
		struct decoded_alias *da = &dp->a[dp->n++];
		da->name = a->name;
		da->bits = 0;
		alias_masks(p, a->terms, da->mask);
		for (int w = 0; w < CONFIG_WORDS; w++) /* the most specific wins: what it names */
			da->bits += __builtin_popcountll(da->mask[w]);
		event_needs_umask(p, da->mask);
		for (int w = 0; w < CONFIG_WORDS; w++)
			da->value[w] = enc.attr.config[w] & da->mask[w];
	}
	return dp;
}

static const char *decode_scan(const struct decoded_pmu *dp, const struct event_attr *attr)
{
	const char *best = NULL;
	int bestbits = -1;
	for (int i = 0; i < dp->n; i++) {
		const struct decoded_alias *a = &dp->a[i];
		bool match = true;
		for (int w = 0; w < CONFIG_WORDS && match; w++)
			match = (attr->config[w] & a->mask[w]) == a->value[w];
		if (match && a->bits > bestbits) {
			best = a->name;
			bestbits = a->bits;
		}
	}
	return best;
}

const char *sim_decode_event(struct sim_decoder *d, const struct pmu *p, const struct event_attr *attr)
{
	struct decoded_pmu *dp = decoded(d, p);
	for (int i = 0; i < dp->nrecent; i++)
		if (!memcmp(dp->recent[i].config, attr->config, sizeof(attr->config)))
			return dp->recent[i].name;
	struct decoded_answer *r = &dp->recent[dp->next];
	dp->next = (dp->next + 1) % DECODE_RECENT;
	if (dp->nrecent < DECODE_RECENT)
		dp->nrecent++;
	memcpy(r->config, attr->config, sizeof(r->config));
	return r->name = decode_scan(dp, attr);
}
