/* find.c - '/' (F3) and 'n': the next metric whose name or title matches, after the
 * focused pane. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tui.h"

void find_next(struct tui *t)
{
	if (!t->find[0])
		return;
	for (int k = 1; k <= t->npanes; k++) {
		int i = (t->focus + k) % t->npanes;
		struct upane *p = &t->panes[i];
		if (p->hidden)
			continue;
		for (int m = 0; m < p->nmetrics; m++) {
			if (strcasestr(p->metrics[m]->name, t->find) || strcasestr(p->metrics[m]->title, t->find)) {
				t->focus = i;
				t->row = 0;
				/* block panes: rows are metric-major within each instance */
				if (strcmp(p->style, "table") && strcmp(p->style, "stacked") && m < p->nrows)
					t->row = m;
				tui_message(t, false, "found %s in %s", p->metrics[m]->name, p->title);
				return;
			}
		}
	}
	tui_message(t, true, "no metric matches '%s'", t->find);
}

static void find_key(struct tui *t, int key)
{
	size_t n = strlen(t->find);
	if (key == 27) {
		ui_mode_leave(t);
	} else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		ui_mode_leave(t);
		find_next(t);
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && n) {
		t->find[n - 1] = '\0';
	} else if (key < 256 && isprint(key) && n + 1 < sizeof(t->find)) {
		t->find[n] = (char)key;
		t->find[n + 1] = '\0';
	}
}

/* the prompt, on the message line */
static void find_draw(struct tui *t)
{
	char line[128];
	snprintf(line, sizeof(line), " Find metric: %s_", t->find);
	crt_put(2, 0, COLS, R_INPUT, line);
}

const struct ui_mode find_mode = { "find", find_draw, find_key, NULL };
