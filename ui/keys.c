/* SPDX-License-Identifier: GPL-2.0-only */
/* keys.c - keys whatever TERM says: over ssh from another terminal, or in tmux with
 * TERM=xterm-256color, End arrives as ESC [ 4 ~ where terminfo expected ESC O F, and
 * curses handed pmutop ESC, '[', '4', '~' (in a replay: Esc, then "replay speed 0.5x").
 * The common xterm, vt220 and rxvt sequences are defined beside terminfo's, as htop does,
 * and what is still not known is swallowed whole, never acted on in pieces. */
#include "keys.h"

#include <curses.h>

struct key_sequence {
	const char *seq;
	int code;
};

static const struct key_sequence sequences[] = {
	{ "\033[1~", KEY_HOME }, { "\033[7~", KEY_HOME }, { "\033[H", KEY_HOME }, { "\033OH", KEY_HOME },
	{ "\033[4~", KEY_END },  { "\033[8~", KEY_END },  { "\033[F", KEY_END },  { "\033OF", KEY_END },
	{ "\033[5~", KEY_PPAGE }, { "\033[6~", KEY_NPAGE }, { "\033[2~", KEY_IC }, { "\033[3~", KEY_DC },
	{ "\033[A", KEY_UP }, { "\033[B", KEY_DOWN }, { "\033[C", KEY_RIGHT }, { "\033[D", KEY_LEFT },
	{ "\033OA", KEY_UP }, { "\033OB", KEY_DOWN }, { "\033OC", KEY_RIGHT }, { "\033OD", KEY_LEFT },
	{ "\033OP", KEY_F(1) }, { "\033OQ", KEY_F(2) }, { "\033OR", KEY_F(3) }, { "\033OS", KEY_F(4) },
	{ "\033[11~", KEY_F(1) }, { "\033[12~", KEY_F(2) }, { "\033[13~", KEY_F(3) }, { "\033[14~", KEY_F(4) },
	{ "\033[[A", KEY_F(1) }, { "\033[[B", KEY_F(2) }, { "\033[[C", KEY_F(3) }, { "\033[[D", KEY_F(4) },
	{ "\033[[E", KEY_F(5) }, { "\033[15~", KEY_F(5) }, { "\033[17~", KEY_F(6) }, { "\033[18~", KEY_F(7) },
	{ "\033[19~", KEY_F(8) }, { "\033[20~", KEY_F(9) }, { "\033[21~", KEY_F(10) }, { "\033[23~", KEY_F(11) },
	{ "\033[24~", KEY_F(12) },
};

void keys_define_common(void)
{
	for (size_t i = 0; i < sizeof(sequences) / sizeof(sequences[0]); i++)
		if (key_defined(sequences[i].seq) <= 0) /* terminfo's own stays as it is */
			define_key(sequences[i].seq, sequences[i].code);
}

/* The rest of a CSI (ESC [) or SS3 (ESC O) sequence after its introducer: parameters and
 * intermediates, then one final byte (ECMA-48: 0x40 to 0x7e). */
static void swallow_sequence(int introducer)
{
	int c;
	if (introducer == 'O') { /* SS3: one character */
		getch();
		return;
	}
	while ((c = getch()) != ERR && !(c >= 0x40 && c <= 0x7e))
		;
}

int keys_read(void)
{
	int key = getch();
	if (key != 27)
		return key;
	int next = getch(); /* what came with it, in the same burst: not a lone Esc */
	if (next == ERR)
		return 27;
	if (next == '[' || next == 'O') {
		swallow_sequence(next);
		return KEY_UNKNOWN_SEQUENCE;
	}
	ungetch(next); /* Alt+key: Esc, then the key, as before */
	return 27;
}
