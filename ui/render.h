/* SPDX-License-Identifier: GPL-2.0-only */
/* render.h - a frame's grid of cells to the terminal (see render.c). */
#ifndef PMUTOP_RENDER_H
#define PMUTOP_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <curses.h>

/* One screen cell: a character and its curses attribute (colour pair too). A wide
 * character (wcwidth 2) takes its cell and the next, which holds CELL_WIDE_TAIL: the
 * terminal fills it when it draws the character. */
struct cell {
	uint32_t wc;
	attr_t attr;
};
#define CELL_WIDE_TAIL 0xffffffffu

/* After curses has started on out and drawn its first (blank) screen. */
void render_start(FILE *out, bool utf8);
void render_stop(void);
/* Send what differs between now and shown (every cell if all; after clearing the screen
 * if clear), update shown, in one write. 0, or -1 if the write failed. */
int render_frame(struct cell *now, struct cell *shown, int nlines, int ncols, bool all, bool clear);
/* Attributes off and the cursor home, as curses expects them: before curses draws or ends. */
void render_leave(void);

#endif
