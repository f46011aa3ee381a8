/* SPDX-License-Identifier: GPL-2.0-only */
/* encode_memo.h - encodings already made, found by their text. Binding a per-CPU group
 * encodes the same strings once a CPU (Tegra410's TopDown: 144 CPUs x 8 events, 8 texts);
 * the answer depends on the text and the machine only, so one encoding serves them all. */
#ifndef PMUTOP_ENCODE_MEMO_H
#define PMUTOP_ENCODE_MEMO_H

#include "machine/encode.h"

struct encode_memo;
struct encode_memo *encode_memo_new(const struct machine *m);
void encode_memo_free(struct encode_memo *memo);
/* encode_event() over memo's machine; a failure is not kept (its message is the caller's). */
int encode_event_memo(struct encode_memo *memo, const char *text, struct encoded_event *out, char **err);

#endif
