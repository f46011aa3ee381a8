/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_filter.c - a profile's typed filters: their type names, which events each
 * applies to, when one is in use, and a value typed by a user (flag, mask, int, hex, BDF,
 * enum choice, event name) checked against its type and range. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "profile/profile.h"
#include "profile/profile_load.h"

/* yes/no, true/false, on/off, 1/0: a flag filter's value and a profile's booleans */
bool prof_parse_bool(const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0"))
		*out = false;
	else
		return false;
	return true;
}

const char *filter_type_name(enum filter_type t)
{
	static const char *const names[] = { "flag", "mask", "int", "hex", "bdf", "enum", "event" };
	return names[t];
}

bool filter_type_parse(const char *s, enum filter_type *t)
{
	for (int i = 0; i <= FILTER_EVENT; i++) {
		if (!strcmp(s, filter_type_name((enum filter_type)i))) {
			*t = (enum filter_type)i;
			return true;
		}
	}
	return false;
}

bool filter_in_use(const struct prof_group *g, int f, const uint64_t *values, const bool *set)
{
	const char *term = g->filters[f].term;
	for (int x = 0; x < g->nfilters; x++) {
		const struct prof_filter *en = &g->filters[x];
		if (en->type != FILTER_ENUM || x == f)
			continue;
		bool owned = false, used = false;
		for (int c = 0; c < en->nchoices; c++)
			for (char **u = en->choices[c].uses; u && *u; u++)
				if (!strcmp(*u, term)) {
					owned = true;
					used |= set[x] && values[x] == (uint64_t)c;
				}
		if (owned && !used)
			return false;
	}
	return true;
}

bool filter_applies(const struct prof_group *g, const struct prof_filter *f, int e)
{
	if (!f->events)
		return true;
	for (char **p = f->events; *p; p++)
		if (!strcmp(*p, g->events[e].name) || !strcmp(*p, g->events[e].terms))
			return true;
	return false;
}

bool filter_parse_value(const struct prof_filter *f, const char *text, uint64_t *out, char **err)
{
	*err = NULL;
	if (f->type == FILTER_ENUM) {
		size_t len = 16;
		for (int i = 0; i < f->nchoices; i++) {
			if (!strcmp(f->choices[i].name, text)) {
				*out = (uint64_t)i;
				return true;
			}
			len += strlen(f->choices[i].name) + 2;
		}
		char *list = xcalloc(1, len);
		for (int i = 0; i < f->nchoices; i++) {
			strcat(list, i ? ", " : "");
			strcat(list, f->choices[i].name);
		}
		*err = xasprintf("'%s' is not one of %s", text, f->nchoices ? list : "(no choices)");
		free(list);
		return false;
	}
	if (f->type == FILTER_FLAG) {
		bool b;
		uint64_t n;
		if (prof_parse_bool(text, &b)) {
			*out = b;
			return true;
		}
		if (parse_u64(text, &n) && n <= 1) { /* perf users write src_loc_cpu=0x1 */
			*out = n;
			return true;
		}
		*err = xasprintf("'%s' is not on/off (use 1, 0, on, off, yes or no)", text);
		return false;
	}
	if (f->type == FILTER_BDF) {
		unsigned dom, bus, dev, fn;
		char tail;
		if (sscanf(text, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4 ||
		    sscanf(text, "%x:%x.%x%c", &bus, &dev, &fn, &tail) == 3) {
			if (bus > 0xff || dev > 0x1f || fn > 7) {
				*err = xasprintf("'%s' is not a BDF (bus 00-ff, device 00-1f, function 0-7)", text);
				return false;
			}
			*out = (bus << 8) | (dev << 3) | fn;
			return true;
		}
	}
	if (f->type == FILTER_MASK && text[0] == '0' && (text[1] == 'b' || text[1] == 'B') && text[2]) {
		uint64_t v = 0;
		for (const char *p = text + 2; *p; p++) {
			if ((*p != '0' && *p != '1') || p - text > 65) {
				*err = xasprintf("'%s' is not a binary mask", text);
				return false;
			}
			v = v << 1 | (uint64_t)(*p - '0');
		}
		*out = v;
		return true;
	}
	if (!parse_u64(text, out)) {
		*err = xasprintf("'%s' is not a %s value (decimal or 0x-hex%s)", text, filter_type_name(f->type),
				 f->type == FILTER_BDF ? ", or bus:device.function like 27:01.1" : "");
		return false;
	}
	return true;
}
