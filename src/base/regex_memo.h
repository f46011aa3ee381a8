/* regex_memo.h - POSIX extended regular expressions compiled once per process. */
#ifndef PMUTOP_REGEX_MEMO_H
#define PMUTOP_REGEX_MEMO_H

#include <regex.h>

/* pattern compiled with REG_EXTENDED, or NULL where it does not compile. The answer
 * lives until exit; loading is single-threaded, and so is this. */
const regex_t *regex_memo(const char *pattern);

#endif
