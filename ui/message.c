/* SPDX-License-Identifier: GPL-2.0-only */
/* message.c - the monitor's message line: what a key did, or why it could not. Every
 * mode and the replay controls say things; the screen draws the line (screen.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

/* Where text may be cut to fit width columns (ASCII counted as one each, as messages are
 * built from names): before "; " inside a parenthesis (its first clause kept, closed),
 * else before " (" (the remark dropped), else at the last blank; 0: nowhere. */
static size_t fit_cut(const char *text, size_t width, int *close)
{
	size_t best = 0;
	int depth = 0, best_close = 0;
	for (size_t i = 0; text[i] && i < width; i++) {
		if (text[i] == '(')
			depth++;
		else if (text[i] == ')' && depth > 0)
			depth--;
		bool clause = depth > 0 && text[i] == ';' && i + (size_t)depth <= width;
		bool remark = text[i] == ' ' && text[i + 1] == '(' && depth == 0;
		if (clause || remark) {
			best = i;
			best_close = clause ? depth : 0;
		}
	}
	if (!best) /* no clause or remark to drop: the last whole word */
		for (size_t i = 0; text[i] && i + 3 < width; i++)
			if (text[i] == ' ')
				best = i, best_close = -1;
	*close = best_close;
	return best;
}

void tui_message_fit(const char *text, int width, char *out, size_t len)
{
	int close;
	size_t cut = width > 0 && strlen(text) > (size_t)width ? fit_cut(text, (size_t)width, &close) : 0;
	if (!cut) {
		snprintf(out, len, "%s", text);
		return;
	}
	/* a cut inside parentheses closes them; a cut between words says so */
	snprintf(out, len, "%.*s%.*s", (int)cut, text, close < 0 ? 3 : close, close < 0 ? "..." : "))))))))");
}

void tui_message(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->message, sizeof(t->message), fmt, ap);
	va_end(ap);
	t->message_is_error = error;
}
