/* SPDX-License-Identifier: GPL-2.0-only */
/* snapshot.h - what discovery found, as text and back: a recording carries the machine
 * its bindings were made on, so it replays anywhere, with no sysfs tree. */
#ifndef PMUTOP_SNAPSHOT_H
#define PMUTOP_SNAPSHOT_H

struct machine;

/* The whole machine (PMUs with formats, aliases, attributes and bfperf blocks; CPUs and
 * sockets; hwmon devices; the PCI map) as lines of tab-separated escaped fields. */
char *machine_snapshot(const struct machine *m);
/* The machine back; NULL with *err set ("line N: ...") if the text is not a snapshot. */
struct machine *machine_from_snapshot(const char *text, char **err);

#endif
