/* setup.c - F2: colours, characters, bar style, sparklines, mouse, and which panes show.
 * Changes apply at once and are saved when the screen closes. */
#include <stdio.h>

#include "tui.h"

enum { S_COLOUR, S_CHARS, S_BARS, S_SPARK, S_MOUSE, S_PANES };

static const char *const tri[] = { "auto", "on", "off" };
static const char *const chars[] = { "auto", "UTF-8", "ASCII" };
static const char *const bars[] = { "blocks", "pipes |", "hashes #" };
static const char *const sparks[] = { "sweep (few bytes over ssh)", "scroll", "off" };

static int nrows(const struct tui *t)
{
	return S_PANES + t->npanes;
}

void setup_draw(struct tui *t)
{
	int iy, ix, iw, ih;
	crt_box(64, nrows(t) + 5, "Setup (Left/Right/Space change, Esc saves and closes)", &iy, &ix, &iw, &ih);
	char line[160];
	for (int r = 0; r < nrows(t) && r < ih - 1; r++) {
		int y = iy + r + (r >= S_PANES);
		switch (r) {
		case S_COLOUR: snprintf(line, sizeof(line), "Colour          < %s >", tri[t->set.colour]); break;
		case S_CHARS: snprintf(line, sizeof(line), "Characters      < %s >", chars[t->set.chars]); break;
		case S_BARS: snprintf(line, sizeof(line), "Bar style       < %s >", bars[t->set.bars]); break;
		case S_SPARK: snprintf(line, sizeof(line), "Sparklines      < %s >", sparks[t->set.sparklines]); break;
		case S_MOUSE: snprintf(line, sizeof(line), "Mouse           < %s >", tri[t->set.mouse]); break;
		default: {
			const struct upane *p = &t->panes[r - S_PANES];
			snprintf(line, sizeof(line), "[%c] pane: %s (%s)", p->hidden ? ' ' : 'x', p->title, p->key);
		}
		}
		if (r == S_PANES)
			crt_put(y - 1, ix, iw, R_DIALOG, "Panes shown:");
		crt_put(y, ix, iw, r == t->setup_row ? R_FOCUS : R_DIALOG, line);
	}
}

static void change(struct tui *t, int dir)
{
	int r = t->setup_row;
	switch (r) {
	case S_COLOUR: t->set.colour = (enum tristate)((t->set.colour + 3 + dir) % 3); break;
	case S_CHARS: t->set.chars = (enum charset)((t->set.chars + 3 + dir) % 3); break;
	case S_BARS: t->set.bars = (enum bar_style)((t->set.bars + 3 + dir) % 3); break;
	case S_SPARK: t->set.sparklines = (enum spark_style)((t->set.sparklines + 3 + dir) % 3); break;
	case S_MOUSE: t->set.mouse = (enum tristate)((t->set.mouse + 3 + dir) % 3); break;
	default: {
		struct upane *p = &t->panes[r - S_PANES];
		p->hidden = !p->hidden;
		settings_set_hidden(&t->set, p->key, p->hidden);
	}
	}
	crt_apply_settings(t);
}

bool setup_key(struct tui *t, int key)
{
	switch (key) {
	case KEY_UP: if (t->setup_row > 0) t->setup_row--; break;
	case KEY_DOWN: if (t->setup_row < nrows(t) - 1) t->setup_row++; break;
	case KEY_LEFT: change(t, -1); break;
	case KEY_RIGHT: case ' ': case '\r': case '\n': case KEY_ENTER: change(t, 1); break;
	case 27: case 'q': case 's': case KEY_F(2): case KEY_F(10):
		t->mode = MODE_MAIN;
		if (settings_save(&t->set, t->settings_path))
			tui_message(t, false, "settings saved to %s", t->settings_path);
		else
			tui_message(t, true, "could not save settings to %s", t->settings_path ? t->settings_path : "(no $HOME)");
		break;
	default: break;
	}
	return true;
}
