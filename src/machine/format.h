/* SPDX-License-Identifier: GPL-2.0-only */
/* format.h - a PMU format field ("config1:0-7,32-35") and how a value is placed in it. */
#ifndef PMUTOP_FORMAT_H
#define PMUTOP_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#define CONFIG_WORDS 4 /* config, config1, config2, config3 */

struct format_field {
	char *name;
	int word;      /* 0 = config, 1 = config1, ... */
	uint64_t bits; /* which bits of that word the field occupies */
	int width;     /* number of bits */
	char *spec;    /* as the driver printed it, without the newline */
};

/* Parse "configN:lo-hi[,lo-hi...]" (a lone bit allowed). */
bool format_parse(const char *spec, struct format_field *out);
/* Largest value the field holds. */
uint64_t format_max(const struct format_field *f);
/* OR value into config words, low value bits into the lowest field bits (as perf does). */
void format_place(const struct format_field *f, uint64_t value, uint64_t config[CONFIG_WORDS]);
/* The reverse: gather the field's bits back into a value. */
uint64_t format_extract(const struct format_field *f, const uint64_t config[CONFIG_WORDS]);
const char *config_word_name(int word);

#endif
