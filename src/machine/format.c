/* SPDX-License-Identifier: GPL-2.0-only */
/* format.c - a PMU format field and how a value is placed in it. */
#include "machine/format.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const word_names[CONFIG_WORDS] = { "config", "config1", "config2", "config3" };

const char *config_word_name(int word)
{
	return word >= 0 && word < CONFIG_WORDS ? word_names[word] : "?";
}

bool format_parse(const char *spec, struct format_field *out)
{
	const char *colon = strchr(spec, ':');
	if (!colon)
		return false;
	size_t wl = (size_t)(colon - spec);
	int word = -1;
	if (wl == 6 && !strncmp(spec, "config", 6))
		word = 0;
	else if (wl == 7 && !strncmp(spec, "config", 6) && spec[6] >= '1' && spec[6] <= '3')
		word = spec[6] - '0';
	if (word < 0)
		return false;
	uint64_t bits = 0;
	const char *p = colon + 1;
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return false;
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return false;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo < 0 || hi > 63 || hi < lo)
			return false;
		for (long b = lo; b <= hi; b++)
			bits |= 1ull << b;
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p == '\n' || *p == ' ')
			p++;
		if (*p)
			return false;
		break;
	}
	out->word = word;
	out->bits = bits;
	out->width = __builtin_popcountll(bits);
	return true;
}

uint64_t format_max(const struct format_field *f)
{
	return f->width >= 64 ? UINT64_MAX : (1ull << f->width) - 1;
}

void format_place(const struct format_field *f, uint64_t value, uint64_t config[CONFIG_WORDS])
{
	int vbit = 0;
	for (int b = 0; b < 64; b++) {
		if (!(f->bits & (1ull << b)))
			continue;
		if (value & (1ull << vbit))
			config[f->word] |= 1ull << b;
		vbit++;
	}
}

uint64_t format_extract(const struct format_field *f, const uint64_t config[CONFIG_WORDS])
{
	uint64_t v = 0;
	int vbit = 0;
	for (int b = 0; b < 64; b++) {
		if (!(f->bits & (1ull << b)))
			continue;
		if (config[f->word] & (1ull << b))
			v |= 1ull << vbit;
		vbit++;
	}
	return v;
}
