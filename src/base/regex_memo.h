/* SPDX-License-Identifier: GPL-2.0-only */
/* regex_memo.h - POSIX extended regular expressions compiled once per process. */
#ifndef PMUTOP_REGEX_MEMO_H
#define PMUTOP_REGEX_MEMO_H

#include <regex.h>

/* pattern compiled with REG_EXTENDED, or NULL where it does not compile. The answer
 * lives until exit; loading is single-threaded, and so is this. */
const regex_t *regex_memo(const char *pattern);

/* Why pattern is refused before it is compiled (too long, nested too deep, repetitions
 * that expand past what a CPU model expression needs), or NULL. regex_memo refuses it. */
const char *regex_refusal(const char *pattern);

#endif
