/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_expr.c - libFuzzer target: any text as a formula compiles or is refused with a
 * column inside the text; what compiles evaluates without allocating or crashing. */
#include <stdlib.h>
#include <string.h>

#include "base/expr.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const char *const names[] = { "a", "b", "cycles", "elapsed_ns" };

static int resolve(void *ctx, const char *name)
{
	(void)ctx;
	for (int i = 0; i < 4; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static const char *known(void *ctx, int i)
{
	(void)ctx;
	return i >= 0 && i < 4 ? names[i] : NULL;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	struct expr_names n = { resolve, known, NULL };
	char *err;
	int col;
	struct expr *e = expr_compile(text, &n, &err, &col);
	if (e) {
		double vars[4] = { 3, 0, 1e9, 1e9 };
		(void)expr_eval(e, vars);
		expr_free(e);
	} else {
		if (col < 1 || (size_t)col > strlen(text) + 1)
			abort(); /* the column must point into the formula */
		free(err);
	}
	free(text);
	return 0;
}
