/* SPDX-License-Identifier: GPL-2.0-only */
/* render.c - a frame's cells to the terminal: the runs of cells that changed since the
 * last frame, with the terminal's own strings (terminfo) for moving and attributes, as one
 * write(). Why not curses' refresh: it cost more than the rest of a refresh together
 * (a cursor-motion search and parameter formatting per changed run) and wrote once per run;
 * curses still starts and ends the terminal and reads the keys. */
#include "render.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

#include "base/util.h"

static struct {
	FILE *out;
	bool utf8;
	bool fast_cup; /* cursor_address is ANSI's ESC [ row ; col H: formatted here */
	bool skip_corner; /* writing the bottom-right cell would scroll the screen */
	char *cup;     /* cursor_address without padding */
	char *home, *clear, *sgr0, *op, *bold, *dim, *rev, *ul;
	char *colour[2][256]; /* setab, setaf strings by colour, made when first used */
	bool attr_known; /* the terminal's attribute is cur (it stays so between frames) */
	attr_t cur;
	char *buf;
	size_t len, cap;
} R;

static void put(const char *s, size_t n)
{
	if (R.len + n > R.cap) {
		R.cap = (R.len + n) * 2 + 4096;
		R.buf = xrealloc(R.buf, R.cap);
	}
	memcpy(R.buf + R.len, s, n);
	R.len += n;
}

static void puts_(const char *s)
{
	if (s)
		put(s, strlen(s));
}

/* A terminfo string without its padding ("$<5>"): today's terminals need none. */
static char *unpadded(const char *cap)
{
	if (!cap || cap == (const char *)-1)
		return NULL;
	char *s = xstrdup(cap), *w = s;
	for (const char *p = cap; *p;) {
		if (p[0] == '$' && p[1] == '<') {
			const char *end = strchr(p, '>');
			if (end) {
				p = end + 1;
				continue;
			}
		}
		*w++ = *p++;
	}
	*w = '\0';
	return s;
}

static char *param1(const char *cap, int v)
{
	return cap && cap != (const char *)-1 ? unpadded(tiparm(cap, v)) : NULL;
}

void render_start(FILE *out, bool utf8)
{
	render_stop();
	R.out = out;
	R.utf8 = utf8;
	R.cup = unpadded(cursor_address);
	R.fast_cup = R.cup && !strcmp(R.cup, "\033[%i%p1%d;%p2%dH");
	R.home = unpadded(cursor_home);
	R.clear = unpadded(clear_screen);
	R.sgr0 = unpadded(exit_attribute_mode);
	R.op = unpadded(orig_pair);
	R.bold = unpadded(enter_bold_mode);
	R.dim = unpadded(enter_dim_mode);
	R.rev = unpadded(enter_reverse_mode);
	R.ul = unpadded(enter_underline_mode);
	R.skip_corner = auto_right_margin && !eat_newline_glitch;
}

void render_stop(void)
{
	free(R.cup);
	free(R.home);
	free(R.clear);
	free(R.sgr0);
	free(R.op);
	free(R.bold);
	free(R.dim);
	free(R.rev);
	free(R.ul);
	for (int i = 0; i < 2; i++)
		for (int c = 0; c < 256; c++)
			free(R.colour[i][c]);
	free(R.buf);
	memset(&R, 0, sizeof(R));
}

static int utoa10(unsigned v, char *s)
{
	char tmp[12];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		s[i] = tmp[n - 1 - i];
	return n;
}

static void move_to(int y, int x)
{
	if (R.fast_cup) {
		char s[32];
		int n = 0;
		s[n++] = '\033';
		s[n++] = '[';
		n += utoa10((unsigned)(y + 1), s + n);
		s[n++] = ';';
		n += utoa10((unsigned)(x + 1), s + n);
		s[n++] = 'H';
		put(s, (size_t)n);
	} else if (R.cup) {
		char *s = unpadded(tiparm(R.cup, y, x));
		puts_(s);
		free(s);
	}
}

static const char *color_string(short c, bool fg)
{
	if (c < 0 || c > 255)
		return NULL;
	char **slot = &R.colour[fg][c];
	if (!*slot) {
		const char *cap = fg ? (set_a_foreground ? set_a_foreground : set_foreground)
				     : (set_a_background ? set_a_background : set_background);
		*slot = param1(cap, c);
		if (!*slot)
			*slot = xstrdup("");
	}
	return *slot;
}

#define MODES (A_BOLD | A_DIM | A_REVERSE | A_UNDERLINE)

/* What takes the terminal from attribute from (known) to a: only the colours when the
 * modes stay, else all off, then a's modes and colours (curses' sgr0 resets both). */
static void set_attr(attr_t from, bool known, attr_t a)
{
	short pf = -1, pb = -1, f = -1, b = -1;
	if (PAIR_NUMBER(a) > 0)
		pair_content((short)PAIR_NUMBER(a), &f, &b);
	if (known && (from & MODES) == (a & MODES)) {
		if (PAIR_NUMBER(from) > 0)
			pair_content((short)PAIR_NUMBER(from), &pf, &pb);
		if ((f < 0 && pf >= 0) || (b < 0 && pb >= 0)) {
			puts_(R.op); /* back to a default colour, then the other one again */
			pf = pb = -1;
		}
		if (f >= 0 && f != pf)
			puts_(color_string(f, true));
		if (b >= 0 && b != pb)
			puts_(color_string(b, false));
		return;
	}
	puts_(R.sgr0);
	if (R.op && (f < 0 || b < 0) && known && PAIR_NUMBER(from) > 0)
		puts_(R.op); /* where all-off does not give the default colours back */
	if (a & A_BOLD)
		puts_(R.bold);
	if (a & A_DIM)
		puts_(R.dim);
	if (a & A_REVERSE)
		puts_(R.rev);
	if (a & A_UNDERLINE)
		puts_(R.ul);
	if (f >= 0)
		puts_(color_string(f, true));
	if (b >= 0)
		puts_(color_string(b, false));
}

static void put_char(uint32_t wc)
{
	char s[4];
	if (wc < 0x80) {
		s[0] = (char)wc;
		put(s, 1);
	} else if (!R.utf8) {
		put("?", 1); /* our ASCII forms never get here; a sensor's label might */
	} else if (wc < 0x800) {
		s[0] = (char)(0xc0 | (wc >> 6));
		s[1] = (char)(0x80 | (wc & 0x3f));
		put(s, 2);
	} else if (wc < 0x10000) {
		s[0] = (char)(0xe0 | (wc >> 12));
		s[1] = (char)(0x80 | ((wc >> 6) & 0x3f));
		s[2] = (char)(0x80 | (wc & 0x3f));
		put(s, 3);
	} else {
		s[0] = (char)(0xf0 | (wc >> 18));
		s[1] = (char)(0x80 | ((wc >> 12) & 0x3f));
		s[2] = (char)(0x80 | ((wc >> 6) & 0x3f));
		s[3] = (char)(0x80 | (wc & 0x3f));
		put(s, 4);
	}
}

static int flush_out(void);

static bool same(const struct cell *a, const struct cell *b)
{
	return a->wc == b->wc && a->attr == b->attr;
}

/* Unchanged cells between two changed runs shorter than this are written again rather
 * than moved over: a cursor move costs about as many bytes. */
#define GAP 6

int render_frame(struct cell *now, struct cell *shown, int nlines, int ncols, bool all, bool clear)
{
	if (!R.out)
		return -1;
	R.len = 0;
	if (clear && R.clear)
		puts_(R.clear);
	for (int y = 0; y < nlines; y++) {
		struct cell *n = now + (size_t)y * (size_t)ncols, *o = shown + (size_t)y * (size_t)ncols;
		int w = y == nlines - 1 && R.skip_corner ? ncols - 1 : ncols;
		int at = -1; /* where the cursor is on this row, -1: elsewhere */
		for (int x = 0; x < w;) {
			if (!all && same(&n[x], &o[x])) {
				x++;
				continue;
			}
			/* a run of changes from x, swallowing short unchanged gaps */
			int end = x + 1, last = x;
			while (end < w) {
				if (all || !same(&n[end], &o[end])) {
					last = end++;
					continue;
				}
				int g = end;
				while (g < w && g - last <= GAP && same(&n[g], &o[g]))
					g++;
				if (g < w && g - last <= GAP)
					end = g;
				else
					break;
			}
			/* a wide character's two cells go together: a run never starts on its
			 * tail, nor ends between them */
			if (n[x].wc == CELL_WIDE_TAIL && x > 0)
				x--;
			if (last + 1 < w && n[last + 1].wc == CELL_WIDE_TAIL)
				last++;
			if (at != x)
				move_to(y, x);
			for (int i = x; i <= last; i++) {
				o[i] = n[i];
				if (n[i].wc == CELL_WIDE_TAIL)
					continue; /* drawn with the character before it */
				if (!R.attr_known || n[i].attr != R.cur) {
					set_attr(R.cur, R.attr_known, n[i].attr);
					R.cur = n[i].attr;
					R.attr_known = true;
				}
				put_char(n[i].wc);
			}
			at = last + 1;
			x = last + 1;
		}
	}
	return flush_out();
}

/* Attributes off and the cursor home, where curses left it and looks for it when it ends
 * the screen (the attribute and the cursor stay as they are between frames). */
void render_leave(void)
{
	if (!R.out)
		return;
	R.len = 0;
	puts_(R.sgr0);
	if (R.home)
		puts_(R.home);
	else
		move_to(0, 0);
	R.attr_known = false;
	flush_out();
}

static int flush_out(void)
{
	if (!R.len)
		return 0;
	fflush(R.out);
	int fd = fileno(R.out);
	for (size_t done = 0; done < R.len;) {
		ssize_t k = write(fd, R.buf + done, R.len - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		done += (size_t)k;
	}
	return 0;
}
