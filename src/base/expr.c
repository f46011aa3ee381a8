/* SPDX-License-Identifier: GPL-2.0-only */
/* expr.c - formula parser (recursive descent) and stack-machine evaluator. */
#include "base/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/expr_code.h"
#include "base/util.h"

#define EXPR_MAX_NEST 64  /* parentheses, unary operators and calls inside each other:
			   * the parser recurses on them, so hostile input must not
			   * reach the C stack's limit */

struct parser {
	const char *text, *p;
	const struct expr_names *names;
	struct expr *e;
	char *err;
	int errcol;
	int sp, maxsp; /* simulated stack depth */
	int nest;      /* parser recursion */
};

static void fail(struct parser *ps, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct parser *ps, const char *at, const char *fmt, ...)
{
	if (ps->err)
		return;
	va_list ap;
	va_start(ap, fmt);
	ps->err = xvasprintf(fmt, ap);
	va_end(ap);
	ps->errcol = (int)(at - ps->text) + 1;
}

static int emit(struct parser *ps, enum op op, int arg, double k, int stack_effect)
{
	struct expr *e = ps->e;
	grow_array(&e->code, &e->cap, e->n + 1, sizeof(struct insn));
	e->code[e->n] = (struct insn){ .op = (uint8_t)op, .arg = arg, .k = k };
	ps->sp += stack_effect;
	if (ps->sp > ps->maxsp)
		ps->maxsp = ps->sp;
	if (ps->maxsp > EXPR_MAX_DEPTH)
		fail(ps, ps->p, "formula nests too deeply");
	return e->n++;
}

static void skip_ws(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static bool accept(struct parser *ps, const char *tok)
{
	skip_ws(ps);
	size_t n = strlen(tok);
	if (strncmp(ps->p, tok, n))
		return false;
	/* "<" must not swallow "<=", "=" never stands alone */
	if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!') && ps->p[1] == '=')
		return false;
	ps->p += n;
	return true;
}

static void parse_cond(struct parser *ps);
static void parse_expr(struct parser *ps);

static const struct {
	const char *name;
	enum op op;
	int minargs, maxargs;
} functions[] = {
	{ "min", OP_MIN, 2, 16 }, { "max", OP_MAX, 2, 16 }, { "abs", OP_ABS, 1, 1 },
	{ "sqrt", OP_SQRT, 1, 1 }, { "floor", OP_FLOOR, 1, 1 }, { "sin", OP_SIN, 1, 1 },
	{ "cos", OP_COS, 1, 1 }, { "d_ratio", OP_DRATIO, 2, 2 },
};

static void parse_call(struct parser *ps, const char *start, const char *name)
{
	size_t fi;
	for (fi = 0; fi < ARRAY_SIZE(functions); fi++)
		if (!strcmp(functions[fi].name, name))
			break;
	if (fi == ARRAY_SIZE(functions)) {
		fail(ps, start, "unknown function '%s' (known: min, max, abs, sqrt, floor, sin, cos, d_ratio)", name);
		return;
	}
	int nargs = 0;
	if (!accept(ps, ")")) {
		do {
			parse_expr(ps);
			nargs++;
		} while (!ps->err && accept(ps, ","));
		if (!ps->err && !accept(ps, ")"))
			fail(ps, ps->p, "expected ',' or ')' in call of %s()", name);
	}
	if (ps->err)
		return;
	if (nargs < functions[fi].minargs || nargs > functions[fi].maxargs) {
		fail(ps, start, "%s() takes %d%s argument%s, not %d", name, functions[fi].minargs,
		     functions[fi].maxargs > functions[fi].minargs ? " or more" : "",
		     functions[fi].minargs == 1 && functions[fi].maxargs == 1 ? "" : "s", nargs);
		return;
	}
	emit(ps, functions[fi].op, nargs, 0, 1 - nargs);
}

static void parse_primary(struct parser *ps)
{
	skip_ws(ps);
	const char *start = ps->p;
	if (accept(ps, "(")) {
		parse_expr(ps);
		if (!ps->err && !accept(ps, ")"))
			fail(ps, ps->p, "expected ')'");
		return;
	}
	if (isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1]))) {
		char *end;
		double v;
		if (ps->p[0] == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X')) {
			v = (double)strtoull(ps->p, &end, 16);
			if (end == ps->p + 2) {
				fail(ps, start, "malformed hex number");
				return;
			}
		} else {
			v = strtod_c(ps->p, &end);
		}
		if (isalpha((unsigned char)*end) || *end == '_') {
			fail(ps, start, "malformed number '%.*s'", (int)(end - ps->p) + 1, ps->p);
			return;
		}
		ps->p = end;
		emit(ps, OP_CONST, 0, v, 1);
		return;
	}
	if (isalpha((unsigned char)*ps->p) || *ps->p == '_' || (*ps->p == '#' && isalpha((unsigned char)ps->p[1]))) {
		const char *q = ps->p + (*ps->p == '#'); /* perf's literals: #smt_on */
		while (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
			q++;
		char *name = xstrndup(ps->p, (size_t)(q - ps->p));
		ps->p = q;
		if (accept(ps, "(")) {
			parse_call(ps, start, name);
		} else {
			int slot = ps->names ? ps->names->resolve(ps->names->ctx, name) : -1;
			if (slot < 0) {
				const char *hint = expr_suggest(ps->names, name);
				if (hint)
					fail(ps, start, "unknown event '%s' (did you mean '%s'?)", name, hint);
				else
					fail(ps, start, "unknown event or name '%s'", name);
			} else {
				emit(ps, OP_VAR, slot, 0, 1);
			}
		}
		free(name);
		return;
	}
	if (!*ps->p)
		fail(ps, start, "formula ends where a value was expected");
	else
		fail(ps, start, "unexpected '%c' where a value was expected", *ps->p);
}

/* One more level of the parser's recursion; false (said once) past the limit. Every
 * recursive production goes through it: a formula must not reach the C stack's end. */
static bool enter(struct parser *ps)
{
	if (++ps->nest <= EXPR_MAX_NEST)
		return true;
	fail(ps, ps->p, "formula nests too deeply (more than %d levels)", EXPR_MAX_NEST);
	ps->nest--;
	return false;
}

static void parse_unary(struct parser *ps)
{
	skip_ws(ps);
	if (!enter(ps))
		return;
	if (ps->err) {
	} else if (accept(ps, "-")) {
		parse_unary(ps);
		emit(ps, OP_NEG, 0, 0, 0);
	} else if (accept(ps, "+")) {
		parse_unary(ps);
	} else if (accept(ps, "!")) {
		parse_unary(ps);
		emit(ps, OP_NOT, 0, 0, 0);
	} else {
		parse_primary(ps);
	}
	ps->nest--;
}

static void parse_mul(struct parser *ps)
{
	parse_unary(ps);
	while (!ps->err) {
		if (accept(ps, "*")) {
			parse_unary(ps);
			emit(ps, OP_MUL, 0, 0, -1);
		} else if (accept(ps, "/")) {
			parse_unary(ps);
			emit(ps, OP_DIV, 0, 0, -1);
		} else {
			break;
		}
	}
}

static void parse_add(struct parser *ps)
{
	parse_mul(ps);
	while (!ps->err) {
		if (accept(ps, "+")) {
			parse_mul(ps);
			emit(ps, OP_ADD, 0, 0, -1);
		} else if (accept(ps, "-")) {
			parse_mul(ps);
			emit(ps, OP_SUB, 0, 0, -1);
		} else {
			break;
		}
	}
}

static void parse_cmp(struct parser *ps)
{
	static const struct {
		const char *tok;
		enum op op;
	} cmps[] = { { "<=", OP_LE }, { ">=", OP_GE }, { "==", OP_EQ }, { "!=", OP_NE }, { "<", OP_LT }, { ">", OP_GT } };
	parse_add(ps);
	for (size_t i = 0; i < ARRAY_SIZE(cmps) && !ps->err; i++) {
		if (accept(ps, cmps[i].tok)) {
			parse_add(ps);
			emit(ps, cmps[i].op, 0, 0, -1);
			return;
		}
	}
}

static void parse_and(struct parser *ps)
{
	parse_cmp(ps);
	while (!ps->err && accept(ps, "&&")) {
		parse_cmp(ps);
		emit(ps, OP_AND, 0, 0, -1);
	}
}

static void parse_or(struct parser *ps)
{
	parse_and(ps);
	while (!ps->err && accept(ps, "||")) {
		parse_and(ps);
		emit(ps, OP_OR, 0, 0, -1);
	}
}

static void parse_cond(struct parser *ps)
{
	parse_or(ps);
	if (ps->err || !accept(ps, "?") || !enter(ps))
		return;
	int jf = emit(ps, OP_JFALSE, 0, 0, -1);
	parse_cond(ps);
	if (ps->err) {
		ps->nest--;
		return;
	}
	if (!accept(ps, ":")) {
		fail(ps, ps->p, "expected ':' of '?:'");
		ps->nest--;
		return;
	}
	int jmp = emit(ps, OP_JUMP, 0, 0, -1); /* the else branch pushes its own value */
	ps->e->code[jf].arg = ps->e->n;
	parse_cond(ps);
	ps->e->code[jmp].arg = ps->e->n;
	ps->e->code[jf].arg2 = ps->e->n;
	ps->nest--;
}

/* A keyword: the word, not the start of a longer name. */
static bool accept_word(struct parser *ps, const char *w)
{
	skip_ws(ps);
	size_t n = strlen(w);
	if (strncmp(ps->p, w, n) || isalnum((unsigned char)ps->p[n]) || ps->p[n] == '_' || ps->p[n] == '.')
		return false;
	ps->p += n;
	return true;
}

/* perf's "a if c else b", looser than every operator ("x + y if c else z" chooses x + y);
 * both branches are evaluated (they are formulae of counts: no effects), the condition
 * chooses, and no value where it has none. */
static void parse_expr(struct parser *ps)
{
	parse_cond(ps);
	if (ps->err || !accept_word(ps, "if") || !enter(ps))
		return;
	parse_cond(ps);
	if (!ps->err && !accept_word(ps, "else"))
		fail(ps, ps->p, "expected 'else' of 'if'");
	if (!ps->err)
		parse_expr(ps);
	if (!ps->err)
		emit(ps, OP_SELECT, 0, 0, -2);
	ps->nest--;
}

/* VAR x; ADD -> ADDV x (and SUB, MUL, DIV; CONST likewise). Only where no jump targets
 * would move: most formulae have no conditional at all. */
static void fuse(struct expr *e)
{
	for (int i = 0; i < e->n; i++)
		if (e->code[i].op == OP_JFALSE || e->code[i].op == OP_JUMP)
			return;
	int out = 0;
	for (int i = 0; i < e->n; i++) {
		struct insn in = e->code[i];
		if (i + 1 < e->n && (in.op == OP_VAR || in.op == OP_CONST)) {
			uint8_t next = e->code[i + 1].op, fused = 0;
			bool v = in.op == OP_VAR;
			if (next == OP_ADD)
				fused = v ? OP_ADDV : OP_ADDK;
			else if (next == OP_SUB)
				fused = v ? OP_SUBV : OP_SUBK;
			else if (next == OP_MUL)
				fused = v ? OP_MULV : OP_MULK;
			else if (next == OP_DIV)
				fused = v ? OP_DIVV : OP_DIVK;
			if (fused) {
				in.op = fused;
				i++;
			}
		}
		e->code[out++] = in;
	}
	e->n = out;
}

struct expr *expr_compile(const char *text, const struct expr_names *names, char **err, int *col)
{
	struct parser ps = { .text = text, .p = text, .names = names };
	ps.e = xcalloc(1, sizeof(struct expr));
	*err = NULL;
	*col = 0;
	parse_expr(&ps);
	skip_ws(&ps);
	if (!ps.err && *ps.p)
		fail(&ps, ps.p, "unexpected '%c' after the end of the formula", *ps.p);
	if (ps.err) {
		*err = ps.err;
		*col = ps.errcol;
		expr_free(ps.e);
		return NULL;
	}
	ps.e->depth = ps.maxsp;
	fuse(ps.e);
	grow_array(&ps.e->code, &ps.e->cap, ps.e->n + 1, sizeof(struct insn));
	ps.e->code[ps.e->n] = (struct insn){ .op = OP_END };
	return ps.e;
}

void expr_free(struct expr *e)
{
	if (!e)
		return;
	free(e->code);
	free(e);
}

/* Direct threading (GCC's and clang's labels as values): each instruction jumps straight
 * to the next one's code, with no loop test or switch range check; metric and model
 * formulae run per counter per refresh. */
double expr_eval(const struct expr *e, const double *vars)
{
	static const void *const at[OP_COUNT] = {
		[OP_CONST] = &&op_const, [OP_VAR] = &&op_var, [OP_ADD] = &&op_add, [OP_SUB] = &&op_sub,
		[OP_MUL] = &&op_mul, [OP_DIV] = &&op_div, [OP_NEG] = &&op_neg, [OP_NOT] = &&op_not,
		[OP_LT] = &&op_lt, [OP_LE] = &&op_le, [OP_GT] = &&op_gt, [OP_GE] = &&op_ge,
		[OP_EQ] = &&op_eq, [OP_NE] = &&op_ne, [OP_AND] = &&op_and, [OP_OR] = &&op_or,
		[OP_MIN] = &&op_minmax, [OP_MAX] = &&op_minmax, [OP_ABS] = &&op_abs, [OP_SQRT] = &&op_sqrt,
		[OP_FLOOR] = &&op_floor, [OP_SIN] = &&op_sin, [OP_COS] = &&op_cos, [OP_DRATIO] = &&op_dratio,
		[OP_SELECT] = &&op_select, [OP_JFALSE] = &&op_jfalse,
		[OP_JUMP] = &&op_jump, [OP_ADDV] = &&op_addv, [OP_SUBV] = &&op_subv, [OP_MULV] = &&op_mulv,
		[OP_DIVV] = &&op_divv, [OP_ADDK] = &&op_addk, [OP_SUBK] = &&op_subk, [OP_MULK] = &&op_mulk,
		[OP_DIVK] = &&op_divk, [OP_END] = &&op_end,
	};
	double st[EXPR_MAX_DEPTH + 1]; /* expr_compile() refuses formulae deeper than this */
	double *sp = st;               /* the next free slot: sp[-1] is the top value */
	const struct insn *code = e->code, *in = code;
	double a, b;
#define DISPATCH() goto *at[in->op]
#define NEXT()                \
	do {                  \
		in++;         \
		DISPATCH();   \
	} while (0)
#define BINARY(expr_)         \
	b = *--sp;            \
	a = sp[-1];           \
	sp[-1] = (expr_);     \
	NEXT()
/* a comparison of "no value" is no value */
#define COMPARE(expr_) BINARY(isnan(a) || isnan(b) ? NAN : (double)(expr_))
	DISPATCH();
op_const: *sp++ = in->k; NEXT();
op_var: *sp++ = vars[in->arg]; NEXT();
op_add: BINARY(a + b);
op_sub: BINARY(a - b);
op_mul: BINARY(a * b);
op_div: BINARY(b == 0.0 ? NAN : a / b); /* "no value", never a made-up 0 or inf */
op_neg: sp[-1] = -sp[-1]; NEXT();
op_not: sp[-1] = isnan(sp[-1]) ? NAN : sp[-1] == 0.0; NEXT();
op_lt: COMPARE(a < b);
op_le: COMPARE(a <= b);
op_gt: COMPARE(a > b);
op_ge: COMPARE(a >= b);
op_eq: COMPARE(a == b);
op_ne: COMPARE(a != b);
op_and: COMPARE(a != 0.0 && b != 0.0);
op_or: COMPARE(a != 0.0 || b != 0.0);
op_minmax: {
	double *first = sp - in->arg, r = *first;
	for (double *x = first + 1; x < sp; x++) {
		if (isnan(*x) || isnan(r))
			r = NAN;
		else if (in->op == OP_MIN ? *x < r : *x > r)
			r = *x;
	}
	sp = first + 1;
	sp[-1] = r;
	NEXT();
}
op_abs: sp[-1] = fabs(sp[-1]); NEXT();
op_sqrt: sp[-1] = sp[-1] < 0 ? NAN : sqrt(sp[-1]); NEXT();
op_floor: sp[-1] = floor(sp[-1]); NEXT();
op_sin: sp[-1] = sin(sp[-1]); NEXT();
op_cos: sp[-1] = cos(sp[-1]); NEXT();
op_dratio: BINARY(b == 0.0 && !isnan(a) ? 0.0 : a / b);
op_select: /* a, c, b: no value where the condition has none, else the branch chosen */
	b = *--sp;
	a = *--sp;
	sp[-1] = isnan(a) ? NAN : a != 0.0 ? sp[-1] : b;
	NEXT();
op_jfalse:
	a = *--sp;
	if (isnan(a)) {
		*sp++ = NAN;
		in = code + in->arg2;
		DISPATCH();
	}
	if (a == 0.0) {
		in = code + in->arg;
		DISPATCH();
	}
	NEXT();
op_jump: in = code + in->arg; DISPATCH();
op_addv: sp[-1] += vars[in->arg]; NEXT();
op_subv: sp[-1] -= vars[in->arg]; NEXT();
op_mulv: sp[-1] *= vars[in->arg]; NEXT();
op_divv: b = vars[in->arg]; sp[-1] = b == 0.0 ? NAN : sp[-1] / b; NEXT();
op_addk: sp[-1] += in->k; NEXT();
op_subk: sp[-1] -= in->k; NEXT();
op_mulk: sp[-1] *= in->k; NEXT();
op_divk: sp[-1] = in->k == 0.0 ? NAN : sp[-1] / in->k; NEXT();
op_end:
	return sp > st ? sp[-1] : NAN;
#undef COMPARE
#undef BINARY
#undef NEXT
#undef DISPATCH
}

void expr_map_vars(struct expr *e, int (*map)(void *ctx, int slot), void *ctx)
{
	for (int i = 0; i < e->n; i++)
		if (reads_var(e->code[i].op))
			e->code[i].arg = map(ctx, e->code[i].arg);
}

void expr_foreach_var(const struct expr *e, void (*fn)(void *ctx, int slot), void *ctx)
{
	for (int i = 0; i < e->n; i++) {
		if (!reads_var(e->code[i].op))
			continue;
		bool seen = false;
		for (int j = 0; j < i && !seen; j++)
			seen = reads_var(e->code[j].op) && e->code[j].arg == e->code[i].arg;
		if (!seen)
			fn(ctx, e->code[i].arg);
	}
}

int expr_ninsns(const struct expr *e)
{
	return e->n;
}

const char *expr_suggest(const struct expr_names *names, const char *name)
{
	if (!names || !names->known)
		return NULL;
	const char *best = NULL;
	int bestd = 99;
	for (int i = 0;; i++) {
		const char *k = names->known(names->ctx, i);
		if (!k)
			break;
		int d = edit_distance(name, k);
		if (d < bestd) {
			bestd = d;
			best = k;
		}
	}
	int limit = (int)strlen(name) / 3 + 1;
	return bestd <= limit ? best : NULL;
}
