/* SPDX-License-Identifier: GPL-2.0-only */
/* text_view.c - the text the monitor's views show in a box (help, a metric's info,
 * errors): lines wrapped to the box at blanks, each continuation indented under its
 * line's text, and scrolled by the keys every list takes (Up/Down, PgUp/PgDn, Home/End)
 * with the last page full, never past the end into blank lines. */
#include <stdlib.h>
#include <string.h>

#include "mode.h"
#include "tui.h"
#include "base/util.h"

void text_rows_free(struct text_rows *r)
{
	free(r->row);
	*r = (struct text_rows){ 0 };
}

static void add_row(struct text_rows *r, const char *keys, const char *text, int len, int indent)
{
	grow_array(&r->row, &r->cap, r->n + 1, sizeof(*r->row));
	struct text_row *row = &r->row[r->n++];
	*row = (struct text_row){ .text = text, .len = len, .indent = indent };
	str_copy(row->keys, sizeof(row->keys), keys ? keys : ""); /* the caller's may be a buffer it reuses */
}

void text_rows_add(struct text_rows *r, int width, const char *keys, int keyw, const char *text)
{
	int lead = keys ? keyw + 1 : (int)strspn(text, " ");
	int hang = keys ? lead : lead + 2; /* under the text, past the line's own indent */
	if (hang > width / 2)
		hang = 0;
	if (!*text) {
		add_row(r, keys, text, 0, keys ? lead : 0);
		return;
	}
	const char *p = keys ? text : text + lead;
	int indent = lead;
	bool first = true;
	while (*p) {
		int room = width - indent;
		int len = crt_wrap_len(p, room > 1 ? room : 1);
		add_row(r, first ? keys : NULL, p, len, indent);
		p += len;
		while (*p == ' ')
			p++;
		first = false;
		indent = hang;
	}
}

/* The first row shown, kept so the last page is full. */
static int clamp_first(struct scroll_view *v, int nrows)
{
	int most = nrows - v->page;
	if (v->first > most)
		v->first = most;
	if (v->first < 0)
		v->first = 0;
	return v->first;
}

bool text_rows_draw(const struct text_rows *r, struct scroll_view *v, int keyw, int iy, int ix, int iw, int ih)
{
	v->page = ih;
	int first = clamp_first(v, r->n);
	for (int i = first, y = iy; i < r->n && y < iy + ih; i++, y++) {
		const struct text_row *row = &r->row[i];
		if (*row->keys)
			crt_put(y, ix, keyw, R_DIALOG, row->keys);
		crt_put_attr(y, ix + row->indent, iw - row->indent, crt_attr(R_DIALOG), row->text, row->len);
	}
	return first + ih < r->n; /* more below */
}

bool text_rows_scroll(struct scroll_view *v, int nrows, int key)
{
	int page = v->page > 1 ? v->page - 1 : 1;
	switch (key) {
	case KEY_UP: v->first--; break;
	case KEY_DOWN: v->first++; break;
	case KEY_PPAGE: v->first -= page; break;
	case KEY_NPAGE: v->first += page; break;
	case KEY_HOME: v->first = 0; break;
	case KEY_END: v->first = nrows; break;
	default: return false;
	}
	clamp_first(v, nrows);
	return true;
}
