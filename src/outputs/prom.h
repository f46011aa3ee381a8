/* SPDX-License-Identifier: GPL-2.0-only */
/* prom.h - Prometheus naming: metric names from pmutop's names, base units from a
 * profile's display unit, label escaping; shared by the exporter and `pmutop rules`. */
#ifndef PMUTOP_PROM_H
#define PMUTOP_PROM_H

#include <stdbool.h>
#include <stddef.h>

/* A display unit in base units: GB/s -> bytes_per_second x 1e9, ns -> seconds x 1e-9,
 * % -> ratio x 0.01, GHz -> hertz x 1e9, /s -> per_second. suffix is "" when the unit
 * has no base name (a count, "x"). */
struct prom_unit {
	const char *suffix;  /* appended to the name: "bytes_per_second" */
	const char *om_unit; /* OpenMetrics UNIT, or NULL */
	double factor;
};
void prom_unit_of(const char *unit, struct prom_unit *out);

/* "pmutop_" + the parts joined with '_', every other character made '_', a unit suffix
 * (not repeated), "_total" for counters. */
void prom_metric_name(char *buf, size_t len, const char *a, const char *b, const char *suffix, bool total);
/* A raw event's series: "pmutop_GROUP_EVENT" with the alias's unit ("Joules": joules,
 * the .scale applied), and _total for a count. EVENT is the profile's name for the
 * event's role ("watch"), not whichever alias a filter chose. */
void prom_counter_name(char *buf, size_t len, const char *group, const char *event, const char *unit, bool total);
/* A PMU attribute's gauge ("pmutop_nic_hw_clk_freq_hertz"). */
void prom_attr_name(char *buf, size_t len, const char *group, const char *attr);
/* key="value" with \\, \" and \n escaped, appended to buf (comma-separated). */
void prom_label(char *buf, size_t len, const char *key, const char *value);
/* A sample value as Prometheus reads it (NaN, +Inf, %.17g in the C locale). */
void prom_value(char *buf, size_t len, double v);

#endif
