/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_regex.c - libFuzzer target for the guard before regcomp (base/regex_memo.h): every
 * pattern is refused with a reason or compiled, never a crash, and what the guard lets
 * through compiles in a bounded time and memory (libFuzzer's -timeout and -rss_limit_mb
 * are the judges: (((.?){30}){30}){30} took glibc's regcomp past its stack). */
#include <stdlib.h>
#include <string.h>

#include "base/regex_memo.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *pattern = malloc(size + 1);
	memcpy(pattern, data, size);
	pattern[size] = '\0';
	/* what the guard lets through is compiled and matched as regex_memo would (without
	 * the memo, which keeps every pattern of a process: a fuzzer's millions would fill it) */
	regex_t re;
	if (!regex_refusal(pattern) && regcomp(&re, pattern, REG_EXTENDED) == 0) {
		regexec(&re, "GenuineIntel-6-8F-8", 0, NULL, 0);
		regfree(&re);
	}
	free(pattern);
	return 0;
}
