/* SPDX-License-Identifier: GPL-2.0-only */
/* encode.c - perf event strings to attr fields, with perf's own rules:
 *  - "pmu/t1,t2=v,.../": each term is a format field (a bare field means =1), one of
 *    config/config1/config2/config3 (sets the raw word: the last one given wins, and the
 *    fields' bits are ORed into it, as perf does), or an alias from events/
 *    (case-insensitive), whose own terms are applied in its place;
 *  - field values are scattered low bit first over the field's bits and OR-ed in, so an
 *    alias and explicit filter terms merge;
 *  - a value wider than its field is an error, as is any unknown term;
 *  - modifiers after the terms ("pmu/terms/k") or a legacy name ("cycles:u") set perf's
 *    exclude bits: u, k and h (what a counter counts; the sampling ones are refused). */
#include "machine/encode.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define PERF_TYPE_HARDWARE_ 0
#define PERF_TYPE_SOFTWARE_ 1
#define PERF_TYPE_HW_CACHE_ 3

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} legacy[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE_, 0 },
	{ "task-clock", PERF_TYPE_SOFTWARE_, 1 },
	{ "page-faults", PERF_TYPE_SOFTWARE_, 2 },
	{ "faults", PERF_TYPE_SOFTWARE_, 2 },
	{ "context-switches", PERF_TYPE_SOFTWARE_, 3 },
	{ "cs", PERF_TYPE_SOFTWARE_, 3 },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE_, 4 },
	{ "migrations", PERF_TYPE_SOFTWARE_, 4 },
	{ "minor-faults", PERF_TYPE_SOFTWARE_, 5 },
	{ "major-faults", PERF_TYPE_SOFTWARE_, 6 },
	{ "alignment-faults", PERF_TYPE_SOFTWARE_, 7 },
	{ "emulation-faults", PERF_TYPE_SOFTWARE_, 8 },
	{ "dummy", PERF_TYPE_SOFTWARE_, 9 },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE_, 11 },
	{ "cpu-cycles", PERF_TYPE_HARDWARE_, 0 },
	{ "cycles", PERF_TYPE_HARDWARE_, 0 },
	{ "instructions", PERF_TYPE_HARDWARE_, 1 },
	{ "cache-references", PERF_TYPE_HARDWARE_, 2 },
	{ "cache-misses", PERF_TYPE_HARDWARE_, 3 },
	{ "branch-instructions", PERF_TYPE_HARDWARE_, 4 },
	{ "branches", PERF_TYPE_HARDWARE_, 4 },
	{ "branch-misses", PERF_TYPE_HARDWARE_, 5 },
	{ "bus-cycles", PERF_TYPE_HARDWARE_, 6 },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE_, 7 },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE_, 8 },
	{ "ref-cycles", PERF_TYPE_HARDWARE_, 9 },
	/* perf's generic cache events: cache | op << 8 | result << 16 (read, access or miss) */
	{ "L1-dcache-loads", PERF_TYPE_HW_CACHE_, 0x00000 },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE_, 0x10000 },
	{ "L1-icache-load-misses", PERF_TYPE_HW_CACHE_, 0x10001 },
	{ "LLC-loads", PERF_TYPE_HW_CACHE_, 0x00002 },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE_, 0x10002 },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE_, 0x10003 },
	{ "iTLB-load-misses", PERF_TYPE_HW_CACHE_, 0x10004 },
	{ "branch-load-misses", PERF_TYPE_HW_CACHE_, 0x10005 },
};

bool encode_legacy_event(const char *name, struct event_attr *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(legacy); i++) {
		if (!strcmp(legacy[i].name, name)) {
			memset(out, 0, sizeof(*out));
			out->type = legacy[i].type;
			out->config[0] = legacy[i].config;
			return true;
		}
	}
	return false;
}

const char *encode_legacy_name(int i, uint32_t *type)
{
	if (i < 0 || (size_t)i >= ARRAY_SIZE(legacy))
		return NULL;
	if (type)
		*type = legacy[i].type;
	return legacy[i].name;
}

/* "valid terms: a, b, c, config, config1, config2; events: x, y" */
static char *valid_terms(const struct pmu *p)
{
	size_t cap = 256, len = 0;
	char *s = xmalloc(cap);
	s[0] = '\0';
#define APPEND(str)                                                \
	do {                                                       \
		const char *a_ = (str);                            \
		size_t n_ = strlen(a_);                            \
		while (len + n_ + 1 > cap)                         \
			s = xrealloc(s, cap *= 2);                 \
		memcpy(s + len, a_, n_ + 1);                       \
		len += n_;                                         \
	} while (0)
	APPEND("valid terms: ");
	for (int i = 0; i < p->nformats; i++) {
		APPEND(p->formats[i].name);
		APPEND(", ");
	}
	APPEND("config, config1, config2");
	if (p->naliases) {
		APPEND("; events: ");
		for (int i = 0; i < p->naliases; i++) {
			if (i)
				APPEND(", ");
			APPEND(p->aliases[i].name);
		}
	}
#undef APPEND
	return s;
}

static int apply_terms(const struct pmu *p, const char *terms, struct encoded_event *out, int depth,
		       const char *what, char **err);

static int apply_term(const struct pmu *p, const char *name, const char *value, struct encoded_event *out,
		      int depth, const char *what, char **err)
{
	uint64_t v = 1;
	if (!strcmp(name, "name") || !strcmp(name, "metric-id"))
		return 0; /* perf's naming terms take any text and change nothing in the attr */
	if (value && !parse_u64(value, &v)) {
		*err = xasprintf("%s: bad value '%s' for term '%s' (want decimal or 0x-hex)", what, value, name);
		return -1;
	}
	if (!strcmp(name, "config") || (str_has_prefix(name, "config") && strlen(name) == 7 &&
					  name[6] >= '1' && name[6] <= '3')) {
		if (!value) {
			*err = xasprintf("%s: term '%s' needs a value", what, name);
			return -1;
		}
		int word = name[6] ? name[6] - '0' : 0;
		/* perf's config_attr() sets the raw words first, each config= replacing the last,
		 * and perf_pmu__config() ORs the format fields and aliases' bits into them */
		out->raw[word] = v;
		return 0;
	}
	const struct format_field *f = pmu_find_format(p, name);
	if (f) {
		if (v > format_max(f)) {
			*err = xasprintf("%s: value 0x%llx too big for term '%s' (%s), maximum is 0x%llx", what,
					 (unsigned long long)v, name, f->spec, (unsigned long long)format_max(f));
			return -1;
		}
		format_place(f, v, out->attr.config);
		return 0;
	}
	const struct pmu_alias *a = pmu_find_alias(p, name);
	if (a && !value && depth == 0) {
		if (out->alias) {
			*err = xasprintf("%s: two events in one: '%s' and '%s' (perf refuses this too)", what, out->alias,
					 a->name);
			return -1;
		}
		out->alias = a->name;
		out->scale = a->scale;
		out->unit = a->unit;
		int r = apply_terms(p, a->terms, out, depth + 1, what, err);
		if (r < 0 && *err && str_has_prefix(*err, what)) {
			/* say which alias the bad term came from; made only on failure (formatting
			 * it for every alias was a twentieth of the demo's start-up) */
			size_t n = strlen(what);
			char *e = xasprintf("%s (event %s of %s is '%s')%s", what, a->name, p->name, a->terms, *err + n);
			free(*err);
			*err = e;
		}
		return r;
	}
	char *valid = valid_terms(p);
	*err = xasprintf("%s: unknown term '%s' for PMU %s; %s", what, name, p->name, valid);
	free(valid);
	return -1;
}

static int apply_terms(const struct pmu *p, const char *terms, struct encoded_event *out, int depth,
		       const char *what, char **err)
{
	char *copy = xstrdup(terms);
	int r = 0;
	/* split by hand: strtok would silently skip the empty term in "a,,b" */
	for (char *t = copy, *next; t; t = next) {
		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		t = trim(t);
		if (!*t) {
			*err = xasprintf("%s: empty term", what);
			r = -1;
			break;
		}
		char *eq = strchr(t, '=');
		char *value = NULL;
		if (eq) {
			*eq = '\0';
			value = trim(eq + 1);
			t = trim(t);
		}
		if ((r = apply_term(p, t, value, out, depth, what, err)) < 0)
			break;
	}
	free(copy);
	return r;
}

int encode_modifiers(const char *mods, const char **bad)
{
	int exclude = 0;
	bool any = false; /* perf: the first of u, k, h excludes all three, each then lets its own in */
	for (const char *c = mods; *c; c++) {
		int keep = *c == 'u' ? EXCLUDE_USER : *c == 'k' ? EXCLUDE_KERNEL : *c == 'h' ? EXCLUDE_HV : 0;
		if (!keep) {
			*bad = c;
			return -1;
		}
		if (!any)
			exclude |= EXCLUDE_USER | EXCLUDE_KERNEL | EXCLUDE_HV;
		any = true;
		if (*c == 'u')
			exclude |= EXCLUDE_GUEST; /* perf's :u counts no guest either */
	}
	for (const char *c = mods; *c; c++)
		exclude &= ~(*c == 'u' ? EXCLUDE_USER : *c == 'k' ? EXCLUDE_KERNEL : EXCLUDE_HV);
	return exclude;
}

const char *encode_modifier_text(uint8_t exclude)
{
	/* indexed by which of user, kernel, hv are let in while another is not */
	static const char *const text[8] = { "", "u", "k", "uk", "h", "uh", "kh", "ukh" };
	int in = 0;
	if (!(exclude & (EXCLUDE_USER | EXCLUDE_KERNEL | EXCLUDE_HV)))
		return "";
	in |= exclude & EXCLUDE_USER ? 0 : 1;
	in |= exclude & EXCLUDE_KERNEL ? 0 : 2;
	in |= exclude & EXCLUDE_HV ? 0 : 4;
	return text[in];
}

/* The modifiers after an event ("cycles:u", "cpu/event=0x3c/k") into out; -1 with *err. */
static int apply_modifiers(const char *text, const char *mods, struct encoded_event *out, char **err)
{
	const char *bad;
	int exclude = encode_modifiers(mods, &bad);
	if (exclude < 0) {
		*err = xasprintf("%s: modifier '%c' is not one pmutop takes (it counts, it does not sample: "
				 "u user, k kernel, h hypervisor)",
				 text, *bad);
		return -1;
	}
	out->attr.exclude = (uint8_t)exclude;
	return 0;
}

static int encode_legacy_text(const char *text, struct encoded_event *out, char **err)
{
	const char *colon = strchr(text, ':');
	char *name = colon ? xstrndup(text, (size_t)(colon - text)) : xstrdup(text);
	bool known = encode_legacy_event(name, &out->attr);
	free(name);
	if (!known) {
		*err = xasprintf("%s: unknown event (want PMU/TERMS/ or a software/hardware event "
				 "such as cpu-clock or context-switches)",
				 text);
		return -1;
	}
	return colon ? apply_modifiers(text, colon + 1, out, err) : 0;
}

int encode_event(const struct machine *m, const char *text, struct encoded_event *out, char **err)
{
	memset(out, 0, sizeof(*out));
	out->scale = 1.0;
	*err = NULL;
	const char *slash = strchr(text, '/');
	if (!slash)
		return encode_legacy_text(text, out, err);
	const char *end = strrchr(text, '/'); /* the terms' closing slash; modifiers may follow */
	if (end == slash) {
		*err = xasprintf("%s: malformed event (want PMU/TERMS/)", text);
		return -1;
	}
	char *pmu_name = xstrndup(text, (size_t)(slash - text));
	const struct pmu *p = machine_find_pmu(m, pmu_name);
	if (!p) {
		*err = xasprintf("%s: no PMU named '%s' under %s/sys/bus/event_source/devices", text, pmu_name,
				 strcmp(m->root, "/") ? m->root : "");
		free(pmu_name);
		return -1;
	}
	free(pmu_name);
	if (p->type < 0 && !pmu_is_pseudo(p)) { /* bfperf blocks, sensors, the timer: no perf type */
		*err = xasprintf("%s: PMU %s has no readable type file", text, p->name);
		return -1;
	}
	if (end[1] && (pmu_is_pseudo(p) ||
		       apply_modifiers(text, end[1] == ':' ? end + 2 : end + 1, out, err) < 0)) {
		if (!*err)
			*err = xasprintf("%s: %s counts what its hardware counts: no modifiers", text, p->name);
		return -1;
	}
	out->pmu = p;
	out->attr.type = pmu_is_pseudo(p) ? UINT32_MAX : (uint32_t)p->type;
	char *terms = xstrndup(slash + 1, (size_t)(end - (slash + 1)));
	int r = apply_terms(p, terms, out, 0, text, err);
	free(terms);
	for (int w = 0; w < CONFIG_WORDS; w++)
		out->attr.config[w] |= out->raw[w];
	return r;
}

void encode_format_attr(const struct event_attr *a, char *buf, size_t len)
{
	int n = snprintf(buf, len, "type=%u\tconfig=0x%llx\tconfig1=0x%llx\tconfig2=0x%llx", a->type,
			 (unsigned long long)a->config[0], (unsigned long long)a->config[1],
			 (unsigned long long)a->config[2]);
	static const char *const names[] = { "exclude_user", "exclude_kernel", "exclude_hv", "exclude_guest" };
	for (size_t i = 0; i < ARRAY_SIZE(names) && n >= 0 && (size_t)n < len; i++)
		if (a->exclude & (1u << i))
			n += snprintf(buf + n, len - (size_t)n, "\t%s=1", names[i]);
}
