/* SPDX-License-Identifier: GPL-2.0-only */
/* discover.h - a machine from a sysfs tree. */
#ifndef PMUTOP_DISCOVER_H
#define PMUTOP_DISCOVER_H

#include "machine/pmu.h"

/* Discover everything under root ("/" for the live machine). Problems with single files
 * become warnings; only an unreadable event_source directory is reported by returning
 * a machine with no PMUs (and a warning). */
struct machine *machine_discover(const char *root);

#endif
