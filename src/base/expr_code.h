/* SPDX-License-Identifier: GPL-2.0-only */
/* expr_code.h - a compiled formula's code, for the files of base/ that read it (expr.c
 * runs it, expr_reads.c finds what it needs). */
#ifndef PMUTOP_EXPR_CODE_H
#define PMUTOP_EXPR_CODE_H

#include <stdbool.h>
#include <stdint.h>

#define EXPR_MAX_DEPTH 64 /* values on the evaluator's stack */

enum op {
	OP_CONST, OP_VAR, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG, OP_NOT,
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR,
	OP_MIN, OP_MAX, OP_ABS, OP_SQRT, OP_FLOOR, OP_SIN, OP_COS,
	OP_DRATIO, /* perf's d_ratio(a, b): a / b, 0 where b is 0 */
	OP_SELECT, /* perf's "a if c else b": pops a, c, b (all evaluated), pushes one */
	OP_JFALSE, /* pop; if false jump to arg (NaN: push NaN and jump to the end, arg2) */
	OP_JUMP,
	/* fused by compile (formulae without jumps): a variable or a constant as the right
	 * operand, one dispatch instead of two */
	OP_ADDV, OP_SUBV, OP_MULV, OP_DIVV, OP_ADDK, OP_SUBK, OP_MULK, OP_DIVK,
	OP_END, /* after the last instruction (code[n]): the evaluator needs no bounds check */
	OP_COUNT
};

static inline bool reads_var(uint8_t op)
{
	return op == OP_VAR || op == OP_ADDV || op == OP_SUBV || op == OP_MULV || op == OP_DIVV;
}

struct insn {
	uint8_t op;
	int32_t arg;  /* slot, jump target, or argument count */
	int32_t arg2; /* OP_JFALSE: where "no value" goes */
	double k;
};

struct expr {
	int n, cap;
	struct insn *code;
	int depth;
};

#endif
