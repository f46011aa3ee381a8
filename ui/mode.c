/* SPDX-License-Identifier: GPL-2.0-only */
/* mode.c - entering and leaving the monitor's modes. */
#include <assert.h>
#include <stdlib.h>
#include "mode.h"

#include "tui.h"

void ui_mode_enter(struct tui *t, const struct ui_mode *m, void *data)
{
	assert(m && m->draw && m->key && data); /* a mode draws itself, takes keys, has its state */
	ui_mode_leave(t);
	t->mode = m;
	t->mode_data = data;
}

void ui_mode_leave(struct tui *t)
{
	const struct ui_mode *m = t->mode;
	void *data = t->mode_data;
	t->mode = NULL;
	t->mode_data = NULL;
	if (m && m->free)
		m->free(data);
	else
		free(data);
}
