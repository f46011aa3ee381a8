/* SPDX-License-Identifier: GPL-2.0-only */
/* diag.h - warnings and errors: printed to stderr, and kept for the UI's error view. */
#ifndef PMUTOP_DIAG_H
#define PMUTOP_DIAG_H

#include <stdbool.h>

enum diag_level { DIAG_WARN, DIAG_ERROR };

void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* While quiet, messages are only kept (the full-screen UI shows them itself). */
void diag_set_quiet(bool quiet);
int diag_count(void);
const char *diag_message(int i, enum diag_level *level);
/* How many later messages of the same shape (differing only in numbers: the same
 * warning for each CPU) message i stands for. */
int diag_repeats(int i);
void diag_clear(void);

#endif
