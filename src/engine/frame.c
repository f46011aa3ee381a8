/* SPDX-License-Identifier: GPL-2.0-only */
/* frame.c - small readers of frames, for outputs. */
#include "engine/frame.h"

#include <string.h>

#include "base/util.h"

const char *value_state_name(enum value_state st)
{
	static const char *const names[] = { "ok", "no value", "not counted", "unreadable", "unavailable" };
	return (unsigned)st < ARRAY_SIZE(names) ? names[st] : "?";
}

const char *frame_label(const struct frame *f, int instance, const char *key)
{
	const struct instance_info *ii = &f->iinfo[instance];
	for (int i = 0; i < ii->nlabels; i++)
		if (!strcmp(ii->labels[i].key, key))
			return ii->labels[i].value;
	return NULL;
}


bool frame_instance_absent(const struct frame *f, int instance)
{
	const struct instance_info *ii = &f->iinfo[instance];
	if (!ii->nmembers)
		return f->inst[instance].absent;
	for (int k = 0; k < ii->nmembers; k++)
		if (!f->inst[ii->members[k]].absent)
			return false;
	return true;
}
