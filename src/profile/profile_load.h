/* SPDX-License-Identifier: GPL-2.0-only */
/* profile_load.h - what the profile loader's parts share (not for the rest of pmutop):
 * profile.c reads the INI file (group_keys.c a group's keys, profile_keys.c what every
 * section's keys share), profile_check.c checks what it read, profile_filter.c owns the
 * typed filter values. */
#ifndef PMUTOP_PROFILE_LOAD_H
#define PMUTOP_PROFILE_LOAD_H

#include <stdbool.h>

#include "base/iniread.h"

struct profile;

enum section_kind { SEC_NONE, SEC_PROFILE, SEC_GROUP, SEC_METRIC, SEC_PANE, SEC_BAD };

struct loader {
	struct ini_reader in; /* the file, its line and the errors so far */
	const char *path;
	struct profile *p;
	enum section_kind kind;
	int index;      /* of the current group/metric/pane */
	int gcap, mcap, pcap;
	char *pending_default; /* filter.X's default= while the filter is parsed */
	bool header_only;      /* read [profile] alone: stop at the next section */
	bool header_read;      /* [profile] came, and first */
	bool header_late;      /* another section came before it */
	struct seen_section *seen; /* every [group|metric|pane NAME] so far, hashed: a file of
				    * 100 000 sections checked for twice in linear time */
	size_t seen_cap, nseen;
};

#define lerror(L, ...) ini_error(&(L)->in, __VA_ARGS__)

/* After reading: names in formulae and patterns resolved, every cross-reference checked. */
void profile_check(struct loader *L);

bool prof_parse_bool(const char *v, bool *out);

/* A key's value (profile_keys.c): words appended to a NULL-ended list, a string
 * replaced, the column it starts at (for errors), perf's mapfile patterns ("~REGEX")
 * checked before they are ever compiled for a match. */
void prof_append_words(char ***list, int *n, const char *value);
void prof_set_string(char **dst, const char *value);
int prof_value_column(const struct loader *L);
void prof_check_model_regexes(struct loader *L, const char *name, const char *value, char **values);

/* A key of the current [group NAME] section (group_keys.c). */
void profile_group_key(struct loader *L, const char *name, const char *value);

/* The line a [KIND NAME] section (KIND its first letter) began on before, or 0; room is
 * made for the profile_section_note that follows a new one (profile_sections.c). */
int profile_section_seen(struct loader *L, char kind, const char *name);
/* Notes the section just made: name is the profile's own copy, kept while L reads. */
void profile_section_note(struct loader *L, char kind, const char *name);

#endif
