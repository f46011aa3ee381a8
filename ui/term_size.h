/* SPDX-License-Identifier: GPL-2.0-only */
/* term_size.h - the terminal's size, which is the monitor's to know, not curses'. Frames
 * are drawn into pmutop's own grid and sent by render.c; curses keeps the terminal's
 * modes, terminfo and the keys, and is started believing the screen is one cell, so that
 * its three screen-sized windows, which nothing draws into, cost nothing (at 120x40,
 * 28 bytes a cell each: 400 KB of a 6 MB monitor). */
#ifndef PMUTOP_TERM_SIZE_H
#define PMUTOP_TERM_SIZE_H

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>

/* The screen's lines and columns, as the monitor draws them. */
extern int term_lines, term_cols;

/* curses' newterm, its windows one cell; the size measured (term_size_measure) and
 * SIGWINCH caught here first, so that curses never grows them. NULL as newterm fails. */
SCREEN *term_newterm(const char *type, FILE *out, FILE *in);
/* The size now: LINES and COLUMNS where the environment sets them (as curses takes them
 * first), else the terminal's (TIOCGWINSZ on out), else terminfo's, else 80x24. */
void term_size_measure(FILE *out);
/* A size given (the bench's). */
void term_size_set(int rows, int width);
/* Was the terminal resized since last asked? Then the size is measured again. */
bool term_size_changed(void);

#endif
