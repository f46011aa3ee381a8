/* SPDX-License-Identifier: GPL-2.0-only */
/* info.h - what a recording holds, for a person (pmutop record --info). */
#ifndef PMUTOP_RECORD_INFO_H
#define PMUTOP_RECORD_INFO_H

struct textbuf;

/* Host, kernel, versions, profiles, the time range, samples, size and session events of
 * the recording at path, as text into out (control bytes escaped: the file's strings are
 * data). 0; 1 when some of it is damaged (said in out, the rest still described); -1
 * with *err when it cannot be opened as a recording. */
int record_info(const char *path, struct textbuf *out, char **err);

#endif
