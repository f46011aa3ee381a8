/* SPDX-License-Identifier: GPL-2.0-only */
/* bottleneck.h - the one TopDown bottleneck of a frame's row, as toplev names it at the
 * end of a run (perf stat's summary of a command ends with it). */
#ifndef PMUTOP_BOTTLENECK_H
#define PMUTOP_BOTTLENECK_H

struct frame;

/* toplev's rule (its find_bn): from level 1 down, the largest share among the nodes past
 * their thresholds (perf's MetricThreshold), until none of its children is, or the two
 * largest are within 5 % of the slots of each other (which is it, nobody can say). On the
 * machine's row ("all"): "tma_backend_bound > tma_memory_bound > tma_dram_bound", and
 * *share its share (a fraction), or NULL where no tree is counted or nothing is past its
 * threshold. malloc'd. */
char *frame_bottleneck(const struct frame *f, double *share);

#endif
