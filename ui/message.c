/* SPDX-License-Identifier: GPL-2.0-only */
/* message.c - the monitor's message line: what a key did, or why it could not. Every
 * mode and the replay controls say things; the screen draws the line (screen.c). */
#include <stdarg.h>
#include <stdio.h>

#include "tui.h"

void tui_message(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->message, sizeof(t->message), fmt, ap);
	va_end(ap);
	t->message_is_error = error;
}
