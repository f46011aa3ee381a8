/* SPDX-License-Identifier: GPL-2.0-only */
/* keys.h - keys read whatever TERM says (common escape sequences beside terminfo's). */
#ifndef PMUTOP_UI_KEYS_H
#define PMUTOP_UI_KEYS_H

#include <curses.h>

/* An escape sequence neither terminfo nor keys.c knows, read whole and not acted on. */
#define KEY_UNKNOWN_SEQUENCE (KEY_MAX + 1)

/* The xterm/vt220/rxvt sequences for Home, End, PgUp/PgDn, arrows and F1-F12, defined
 * where terminfo has not: after newterm() and keypad(). */
void keys_define_common(void);
/* getch(), but an unknown escape sequence is KEY_UNKNOWN_SEQUENCE, never its pieces. */
int keys_read(void);

#endif
