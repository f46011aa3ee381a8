/* SPDX-License-Identifier: GPL-2.0-only */
/* expr_reads.c - the variables a formula needs once some are known constants, as perf's
 * expr.y finds a metric's events (its compute_ids): the code is run on values that are
 * either a known number or "some count", each carrying the variables it was made from;
 * an operation of known numbers is a known number with none, "a if c else b" with c
 * known is the branch taken, x / 0 (and d_ratio(x, 0)) is made of nothing, and && and || with one
 * side known drop or keep the other as perf's '&' and '|' do. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/expr.h"
#include "base/expr_code.h"
#include "base/util.h"

/* One value on the abstract stack: a known number, or not (reads: the instructions
 * whose variables made it). */
struct absval {
	bool known;
	double v;
	uint64_t *reads;
};

struct absrun {
	const struct expr *e;
	const double *known;
	int nknown, nwords;
	struct absval st[EXPR_MAX_DEPTH + 2];
	int sp;
};

static struct absval *push(struct absrun *r)
{
	struct absval *x = &r->st[r->sp++];
	memset(x->reads, 0, sizeof(uint64_t) * (size_t)r->nwords);
	x->known = false;
	x->v = NAN;
	return x;
}

static void set_known(struct absval *x, double v, int nwords)
{
	memset(x->reads, 0, sizeof(uint64_t) * (size_t)nwords);
	x->known = !isnan(v); /* perf's BOTTOM: no value is no constant */
	x->v = v;
}

/* x := "some count" made of x's and y's reads. */
static void join(struct absval *x, const struct absval *y, int nwords)
{
	for (int w = 0; w < nwords; w++)
		x->reads[w] |= y->reads[w];
	x->known = false;
}

static void copy(struct absval *x, const struct absval *y, int nwords)
{
	memcpy(x->reads, y->reads, sizeof(uint64_t) * (size_t)nwords);
	x->known = y->known;
	x->v = y->v;
}

static double fold2(uint8_t op, double a, double b)
{
	switch (op) {
	case OP_ADD: return a + b;
	case OP_SUB: return a - b;
	case OP_MUL: return a * b;
	case OP_DIV: return b == 0.0 ? NAN : a / b;
	case OP_LT: return a < b;
	case OP_LE: return a <= b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_DRATIO: return b == 0.0 ? 0.0 : a / b;
	default: return NAN;
	}
}

static bool unary(uint8_t op)
{
	return op == OP_NEG || op == OP_NOT || op == OP_ABS || op == OP_SQRT || op == OP_FLOOR || op == OP_SIN ||
	       op == OP_COS;
}

static double fold1(uint8_t op, double a)
{
	switch (op) {
	case OP_NEG: return -a;
	case OP_NOT: return a == 0.0;
	case OP_ABS: return fabs(a);
	case OP_SQRT: return a < 0 ? NAN : sqrt(a);
	case OP_FLOOR: return floor(a);
	case OP_SIN: return sin(a);
	case OP_COS: return cos(a);
	default: return NAN;
	}
}

/* perf's '&' and '|': a known side decides, or leaves the other side as the value. */
static void logic(struct absval *a, const struct absval *b, bool is_and, int nwords)
{
	if (a->known && b->known) {
		set_known(a, is_and ? (a->v != 0 && b->v != 0) : (a->v != 0 || b->v != 0), nwords);
		return;
	}
	const struct absval *k = a->known ? a : b->known ? b : NULL, *other = k == a ? b : a;
	if (!k) {
		join(a, b, nwords);
		return;
	}
	if ((k->v != 0) == is_and) /* true && x, false || x: x */
		copy(a, other, nwords);
	else
		set_known(a, is_and ? 0 : 1, nwords);
}

static void binary(struct absrun *r, uint8_t op, struct absval *a, const struct absval *b)
{
	if ((op == OP_DIV || op == OP_DRATIO) && b->known && b->v == 0.0) {
		set_known(a, op == OP_DIV ? NAN : 0.0, r->nwords); /* nothing read for it */
		return;
	}
	if (op == OP_AND || op == OP_OR) {
		logic(a, b, op == OP_AND, r->nwords);
		return;
	}
	if (a->known && b->known)
		set_known(a, fold2(op, a->v, b->v), r->nwords);
	else
		join(a, b, r->nwords);
}

/* A variable's value: known, or read by instruction i. */
static void load_var(struct absrun *r, struct absval *x, int slot, int i)
{
	if (slot < r->nknown && !isnan(r->known[slot])) {
		set_known(x, r->known[slot], r->nwords);
		return;
	}
	x->reads[i / 64] |= 1ull << (i % 64);
	x->known = false;
}

static void step(struct absrun *r, int i)
{
	const struct insn *in = &r->e->code[i];
	static const uint8_t base_of[OP_COUNT] = { [OP_ADDV] = OP_ADD, [OP_SUBV] = OP_SUB, [OP_MULV] = OP_MUL,
						   [OP_DIVV] = OP_DIV, [OP_ADDK] = OP_ADD, [OP_SUBK] = OP_SUB,
						   [OP_MULK] = OP_MUL, [OP_DIVK] = OP_DIV };
	if (in->op == OP_CONST)
		set_known(push(r), in->k, r->nwords);
	else if (in->op == OP_VAR)
		load_var(r, push(r), in->arg, i);
	else if (base_of[in->op]) { /* fused: the right operand a variable or a constant */
		struct absval *b = push(r);
		if (reads_var(in->op))
			load_var(r, b, in->arg, i);
		else
			set_known(b, in->k, r->nwords);
		r->sp--;
		binary(r, base_of[in->op], &r->st[r->sp - 1], b);
	} else if (in->op == OP_SELECT) { /* a c b */
		struct absval *a = &r->st[r->sp - 3], *c = &r->st[r->sp - 2], *b = &r->st[r->sp - 1];
		if (c->known && c->v == 0.0)
			copy(a, b, r->nwords);
		else if (!c->known) {
			join(a, c, r->nwords);
			join(a, b, r->nwords);
		}
		r->sp -= 2;
	} else if (in->op == OP_MIN || in->op == OP_MAX) {
		struct absval *first = &r->st[r->sp - in->arg];
		for (int k = 1; k < in->arg; k++) {
			const struct absval *x = first + k;
			if (first->known && x->known)
				set_known(first, in->op == OP_MIN ? fmin(first->v, x->v) : fmax(first->v, x->v), r->nwords);
			else
				join(first, x, r->nwords);
		}
		r->sp -= in->arg - 1;
	} else if (unary(in->op)) {
		struct absval *a = &r->st[r->sp - 1];
		if (a->known)
			set_known(a, fold1(in->op, a->v), r->nwords);
	} else {
		r->sp--;
		binary(r, in->op, &r->st[r->sp - 1], &r->st[r->sp]);
	}
}

void expr_foreach_needed(const struct expr *e, const double *known, int nknown, void (*fn)(void *ctx, int slot),
			 void *ctx)
{
	for (int i = 0; i < e->n; i++)
		if (e->code[i].op == OP_JFALSE || e->code[i].op == OP_JUMP) { /* '?:', pmutop's own: all */
			expr_foreach_var(e, fn, ctx);
			return;
		}
	struct absrun r = { .e = e, .known = known, .nknown = nknown, .nwords = e->n / 64 + 1 };
	uint64_t *pool = xcalloc((size_t)(EXPR_MAX_DEPTH + 2) * (size_t)r.nwords, sizeof(uint64_t));
	for (int k = 0; k < EXPR_MAX_DEPTH + 2; k++)
		r.st[k].reads = pool + (size_t)k * (size_t)r.nwords;
	for (int i = 0; i < e->n; i++)
		step(&r, i);
	for (int i = 0; r.sp > 0 && i < e->n; i++) {
		if (!(r.st[0].reads[i / 64] >> (i % 64) & 1))
			continue;
		bool seen = false; /* each slot once */
		for (int j = 0; j < i && !seen; j++)
			seen = (r.st[0].reads[j / 64] >> (j % 64) & 1) && e->code[j].arg == e->code[i].arg;
		if (!seen)
			fn(ctx, e->code[i].arg);
	}
	free(pool);
}
