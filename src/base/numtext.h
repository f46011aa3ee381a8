/* numtext.h - numbers as text, fast: batch output prints every value each interval, and
 * printf's "%g" goes through multi-precision arithmetic (most of a live refresh's
 * instructions). */
#ifndef PMUTOP_NUMTEXT_H
#define PMUTOP_NUMTEXT_H

#include <stddef.h>

/* Exactly what snprintf(buf, len, "%.10g", v) writes in the C locale, and its return. */
int format_g10(char *buf, size_t len, double v);

#endif
