/* mode.c - entering and leaving the monitor's modes. */
#include <assert.h>
#include "mode.h"

#include "tui.h"

void ui_mode_enter(struct tui *t, const struct ui_mode *m)
{
	assert(m && m->draw && m->key); /* a mode draws itself and takes keys */
	ui_mode_leave(t);
	t->mode = m;
}

void ui_mode_leave(struct tui *t)
{
	const struct ui_mode *m = t->mode;
	t->mode = NULL;
	if (m && m->leave)
		m->leave(t);
}
