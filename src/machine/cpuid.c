/* SPDX-License-Identifier: GPL-2.0-only */
/* cpuid.c - an x86 machine's CPU model, read where the kernel offers it.
 *
 * Uncore event encodings change between CPU generations under the same PMU names (on
 * Skylake-SP the IMC's event 0x05 counts refreshes; on Sapphire Rapids it is CAS), so a
 * profile's model-specific groups bind only where this says the model they were written
 * for, as perf's mapfile.csv chooses a CPU's JSON. */
#include "machine/cpuid.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "base/regex_memo.h"
#include "base/sysfs.h"
#include "base/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* The vendor string of the modalias' "ven" number (the kernel's X86_VENDOR_*). */
static const char *vendor_name(unsigned ven)
{
	static const char *const vendors[] = { [0] = "GenuineIntel", [2] = "AuthenticAMD", [9] = "HygonGenuine" };
	return ven < ARRAY_SIZE(vendors) && vendors[ven] ? vendors[ven] : NULL;
}

/* The value of "key\t: value" in the first processor's block of /proc/cpuinfo ("model",
 * not "model name"). */
static const char *cpuinfo_field(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	for (const char *line = text; *line && *line != '\n';) {
		const char *end = strchr(line, '\n');
		const char *colon = line + klen;
		while (!strncmp(line, key, klen) && (*colon == ' ' || *colon == '\t'))
			colon++;
		if (strncmp(line, key, klen) || *colon != ':') {
			if (!end)
				break;
			line = end + 1;
			continue;
		}
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		size_t n = end ? (size_t)(end - colon) : strlen(colon);
		if (n >= len)
			n = len - 1;
		memcpy(out, colon, n);
		out[n] = '\0';
		return out;
	}
	return NULL;
}

static char *from_cpuinfo(const char *root)
{
	char *path = path_join(root, "proc/cpuinfo");
	char *text = read_text_file(path, 16384); /* the first CPU's block is enough */
	free(path);
	if (!text)
		return NULL;
	char vendor[32], family[16], model[16], stepping[16];
	char *id = NULL;
	unsigned fam, mod, step;
	if (cpuinfo_field(text, "vendor_id", vendor, sizeof(vendor)) &&
	    cpuinfo_field(text, "cpu family", family, sizeof(family)) &&
	    cpuinfo_field(text, "model", model, sizeof(model)) && sscanf(family, "%u", &fam) == 1 &&
	    sscanf(model, "%u", &mod) == 1) {
		if (cpuinfo_field(text, "stepping", stepping, sizeof(stepping)) && sscanf(stepping, "%u", &step) == 1)
			id = xasprintf("%s-%u-%X-%X", vendor, fam, mod, step);
		else
			id = xasprintf("%s-%u-%X", vendor, fam, mod);
	}
	free(text);
	return id;
}

static char *from_modalias(const char *root)
{
	char *dir = path_join(root, "sys/devices/system/cpu");
	char *alias = sysfs_read_attr(dir, "modalias");
	free(dir);
	unsigned ven, fam, mod;
	char *id = NULL;
	if (alias && sscanf(alias, "cpu:type:x86,ven%4xfam%4xmod%4x", &ven, &fam, &mod) == 3 && vendor_name(ven))
		id = xasprintf("%s-%u-%X", vendor_name(ven), fam, mod);
	free(alias);
	return id;
}

/* perf's own arithmetic (tools/perf/arch/x86/util/header.c): the extended family is
 * added from family 0xf, the extended model from family 6. */
static char *from_instruction(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return NULL;
	char vendor[13];
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return NULL;
	unsigned family = (a >> 8) & 0xf, model = (a >> 4) & 0xf, step = a & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 0x6)
		model += ((a >> 16) & 0xf) << 4;
	return xasprintf("%s-%u-%X-%X", vendor, family, model, step);
#else
	return NULL;
#endif
}

char *cpuid_read(const char *root, const char **from)
{
	char *id = from_cpuinfo(root);
	*from = "proc/cpuinfo";
	if (!id) {
		id = from_modalias(root);
		*from = "the CPU modalias";
	}
	if (!id && !strcmp(root, "/")) {
		id = from_instruction();
		*from = "the CPUID instruction";
	}
	if (!id)
		*from = NULL;
	return id;
}

int cpuid_glob_matches(const char *glob, const char *cpuid)
{
	if (!fnmatch(glob, cpuid, 0))
		return 1;
	const char *dash = strrchr(cpuid, '-');
	int dashes = 0;
	for (const char *p = cpuid; *p; p++)
		dashes += *p == '-';
	if (dashes < 3 || !dash) /* no stepping to leave out */
		return 0;
	char *bare = xstrndup(cpuid, (size_t)(dash - cpuid));
	int ok = !fnmatch(glob, bare, 0);
	free(bare);
	return ok;
}

static int dashes(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '-';
	return n;
}

int cpuid_regex_matches(const char *regex, const char *cpuid)
{
	/* perf's x86 strcmp_cpuid_str: a pattern with a stepping needs a cpuid with one; the
	 * match must cover the cpuid, or the cpuid less its stepping for a pattern without */
	bool full_pattern = dashes(regex) == 3, full_cpuid = dashes(cpuid) == 3;
	if (full_pattern && !full_cpuid)
		return 0;
	const regex_t *re = regex_memo(regex);
	regmatch_t at[1];
	if (!re || regexec(re, cpuid, 1, at, 0) != 0)
		return 0;
	size_t len = !full_pattern && full_cpuid ? (size_t)(strrchr(cpuid, '-') - cpuid) : strlen(cpuid);
	return (size_t)(at[0].rm_eo - at[0].rm_so) == len;
}

int cpuid_listed(const char *cpuid, char *const *models)
{
	for (char *const *w = models; cpuid && *w; w++)
		if ((*w)[0] == '~' ? cpuid_regex_matches(*w + 1, cpuid) : cpuid_glob_matches(*w, cpuid))
			return 1;
	return 0;
}
