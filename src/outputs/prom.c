/* SPDX-License-Identifier: GPL-2.0-only */
/* prom.c - Prometheus names, units and escaping. */
#include "outputs/prom.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

void prom_unit_of(const char *unit, struct prom_unit *out)
{
	static const struct {
		const char *unit, *suffix, *om;
		double factor;
	} units[] = {
		{ "GB/s", "bytes_per_second", "bytes_per_second", 1e9 }, { "MB/s", "bytes_per_second", "bytes_per_second", 1e6 },
		{ "B/s", "bytes_per_second", "bytes_per_second", 1 },    { "ns", "seconds", "seconds", 1e-9 },
		{ "us", "seconds", "seconds", 1e-6 },                    { "ms", "seconds", "seconds", 1e-3 },
		{ "s", "seconds", "seconds", 1 },                        { "%", "ratio", "ratio", 0.01 },
		{ "GHz", "hertz", "hertz", 1e9 },                        { "MHz", "hertz", "hertz", 1e6 },
		{ "W", "watts", "watts", 1 },                            { "J", "joules", "joules", 1 },
		{ "Joules", "joules", "joules", 1 },                     { "°C", "celsius", "celsius", 1 },
		{ "C", "celsius", "celsius", 1 },                        { "RPM", "rpm", NULL, 1 },
		{ "/s", "per_second", NULL, 1 },                        { "errors/s", "errors_per_second", NULL, 1 },
		{ "x", "ratio", "ratio", 1 },                            { "MiB", "bytes", "bytes", 1048576 },
	};
	*out = (struct prom_unit){ "", NULL, 1 };
	for (size_t i = 0; unit && i < ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i].unit)) {
			*out = (struct prom_unit){ units[i].suffix, units[i].om, units[i].factor };
			return;
		}
}

/* Words a name may end with that its unit suffix already says ("power_w" + watts,
 * "in_bytes" + bytes_per_second): dropped, or replaced by the word the unit lacks
 * ("ssu_rpu_pps" + per_second is packets_per_second). The naming guide wants one unit
 * suffix. */
static void drop_unit_word(char *buf, const char *suffix)
{
	static const struct {
		const char *suffix, *word, *instead;
	} redundant[] = {
		{ "bytes_per_second", "_bytes", "" }, { "watts", "_w", "" },	  { "hertz", "_ghz", "" },
		{ "hertz", "_mhz", "" },	      { "hertz", "_hz", "" },	  { "seconds", "_ns", "" },
		{ "per_second", "_pps", "_packets" }, { "joules", "_value", "" }, { "errors_per_second", "_errors", "" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(redundant); i++)
		if (!strcmp(suffix, redundant[i].suffix) && str_has_suffix(buf, redundant[i].word)) {
			size_t at = strlen(buf) - strlen(redundant[i].word);
			if (strlen(redundant[i].instead) <= strlen(redundant[i].word) + 8) /* buf has room: see below */
				strcpy(buf + at, redundant[i].instead);
			return;
		}
}

/* Names are lower case (the naming guide; HNF_REQUESTS is hnf_requests): a name must
 * not depend on how a driver spelled its event. */
static size_t put_clean(char *buf, size_t len, size_t at, const char *s)
{
	for (; s && *s && at + 1 < len; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
		c = ok ? (c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c) : '_';
		if (c == '_' && at && buf[at - 1] == '_')
			continue; /* one '_' where several characters were not allowed */
		buf[at++] = c;
	}
	buf[at] = '\0';
	return at;
}

/* A word promtool's lint takes for an abbreviated unit ("_ms_", a name ending "_s"):
 * in names from hardware event names it is none (UOPS_RETIRED.MS is the microcode
 * sequencer, UNC_M_CAS_COUNT the memory controller's), so it is joined to the word
 * before it (uops_retiredms, uncm_cas_count): the name stays the event's, and lint-clean. */
static size_t join_unit_words(char *buf, size_t at)
{
	static const char *const abbrev[] = { "s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb", "pb", "m", "h", "d" };
	for (size_t i = 7; i < at; i++) { /* after "pmutop_" */
		if (buf[i] != '_')
			continue;
		size_t w = i + 1, e = w;
		while (e < at && buf[e] != '_')
			e++;
		for (size_t k = 0; k < ARRAY_SIZE(abbrev); k++)
			if (e - w == strlen(abbrev[k]) && !strncmp(buf + w, abbrev[k], e - w)) {
				memmove(buf + i, buf + i + 1, at - i); /* the '_' before it goes, with the NUL */
				at--;
				break;
			}
	}
	return at;
}

void prom_metric_name(char *buf, size_t len, const char *a, const char *b, const char *suffix, bool total)
{
	size_t at = put_clean(buf, len, 0, "pmutop_");
	at = put_clean(buf, len, at, a);
	if (b && *b) {
		at = put_clean(buf, len, at, "_");
		at = put_clean(buf, len, at, b);
	}
	while (at && buf[at - 1] == '_')
		buf[--at] = '\0';
	at = join_unit_words(buf, at);
	if (suffix && *suffix && !str_has_suffix(buf, suffix) && at + 16 < len) {
		drop_unit_word(buf, suffix);
		at = strlen(buf);
		at = put_clean(buf, len, at, "_");
		at = put_clean(buf, len, at, suffix);
	}
	if (total && !str_has_suffix(buf, "_total"))
		put_clean(buf, len, at, "_total");
}

void prom_counter_name(char *buf, size_t len, const char *group, const char *event, const char *unit, bool total)
{
	struct prom_unit u;
	prom_unit_of(unit, &u);
	prom_metric_name(buf, len, group, event, u.suffix, total);
}

void prom_attr_name(char *buf, size_t len, const char *group, const char *attr)
{
	/* sysfs gives frequencies in hertz (hw_clk_freq): the one unit attributes carry */
	size_t n = strlen(attr);
	bool freq = n >= 4 && !strcmp(attr + n - 4, "freq");
	prom_metric_name(buf, len, group, attr, freq ? "hertz" : "", false);
}

void prom_label(char *buf, size_t len, const char *key, const char *value)
{
	size_t at = strlen(buf);
	if (at && at + 1 < len)
		buf[at++] = ',';
	at = put_clean(buf, len, at, key);
	if (at + 2 < len) {
		buf[at++] = '=';
		buf[at++] = '"';
	}
	for (const char *v = value ? value : ""; *v && at + 3 < len; v++) {
		if (*v == '\\' || *v == '"' || *v == '\n') {
			buf[at++] = '\\';
			buf[at++] = *v == '\n' ? 'n' : *v;
		} else {
			buf[at++] = *v;
		}
	}
	if (at + 1 < len)
		buf[at++] = '"';
	buf[at < len ? at : len - 1] = '\0';
}

void prom_value(char *buf, size_t len, double v)
{
	if (isnan(v)) {
		snprintf(buf, len, "NaN");
	} else if (isinf(v)) {
		snprintf(buf, len, v > 0 ? "+Inf" : "-Inf");
	} else if (v == floor(v) && fabs(v) < 9007199254740992.0 && len >= 20) {
		/* a count (most series): its digits by hand, exactly what %.17g writes for an
		 * integer below 2^53, without printf's multi-precision path */
		char tmp[24];
		int n = 0;
		uint64_t u = (uint64_t)fabs(v);
		do {
			tmp[n++] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		size_t at = 0;
		if (v < 0)
			buf[at++] = '-';
		while (n)
			buf[at++] = tmp[--n];
		buf[at] = '\0';
	} else {
		snprintf_c(buf, len, "%.17g", v);
	}
}
