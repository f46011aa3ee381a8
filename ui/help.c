/* help.c - F1: every key, from the same table the keys are dispatched from (the monitor
 * hands it over as t->keys), and what the marks on values mean. */
#include <stdio.h>

#include "tui.h"

static void help_draw(struct tui *t)
{
	const struct key_binding *kb = t->keys;
	int n = t->nkeys;
	static const char *const legend[] = {
		"Values:  -  no value (nothing happened, or first interval after a filter change)",
		"         ~  multiplexed: scaled from part of the interval   !  a share outside 0-100 %",
		"         not counted: the counter never ran   ?  unreadable   n/a  unavailable",
		"Filter editor: Up/Down choose, Space toggles, Left/Right pick a mask bit,",
		"         Enter edits a value, p picks a device as the BDF, d resets to default,",
		"         a applies, Esc cancels",
	};
	int iy, ix, iw, ih;
	crt_box(86, n + (int)(sizeof(legend) / sizeof(legend[0])) + 3, "pmutop help (any key closes)", &iy, &ix, &iw, &ih);
	int y = iy;
	for (int i = 0; i < n && y < iy + ih; i++, y++) {
		crt_put(y, ix, 16, R_DIALOG, kb[i].keys);
		crt_put(y, ix + 17, iw - 17, R_DIALOG, kb[i].what);
	}
	y++;
	for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]) && y < iy + ih; i++, y++)
		crt_put(y, ix, iw, R_DIALOG, legend[i]);
}

static void help_key(struct tui *t, int key)
{
	(void)key;
	ui_mode_leave(t);
}

const struct ui_mode help_mode = { "help", help_draw, help_key, NULL };
