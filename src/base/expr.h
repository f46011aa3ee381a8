/* SPDX-License-Identifier: GPL-2.0-only */
/* expr.h - metric formulae, compiled once to a small bytecode.
 *
 * Grammar: numbers (12, 0x1f, 1e9, 2.5), identifiers ([A-Za-z_][A-Za-z0-9_.]*), + - * /,
 * unary minus, parentheses, comparisons < <= > >= == !=, && || !, c ? a : b, perf's
 * a if c else b (the loosest), and the functions min(a,b,...), max(a,b,...), abs(x),
 * sqrt(x), floor(x), sin(x), cos(x) and perf's d_ratio(a, b) (a / b, 0 where b is 0).
 * "No value" is NaN: x/0 gives it, and it propagates through every operation. */
#ifndef PMUTOP_EXPR_H
#define PMUTOP_EXPR_H

#include <stdbool.h>

struct expr;

/* Resolve an identifier to a variable slot (>= 0), or -1 if unknown. */
struct expr_names {
	int (*resolve)(void *ctx, const char *name);
	/* i-th known name, NULL past the end: used for "did you mean" hints. */
	const char *(*known)(void *ctx, int i);
	void *ctx;
};

/* Compile text. On error returns NULL and sets *err (malloc'd message, without location)
 * and *col (1-based column in text). */
struct expr *expr_compile(const char *text, const struct expr_names *names, char **err, int *col);
void expr_free(struct expr *e);

/* Evaluate with vars indexed by slot. Never allocates; returns NaN for "no value". */
double expr_eval(const struct expr *e, const double *vars);

/* Slots the formula reads, for dependency checks: calls fn for each distinct slot. */
void expr_foreach_var(const struct expr *e, void (*fn)(void *ctx, int slot), void *ctx);
/* The slots e needs where known[slot] (slot < nknown, not NaN) is a constant, as perf's
 * expr.y finds a metric's events: "a if c else b" with c known needs the branch taken,
 * x / 0 needs nothing, a known side of && or || decides or leaves the other. Calls fn
 * for each distinct slot. (expr_reads.c) */
void expr_foreach_needed(const struct expr *e, const double *known, int nknown, void (*fn)(void *ctx, int slot),
			 void *ctx);
int expr_ninsns(const struct expr *e);
/* Renumber the slots e reads: each becomes map(ctx, slot) (a group whose unread events
 * were dropped: profile/profile_prune.c). */
void expr_map_vars(struct expr *e, int (*map)(void *ctx, int slot), void *ctx);

/* Suggest the closest of names->known to name, or NULL. */
const char *expr_suggest(const struct expr_names *names, const char *name);

#endif
