/* SPDX-License-Identifier: GPL-2.0-only */
/* check_core.c - CPU lists, format fields, discovery, encoding, formulae. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/diag.h"
#include "base/heap.h"
#include "machine/encode.h"
#include "machine/encode_memo.h"
#include "base/expr.h"
#include "base/name_index.h"
#include "base/numtext.h"
#include "base/regex_memo.h"
#include "base/textbuf.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/format.h"
#include "machine/pcimap.h"
#include "base/timetext.h"
#include "machine/cpuid.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "machine/procstat.h"
#include "outputs/prom.h"
#include "sim/simmodel.h"
#include "testutil.h"
#include "base/util.h"

/* ---- cpu lists ---- */

START_TEST(cpulist_forms)
{
	struct cpulist l;
	ck_assert(cpulist_parse("0-3,8,10-11\n", &l));
	ck_assert_int_eq(l.n, 7);
	ck_assert_int_eq(l.cpu[4], 8);
	ck_assert(cpulist_contains(&l, 11));
	ck_assert(!cpulist_contains(&l, 9));
	char buf[64];
	cpulist_format(&l, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0-3,8,10-11");
	cpulist_free(&l);
	ck_assert(cpulist_parse("5\n", &l)); /* HNS3 prints a plain integer */
	ck_assert_int_eq(l.n, 1);
	ck_assert_int_eq(l.cpu[0], 5);
	cpulist_free(&l);
	ck_assert(cpulist_parse("\n", &l));
	ck_assert_int_eq(l.n, 0);
	ck_assert(!cpulist_parse("3-1", &l));
	ck_assert(!cpulist_parse("-1\n", &l));
	ck_assert(!cpulist_parse("0,,1", &l));
	ck_assert(!cpulist_parse("0-99999999", &l));
	ck_assert(cpulist_parse("0-8191", &l)); /* the largest list there is (NR_CPUS), in linear time */
	ck_assert_int_eq(l.n, 8192);
	char why[160];
	cpulist_explain("0-8192", why, sizeof(why)); /* a recording claiming 65 536 CPUs replayed in minutes */
	ck_assert_str_eq(why, "CPU 8192 is past 8191, the last the kernel numbers (NR_CPUS is at most 8192)");
	cpulist_explain("0,,1", why, sizeof(why));
	ck_assert_str_eq(why, "malformed CPU list");
	struct cpulist past = { 0 };
	ck_assert(!cpulist_parse("0-8192", &past));
	struct cpulist keep = { 0 };
	cpulist_add(&keep, 9); /* out of order, twice */
	cpulist_add(&keep, 2);
	cpulist_add(&keep, 9);
	cpulist_add(&keep, 70000);
	ck_assert_int_eq(keep.n, 3);
	ck_assert_int_eq(keep.cpu[0], 2);
	ck_assert_int_eq(keep.cpu[2], 70000);
	ck_assert_int_eq(cpulist_intersect(&l, &keep), 8190);
	ck_assert_int_eq(l.n, 2);
	ck_assert_int_eq(l.cpu[1], 9);
	cpulist_free(&l);
	cpulist_free(&keep);
}
END_TEST

/* ---- numbers as text ---- */

static void same_as_printf(double v)
{
	char want[64], got[64];
	int nw = snprintf(want, sizeof(want), "%.10g", v);
	int ng = format_g10(got, sizeof(got), v);
	if (strcmp(want, got) || nw != ng) /* not ck_assert: Check records every passing one */
		ck_abort_msg("%.17g: printf '%s', format_g10 '%s'", v, want, got);
}

/* format_g10 writes what printf's "%.10g" writes, for every kind of value: counts and
 * rates, fractions, the far exponents, halves where rounding is decided, a decade's edge,
 * and some 150 000 random values (the suite also runs under ASan and valgrind) */
START_TEST(format_g10_is_printf)
{
	static const double fixed[] = { 0.0, -0.0, 1, -1, 0.5, 1e9, 1e10, 9999999999.0, 9999999999.5,
					9999999999.4, 99999999995.0, 0.0001, 0.00012345, 0.00001, 1.5e-5,
					123.456, 1234567890123.0, 1e21, 1e22, 1e23, 1e-12, 1e-13, 1e300, 1e-300,
					4.9e-324, 1.7976931348623157e308, 2.5, 0.125, 1.0000000005, 1.0000000015,
					1.0000000025, 12345.678905, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 100, 1e15 + 0.5,
					INFINITY, -INFINITY, NAN };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		same_as_printf(fixed[i]);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 50000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		if (i % 16 == 0) { /* any double at all (printf is slow on the far exponents) */
			double v;
			memcpy(&v, &x, sizeof(v));
			same_as_printf(v);
		}
		/* 1e-12..1e22, where format_g10 does the work itself */
		same_as_printf((double)(x >> 11) * pow(10, (double)(x % 35) - 12) / 9007199254740992.0);
		/* and the values batch output prints: a count over an interval, a ratio */
		same_as_printf((double)(x >> 20) / (double)(1 + (x & 0xfffff)));
		same_as_printf((double)(x % 100000) / 1000.0 + 0.0005);
	}
	char small[4];
	ck_assert_int_eq(format_g10(small, sizeof(small), 123456.0), 6); /* cut, as snprintf */
	ck_assert_str_eq(small, "123");
}
END_TEST

/* Every sysfs path is the root joined to a relative one: one slash between, whatever
 * either side brings */
START_TEST(path_join_puts_one_slash)
{
	static const char *const cases[][3] = { { "/", "/sys/bus", "/sys/bus" }, { "/", "sys", "/sys" },
						{ "/tmp/r/", "sys", "/tmp/r/sys" }, { "/tmp/r//", "//sys", "/tmp/r/sys" },
						{ "r", "a/b", "r/a/b" }, { "", "a", "/a" }, { "/", "", "/" } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = path_join(cases[i][0], cases[i][1]);
		ck_assert_msg(!strcmp(got, cases[i][2]), "'%s' + '%s': '%s', not '%s'", cases[i][0], cases[i][1], got,
			      cases[i][2]);
		free(got);
	}
}
END_TEST

/* format_int writes what snprintf's "%lld" writes, and returns what it returns, cut or not */
START_TEST(format_int_is_printf)
{
	static const long long fixed[] = { 0, 1, -1, 9, 10, -10, 143, 2147483647, -2147483648LL, LLONG_MAX, LLONG_MIN };
	uint64_t x = 0x2545f4914f6cdd1dull;
	for (int i = 0; i < 2000 + (int)(sizeof(fixed) / sizeof(fixed[0])); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		long long v = i < (int)(sizeof(fixed) / sizeof(fixed[0])) ? fixed[i] : (long long)(x >> (x % 64));
		char want[32], got[32];
		for (size_t len = 0; len <= sizeof(want); len += len < 4 ? 1 : 28) { /* 0, 1, 2, 3, 4, 32: cut and whole */
			memset(want, 'x', sizeof(want));
			memset(got, 'x', sizeof(got));
			int nw = snprintf(want, len, "%lld", v), ng = format_int(got, len, v);
			if (nw != ng || memcmp(want, got, sizeof(want)))
				ck_abort_msg("%lld in %zu bytes: printf '%.*s' (%d), format_int '%.*s' (%d)", v, len, (int)len, want,
					     nw, (int)len, got, ng);
		}
	}
}
END_TEST

static void fixed_as_printf(struct textbuf *tb, double v, int decimals)
{
	char want[512];
	snprintf(want, sizeof(want), "%.*f", decimals, v);
	textbuf_clear(tb);
	textbuf_fixed(tb, v, decimals);
	if (strcmp(want, tb->data) || tb->len != strlen(want))
		ck_abort_msg("%.17g %%.%df: printf '%s', textbuf '%s'", v, decimals, want, tb->data);
}

/* The batch writer's text buffer writes what printf does: "%.Nf" (the text header and
 * JSON coverage) on halves, negatives that round to zero, large and random values; the
 * integers and hex of --raw; and it grows past any first size. */
START_TEST(textbuf_is_printf)
{
	struct textbuf tb = { 0 };
	static const double fixed[] = { 0.0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.0005, 0.0015, 2.675, 1.005, -0.0004,
					-0.04, 99.95, 99.94999, 999999999.9999, 1e9, 1e15, 123.456, 1.0 / 3,
					0.1 + 0.2, INFINITY, -INFINITY, NAN };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		for (int d = 0; d <= 6; d++)
			fixed_as_printf(&tb, fixed[i], d);
	uint64_t x = 0x2545f4914f6cdd1dull;
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		fixed_as_printf(&tb, (double)(x >> 11) * pow(10, (double)(x % 14) - 5) / 9007199254740992.0 * ((x & 1) ? -1 : 1),
				(int)(x % 7));
		fixed_as_printf(&tb, (double)(x % 1000000) / 1000.0, (int)(x >> 60) % 4); /* exact halves too */
	}
	static const uint64_t ints[] = { 0, 1, 9, 10, 4095, 0xdeadbeef, UINT64_MAX, 9007199254740993ull };
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		char want[64];
		textbuf_clear(&tb);
		textbuf_u64(&tb, ints[i]);
		textbuf_putc(&tb, ' ');
		textbuf_hex(&tb, ints[i]);
		textbuf_putc(&tb, ' ');
		textbuf_int(&tb, -(long long)(ints[i] >> 1));
		snprintf(want, sizeof(want), "%llu 0x%llx %lld", (unsigned long long)ints[i], (unsigned long long)ints[i],
			 -(long long)(ints[i] >> 1));
		ck_assert_str_eq(tb.data, want);
	}
	textbuf_clear(&tb);
	for (int i = 0; i < 1000; i++)
		textbuf_printf(&tb, "%d,", i);
	ck_assert_uint_eq(tb.len, 3890);
	ck_assert_str_eq(tb.data + tb.len - 4, "999,");
	textbuf_free(&tb);
}
END_TEST

/* A frame's time is what gmtime_r and strftime make of it, to the millisecond, over
 * leap years, centuries and the year 2100, 1970 included. */
START_TEST(utc_ms_is_strftime)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* 1970..2400 and its first days; the last milliseconds of a day */
		uint64_t ns = i < 3 ? (uint64_t)i * 86399999000000ull : x % (13569465600ull * 1000000000ull);
		time_t sec = (time_t)(ns / 1000000000ull);
		struct tm tm;
		char want[64], got[64];
		gmtime_r(&sec, &tm);
		size_t n = strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(want + n, sizeof(want) - n, ".%03uZ", (unsigned)(ns / 1000000ull % 1000));
		ck_assert_int_eq(format_utc_ms(got, sizeof(got), ns), (int)strlen(want));
		if (strcmp(want, got))
			ck_abort_msg("%llu ns: strftime '%s', format_utc_ms '%s'", (unsigned long long)ns, want, got);
	}
}
END_TEST

/* ---- format fields ---- */

START_TEST(format_ranges)
{
	struct format_field f;
	ck_assert(format_parse("config1:0-7,32-35\n", &f));
	ck_assert_int_eq(f.word, 1);
	ck_assert_int_eq(f.width, 12);
	ck_assert_uint_eq(format_max(&f), 0xfff);
	uint64_t cfg[CONFIG_WORDS] = { 0 };
	format_place(&f, 0xabc, cfg); /* low 8 bits into 0-7, the next 4 into 32-35 */
	ck_assert_uint_eq(cfg[1], 0xaull << 32 | 0xbc);
	ck_assert_uint_eq(format_extract(&f, cfg), 0xabc);
	ck_assert(format_parse("config:5", &f));
	ck_assert_uint_eq(f.bits, 1u << 5);
	ck_assert(format_parse("config2:0-63", &f));
	ck_assert_uint_eq(format_max(&f), UINT64_MAX);
	ck_assert(!format_parse("config4:0-3", &f));
	ck_assert(!format_parse("config:3-1", &f));
	ck_assert(!format_parse("config:0-64", &f));
	ck_assert(!format_parse("event", &f));
}
END_TEST

/* ---- discovery ---- */

static char *small_tree(void)
{
	char *root = tmp_dir();
	const char *d = "sys/bus/event_source/devices/";
	char *p;
#define PUT(rel, text)                                   \
	do {                                             \
		p = xasprintf("%s%s", d, rel);           \
		put_file(root, p, text);                 \
		free(p);                                 \
	} while (0)
	PUT("hns3_pmu_sicl_0/type", "31\n");
	PUT("hns3_pmu_sicl_0/cpumask", "5\n");
	PUT("hns3_pmu_sicl_0/identifier", "0x30\n");
	PUT("hns3_pmu_sicl_0/bdf_min", "00:00.0\n");
	PUT("hns3_pmu_sicl_0/hw_clk_freq", "100000000\n");
	PUT("hns3_pmu_sicl_0/format/subevent", "config:0-7\n");
	PUT("hns3_pmu_sicl_0/format/event_type", "config:8-15\n");
	PUT("hns3_pmu_sicl_0/format/ext_counter_used", "config:16\n");
	PUT("hns3_pmu_sicl_0/format/global", "config1:52\n");
	PUT("hns3_pmu_sicl_0/format/tc", "config1:4-7\n");
	PUT("hns3_pmu_sicl_0/format/bad", "config9:1\n");
	PUT("hns3_pmu_sicl_0/events/bw_ssu_rpu_byte_num", "config=0x2\n");
	PUT("hns3_pmu_sicl_0/events/bw_ssu_rpu_time", "config=0x10002\n");
	PUT("hns3_pmu_sicl_0/filtermode/bw_ssu_rpu_byte_num", "filter mode supported: global port port-tc func func-queue \n");
	/* hybrid x86 files have no trailing newline */
	PUT("cpu_core/type", "4");
	PUT("cpu_core/cpus", "0-7");
	PUT("cpu_core/format/event", "config:0-7");
	PUT("cpu_core/format/umask", "config:8-15");
	PUT("cpu_core/events/slots", "event=0x00,umask=0x4");
	PUT("cpu_core/events/topdown-retiring", "event=0x00,umask=0x80");
	PUT("power/type", "23\n");
	PUT("power/cpumask", "0\n");
	PUT("power/format/event", "config:0-7\n");
	PUT("power/events/energy-pkg", "event=0x02\n");
	PUT("power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
	PUT("power/events/energy-pkg.unit", "Joules\n");
#undef PUT
	put_file(root, "sys/devices/system/cpu/online", "0-7\n");
	for (int c = 0; c < 8; c++) {
		char *rel = xasprintf("sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		put_file(root, rel, c < 4 ? "0\n" : "1\n");
		free(rel);
	}
	return root;
}

START_TEST(discover_tree)
{
	char *root = small_tree();
	diag_clear();
	struct machine *m = machine_discover(root);
	ck_assert_int_eq(m->npmus, 3);
	const struct pmu *h = machine_find_pmu(m, "hns3_pmu_sicl_0");
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(h->type, 31);
	ck_assert_int_eq(h->cpus.n, 1);
	ck_assert_int_eq(h->cpus.cpu[0], 5);
	ck_assert_int_eq(h->nformats, 5); /* "bad" was refused with a warning */
	ck_assert_str_eq(pmu_attr(h, "hw_clk_freq"), "100000000");
	ck_assert_str_eq(pmu_attr(h, "filtermode/bw_ssu_rpu_byte_num"),
			 "filter mode supported: global port port-tc func func-queue ");
	bool warned = false;
	for (int i = 0; i < diag_count(); i++)
		warned |= strstr(diag_message(i, NULL), "format/bad") != NULL;
	ck_assert_msg(warned, "a malformed format file must be named in a warning");
	const struct pmu *c = machine_find_pmu(m, "cpu_core");
	ck_assert_str_eq(pmu_find_alias(c, "slots")->terms, "event=0x00,umask=0x4");
	ck_assert_int_eq(c->cpus.n, 8); /* no cpumask: every online CPU */
	const struct pmu *pw = machine_find_pmu(m, "power");
	const struct pmu_alias *a = pmu_find_alias(pw, "energy-pkg");
	ck_assert(fabs(a->scale - 2.3283064365386962890625e-10) < 1e-24);
	ck_assert_str_eq(a->unit, "Joules");
	ck_assert_int_eq(pw->naliases, 1); /* .scale and .unit are not events */
	ck_assert_int_eq(machine_socket_of(m, 5), 1);
	machine_free(m);
}
END_TEST

/* While start-up takes its heap in steps, the pages malloc takes from the kernel are
 * resident before anything touches them: the middle of a block just allocated (malloc
 * writes only its ends). Under a malloc that does not use the break (ASan) it says so. */
/* Whether this machine makes pages resident on MADV_POPULATE_WRITE (Linux 5.14): qemu-user
 * accepts the advice and does nothing, so the heap's steps cannot be seen there. */
static bool populate_honoured(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char res[4] = { 0 };
	bool yes = p != MAP_FAILED && madvise(p, (size_t)page * 4, 23 /* MADV_POPULATE_WRITE */) == 0 &&
		   mincore(p, (size_t)page * 4, res) == 0 && (res[2] & 1);
	if (p != MAP_FAILED)
		munmap(p, (size_t)page * 4);
	return yes;
}

START_TEST(heap_steps_populate)
{
	enum { BLOCK = 96 << 10 }; /* below the mmap threshold: from the break */
	long page = sysconf(_SC_PAGESIZE);
	heap_take_steps();
	char *before = sbrk(0), *block[12];
	for (int i = 0; i < 12; i++)
		block[i] = xmalloc(BLOCK);
	heap_stop_steps();
	char *last = block[11];
	bool from_break = (char *)sbrk(0) != before && last >= before && last < (char *)sbrk(0);
	unsigned char resident = 0;
	if (from_break) {
		char *mid = (char *)(((uintptr_t)last + BLOCK / 2) & ~(uintptr_t)(page - 1));
		ck_assert_int_eq(mincore(mid, (size_t)page, &resident), 0);
	} else {
		fprintf(stderr, "heap_steps_populate: skipped: malloc does not take this heap from the program break\n");
	}
	for (int i = 0; i < 12; i++)
		free(block[i]);
	ck_assert_msg(!from_break || (resident & 1), "an untouched page of the heap's last step is not resident");
}
END_TEST

/* A socket's CPUs from its first CPU's package_cpus_list; a CPU no list names reads its own
 * physical_package_id. Either way each CPU's socket is what its own file says (the kernel's
 * word for it): on a tree with lists for one socket only, and on the Tegra410 demo. */
START_TEST(discover_packages)
{
	char *root = small_tree();
	put_file(root, "sys/devices/system/cpu/cpu0/topology/package_cpus_list", "0-3\n");
	diag_clear();
	struct machine *m = machine_discover(root);
	for (int c = 0; c < 8; c++)
		ck_assert_int_eq(machine_socket_of(m, c), c < 4 ? 0 : 1);
	int others = diag_count(); /* the small tree's own faults (a bad format field) */
	machine_free(m);
	/* a list that does not parse, or does not name its own CPU: said once, and each CPU
	 * of that package reads its own file */
	put_file(root, "sys/devices/system/cpu/cpu4/topology/package_cpus_list", "4-x\n");
	put_file(root, "sys/devices/system/cpu/cpu5/topology/package_cpus_list", "0-3\n");
	diag_clear();
	m = machine_discover(root);
	for (int c = 0; c < 8; c++)
		ck_assert_int_eq(machine_socket_of(m, c), c < 4 ? 0 : 1);
	ck_assert_int_eq(diag_count(), others + 1);
	bool said = false;
	for (int i = 0; i < diag_count(); i++)
		said |= strstr(diag_message(i, NULL), "cpu4/topology/package_cpus_list: malformed CPU list '4-x'") != NULL;
	ck_assert_msg(said, "no warning names the malformed package_cpus_list");
	diag_clear();
	machine_free(m);
	m = machine_discover(demo_tegra410());
	ck_assert_int_gt(m->online.n, 72);
	for (int i = 0; i < m->online.n; i++) {
		int c = m->online.cpu[i];
		char *rel = xasprintf("sys/devices/system/cpu/cpu%d/topology", c);
		char *dir = path_join(demo_tegra410(), rel);
		char *v = sysfs_read_attr(dir, "physical_package_id");
		ck_assert_ptr_nonnull(v);
		ck_assert_int_eq(machine_socket_of(m, c), atoi(v));
		free(v);
		free(dir);
		free(rel);
	}
	machine_free(m);
}
END_TEST

START_TEST(discover_missing_root)
{
	diag_clear();
	struct machine *m = machine_discover("/nonexistent/pmutop");
	ck_assert_int_eq(m->npmus, 0);
	ck_assert_int_ge(diag_count(), 1);
	machine_free(m);
}
END_TEST

/* ---- encoding ---- */

static struct machine *demo(void)
{
	return machine_discover(demo_tegra410());
}

static void expect_encoding(struct machine *m, const char *ev, const char *want)
{
	struct encoded_event enc;
	char *err = NULL;
	int r = encode_event(m, ev, &enc, &err);
	ck_assert_msg(r == 0, "%s: %s", ev, err ? err : "");
	char buf[200];
	encode_format_attr(&enc.attr, buf, sizeof(buf));
	ck_assert_str_eq(buf, want);
}

/* The memo answers what the encoder answers, for every alias of every demo PMU asked
 * twice (the second from the table, after it has grown past its first size), and keeps no
 * failure: a bad text fails each time with the encoder's message. */
START_TEST(encode_memo_agrees)
{
	struct machine *m = demo();
	struct encode_memo *memo = encode_memo_new(m);
	int asked = 0;
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < m->npmus; i++)
			for (int a = 0; a < m->pmus[i].naliases; a++) {
				char *text = xasprintf("%s/%s/", m->pmus[i].name, m->pmus[i].aliases[a].name);
				struct encoded_event want, got;
				char *err = NULL;
				ck_assert_int_eq(encode_event(m, text, &want, &err), 0);
				ck_assert_int_eq(encode_event_memo(memo, text, &got, &err), 0);
				ck_assert_msg(!memcmp(&want.attr, &got.attr, sizeof(want.attr)) && want.scale == got.scale, "%s", text);
				free(text);
				asked++;
			}
	ck_assert_int_gt(asked, 2 * 64);
	for (int round = 0; round < 2; round++) {
		struct encoded_event got;
		char *err = NULL;
		ck_assert_int_eq(encode_event_memo(memo, "nvidia_ucf_pmu_0/cycles,nosuchterm=1/", &got, &err), -1);
		ck_assert_ptr_nonnull(strstr(err, "nosuchterm"));
		free(err);
	}
	encode_memo_free(memo);
	machine_free(m);
}
END_TEST

START_TEST(encode_aliases_and_filters)
{
	struct machine *m = demo();
	int ucf = machine_find_pmu(m, "nvidia_ucf_pmu_1")->type;
	char want[200];
	snprintf(want, sizeof(want), "type=%d\tconfig=0x123\tconfig1=0x102\tconfig2=0x0", ucf);
	expect_encoding(m, "nvidia_ucf_pmu_1/mem_bytes_rd,src_loc_cpu=1,dst_loc_cmem/", want);
	snprintf(want, sizeof(want), "type=%d\tconfig=0x100000000\tconfig1=0x0\tconfig2=0x0", ucf);
	expect_encoding(m, "nvidia_ucf_pmu_1/CYCLES/", want); /* aliases are case-insensitive */
	int tgt = machine_find_pmu(m, "nvidia_pcie_tgt_pmu_0_rc_1")->type;
	snprintf(want, sizeof(want), "type=%d\tconfig=0x802\tconfig1=0x10000\tconfig2=0xfff00", tgt);
	expect_encoding(m, "nvidia_pcie_tgt_pmu_0_rc_1/rd_req,dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=1/", want);
	snprintf(want, sizeof(want), "type=%d\tconfig=0x1c\tconfig1=0x0\tconfig2=0x0", tgt);
	expect_encoding(m, "nvidia_pcie_tgt_pmu_0_rc_1/event=4,dst_rp_mask=3/", want);
	int pcie = machine_find_pmu(m, "nvidia_pcie_pmu_1_rc_4")->type;
	snprintf(want, sizeof(want), "type=%d\tconfig=0x4\tconfig1=0x1018000\tconfig2=0x0", pcie);
	expect_encoding(m, "nvidia_pcie_pmu_1_rc_4/rd_cum_outs,src_bdf=0x0180,src_bdf_en=0x1/", want);
	snprintf(want, sizeof(want), "type=%d\tconfig=0x7\tconfig1=0x5\tconfig2=0x9", pcie);
	expect_encoding(m, "nvidia_pcie_pmu_1_rc_4/config=7,config1=5,config2=9/", want);
	expect_encoding(m, "context-switches", "type=1\tconfig=0x3\tconfig1=0x0\tconfig2=0x0");
	expect_encoding(m, "instructions", "type=0\tconfig=0x1\tconfig1=0x0\tconfig2=0x0");
	machine_free(m);
}
END_TEST

static char *encode_error(struct machine *m, const char *ev)
{
	struct encoded_event enc;
	char *err = NULL;
	ck_assert_int_eq(encode_event(m, ev, &enc, &err), -1);
	ck_assert_ptr_nonnull(err);
	return err;
}

START_TEST(encode_errors)
{
	struct machine *m = demo();
	char *e = encode_error(m, "nvidia_ucf_pmu_0/mem_byte_rd/");
	ck_assert_msg(strstr(e, "unknown term 'mem_byte_rd'") && strstr(e, "src_loc_cpu") && strstr(e, "mem_bytes_rd"),
		      "unknown term error lists the valid terms: %s", e);
	free(e);
	e = encode_error(m, "nvidia_pcie_pmu_0_rc_0/rd_bytes,src_rp_mask=0x100/");
	ck_assert_msg(strstr(e, "too big") && strstr(e, "src_rp_mask"), "%s", e);
	free(e);
	e = encode_error(m, "nvidia_cmem_latency_pmu_0/event=4/"); /* config:0-1 */
	ck_assert_msg(strstr(e, "too big"), "%s", e);
	free(e);
	e = encode_error(m, "no_such_pmu/event=1/");
	ck_assert_msg(strstr(e, "no PMU named 'no_such_pmu'"), "%s", e);
	free(e);
	e = encode_error(m, "nvidia_ucf_pmu_0/event=zz/");
	ck_assert_msg(strstr(e, "bad value 'zz'"), "%s", e);
	free(e);
	e = encode_error(m, "nvidia_ucf_pmu_0/event=1");
	ck_assert_msg(strstr(e, "malformed"), "%s", e);
	free(e);
	e = encode_error(m, "not-an-event");
	ck_assert_msg(strstr(e, "unknown event"), "%s", e);
	free(e);
	e = encode_error(m, "nvidia_ucf_pmu_0/event=1,,src_rem=1/");
	ck_assert_msg(strstr(e, "empty term"), "%s", e);
	free(e);
	machine_free(m);
	/* a bad term inside a driver's alias names the alias it came from */
	char *root = tmp_dir();
	put_file(root, "sys/bus/event_source/devices/odd_pmu/type", "40\n");
	put_file(root, "sys/bus/event_source/devices/odd_pmu/format/event", "config:0-7\n");
	put_file(root, "sys/bus/event_source/devices/odd_pmu/events/odd", "event=0x1,nosuch=2\n");
	m = machine_discover(root);
	e = encode_error(m, "odd_pmu/odd,event=2/");
	ck_assert_msg(strstr(e, "odd_pmu/odd,event=2/ (event odd of odd_pmu is 'event=0x1,nosuch=2'): unknown term 'nosuch'"),
		      "%s", e);
	free(e);
	machine_free(m);
}
END_TEST

START_TEST(encode_hns3_config_alias)
{
	char *root = small_tree();
	struct machine *m = machine_discover(root);
	expect_encoding(m, "hns3_pmu_sicl_0/bw_ssu_rpu_time,global=1/",
			"type=31\tconfig=0x10002\tconfig1=0x10000000000000\tconfig2=0x0");
	expect_encoding(m, "hns3_pmu_sicl_0/config=0x1020F,tc=0xF/", "type=31\tconfig=0x1020f\tconfig1=0xf0\tconfig2=0x0");
	expect_encoding(m, "cpu_core/topdown-retiring/", "type=4\tconfig=0x8000\tconfig1=0x0\tconfig2=0x0");
	machine_free(m);
}
END_TEST

/* ---- formulae ---- */

static const char *const test_names[] = { "a", "b", "c", "mem_bytes_rd", "elapsed_ns" };

static int test_resolve(void *ctx, const char *name)
{
	(void)ctx;
	for (size_t i = 0; i < ARRAY_SIZE(test_names); i++)
		if (!strcmp(test_names[i], name))
			return (int)i;
	return -1;
}

static const char *test_known(void *ctx, int i)
{
	(void)ctx;
	return i >= 0 && (size_t)i < ARRAY_SIZE(test_names) ? test_names[i] : NULL;
}

static const struct expr_names names = { test_resolve, test_known, NULL };
static const double vars[] = { 6, 3, 0, 64e9, 2e9 };

static double eval(const char *text)
{
	char *err;
	int col;
	struct expr *e = expr_compile(text, &names, &err, &col);
	ck_assert_msg(e != NULL, "%s: %s at %d", text, err ? err : "", col);
	double v = expr_eval(e, vars);
	expr_free(e);
	return v;
}

START_TEST(expr_values)
{
	ck_assert(eval("1 + 2 * 3") == 7);
	ck_assert(eval("(1 + 2) * 3") == 9);
	ck_assert(eval("a - b - 1") == 2); /* left associative */
	ck_assert(eval("a / b / 2") == 1);
	ck_assert(eval("-a + 10") == 4);
	ck_assert(eval("--a") == 6);
	ck_assert(eval("0x10 + 1e3") == 1016);
	ck_assert(eval("2.5e-1 * 4") == 1);
	ck_assert(eval("mem_bytes_rd / elapsed_ns") == 32);
	ck_assert(eval("a > b ? 10 : 20") == 10);
	ck_assert(eval("a < b ? 10 : b == 3 ? 30 : 40") == 30);
	ck_assert(eval("a >= 6 && b <= 3") == 1);
	ck_assert(eval("c != 0 || !c") == 1);
	ck_assert(eval("min(a, b, 7)") == 3);
	ck_assert(eval("max(a, b)") == 6);
	ck_assert(eval("abs(b - a)") == 3);
	ck_assert(eval("sqrt(16) + floor(2.7)") == 6);
	ck_assert(isnan(eval("a / c")));          /* division by zero is "no value" */
	ck_assert(isnan(eval("1 + a / c * 0")));  /* and stays so */
	ck_assert(isnan(eval("a / c > 1 ? 1 : 2")));
	ck_assert(isnan(eval("max(a, a / c)")));
	ck_assert(eval("c > 0 ? a / c : 5") == 5); /* the branch not taken costs nothing */
	/* a variable or constant on the right of an operator is one fused instruction */
	ck_assert(eval("a + b") == 9 && eval("a - b") == 3 && eval("a * b") == 18 && eval("a / b") == 2);
	ck_assert(eval("a + 2") == 8 && eval("a - 2") == 4 && eval("a * 2") == 12 && eval("a / 2") == 3);
	ck_assert(eval("2 - a") == -4 && eval("12 / a") == 2 && eval("b - (a - b)") == 0);
	ck_assert(isnan(eval("a / 0")) && isnan(eval("b / c")) && isnan(eval("(a / c) + b")));
	ck_assert(eval("(a + b) * (a - b) / b") == 9);
	/* perf's MetricExpr forms (tools/perf/util/expr.y): "x if c else y" binds looser than
	 * every operator and chains to the right; d_ratio is 0 on a zero divisor */
	ck_assert(eval("a + 1 if a > b else b + 1") == 7);
	ck_assert(eval("a + 1 if a < b else b + 1") == 4);
	ck_assert(eval("1 if c else 2 if b else 3") == 2);
	ck_assert(eval("(10 if a > 100 else 20) * 2") == 40);
	ck_assert(eval("max(a if c else b, 1)") == 3);
	ck_assert(isnan(eval("1 if a / c else 2"))); /* a condition with no value */
	ck_assert(eval("a / c if c else 5") == 5);   /* the branch not chosen is not the value */
	ck_assert(eval("d_ratio(a, b)") == 2 && eval("d_ratio(a, c)") == 0);
	ck_assert(isnan(eval("d_ratio(a / c, b)")));
	char *err;
	int col;
	struct expr *e = expr_compile("a * b + a / b - 2 * b", &names, &err, &col);
	ck_assert_int_eq(expr_ninsns(e), 8); /* VAR MULV VAR DIVV ADD CONST MULV SUB, not 11 */
	ck_assert(expr_eval(e, vars) == 14);
	expr_free(e);
}
END_TEST

static void note_slot(void *ctx, int slot)
{
	char *out = ctx;
	out[strlen(out)] = (char)('a' + slot); /* slots 0..2 are a, b, c */
}

/* The variables text needs where c (slot 2) is the constant known_c (NAN: unknown), as
 * perf's expr.y finds a metric's ids: "ab" for a and b. */
static const char *needed(const char *text, double known_c)
{
	static char out[16];
	memset(out, 0, sizeof(out));
	char *err;
	int col;
	struct expr *e = expr_compile(text, &names, &err, &col);
	ck_assert_msg(e != NULL, "%s: %s", text, err ? err : "");
	double known[3] = { NAN, NAN, known_c };
	expr_foreach_needed(e, known, 3, note_slot, out);
	expr_free(e);
	return out;
}

START_TEST(expr_needed_as_perf_finds_ids)
{
	/* perf's if: a known condition needs the branch taken, an unknown one all three */
	ck_assert_str_eq(needed("a if c else b", 1), "a");
	ck_assert_str_eq(needed("a if c else b", 0), "b");
	ck_assert_str_eq(needed("a if c else b", NAN), "acb");
	ck_assert_str_eq(needed("a / (b if c > 0.5 else 1)", 0), "a");
	/* division by a known zero needs nothing; d_ratio(x, 0) is 0 and needs nothing */
	ck_assert_str_eq(needed("a + b / c", 0), "a");
	ck_assert_str_eq(needed("d_ratio(a, c) + b", 0), "b");
	ck_assert_str_eq(needed("d_ratio(a, c)", 2), "a");
	/* && and || (perf's & and |): a known side decides, or leaves the other */
	ck_assert_str_eq(needed("a > 1 && c", 0), "");
	ck_assert_str_eq(needed("a > 1 && c", 1), "a");
	ck_assert_str_eq(needed("c || b > 1", 1), "");
	ck_assert_str_eq(needed("c || b > 1", 0), "b");
	/* every other operation of a count is the union, each variable once */
	ck_assert_str_eq(needed("min(a, b, c) * a", NAN), "abc");
	ck_assert_str_eq(needed("0 * b + a * c", 1), "ba");
	/* pmutop's own ?: : every variable (perf has no such form) */
	ck_assert_str_eq(needed("c ? a : b", 1), "cab");
}
END_TEST

static void expect_error(const char *text, const char *needle, int col)
{
	char *err;
	int c;
	struct expr *e = expr_compile(text, &names, &err, &c);
	ck_assert_msg(e == NULL, "%s should not compile", text);
	ck_assert_msg(strstr(err, needle), "%s: got '%s', want '%s'", text, err, needle);
	ck_assert_msg(c == col, "%s: column %d, want %d (%s)", text, c, col, err);
	free(err);
}

START_TEST(expr_errors)
{
	expect_error("mem_byte_rd / elapsed_ns", "unknown event 'mem_byte_rd' (did you mean 'mem_bytes_rd'?)", 1);
	expect_error("a + zzzz", "unknown event or name 'zzzz'", 5);
	expect_error("a +", "ends where a value", 4);
	expect_error("(a + b", "expected ')'", 7);
	expect_error("a b", "unexpected 'b' after the end", 3);
	expect_error("a ? b", "expected ':'", 6);
	expect_error("frob(a)", "unknown function 'frob'", 1);
	expect_error("min(a)", "min() takes 2 or more arguments, not 1", 1);
	expect_error("abs(a, b)", "abs() takes 1 argument, not 2", 1);
	expect_error("12abc", "malformed number", 1);
	expect_error("a $ b", "unexpected '$'", 3);
	expect_error("", "ends where a value", 1);
	expect_error("a if b", "expected 'else' of 'if'", 7);
	expect_error("a if b else", "ends where a value", 12);
	expect_error("d_ratio(a)", "d_ratio() takes 2 arguments, not 1", 1);
}
END_TEST

START_TEST(expr_deep_nesting_refused)
{
	/* balanced, so only the nesting limit can refuse it: a stack of 100 pending sums */
	char text[800];
	size_t n = 0;
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "a+(");
	n += (size_t)snprintf(text + n, sizeof(text) - n, "1");
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, ")");
	char *err;
	int col;
	struct expr *e = expr_compile(text, &names, &err, &col);
	ck_assert(e == NULL);
	ck_assert_msg(strstr(err, "nests too deeply"), "%s", err);
	free(err);
	/* 80 000 parentheses: an error with its column, not a crash of the C stack */
	size_t big = 80000;
	char *deep = xmalloc(2 * big + 2);
	memset(deep, '(', big);
	deep[big] = '1';
	memset(deep + big + 1, ')', big);
	deep[2 * big + 1] = '\0';
	e = expr_compile(deep, &names, &err, &col);
	ck_assert(e == NULL);
	ck_assert_msg(strstr(err, "nests too deeply"), "%s", err);
	ck_assert_int_eq(col, 65); /* where the 65th level opens */
	free(err);
	/* unary operators recurse too */
	memset(deep, '-', big);
	deep[big] = '1';
	deep[big + 1] = '\0';
	ck_assert(expr_compile(deep, &names, &err, &col) == NULL);
	ck_assert_msg(strstr(err, "nests too deeply"), "%s", err);
	free(err);
	free(deep);
	/* and so do conditionals, right-nested: 'a ? b : c ? d : ...' */
	big = 15000;
	char *cond = xmalloc(4 * big + 2);
	n = 0;
	for (size_t i = 0; i < big; i++)
		n += (size_t)sprintf(cond + n, "1?");
	cond[n++] = '1';
	for (size_t i = 0; i < big; i++)
		n += (size_t)sprintf(cond + n, ":1");
	cond[n] = '\0';
	ck_assert(expr_compile(cond, &names, &err, &col) == NULL);
	ck_assert_msg(strstr(err, "nests too deeply"), "%s", err);
	free(err);
	free(cond);
	/* 60 levels are fine, and evaluate */
	n = 0;
	for (int i = 0; i < 60; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "(");
	n += (size_t)snprintf(text + n, sizeof(text) - n, "2");
	for (int i = 0; i < 60; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, ")");
	e = expr_compile(text, &names, &err, &col);
	ck_assert_msg(e != NULL, "%s", err);
	ck_assert_double_eq(expr_eval(e, vars), 2.0);
	expr_free(e);
}
END_TEST

/* Label values in the exposition: backslash, double quote and newline escaped, as the
 * text format wants; anything else as it is. */
/* A model's points (a CPU's rates, with what does not vary with the CPU shared per socket
 * and what does not vary with t evaluated once) give what evaluating every rate of the
 * section afresh gives, in any order of CPUs and times; the oracle is the formulae
 * written out in C. */
static double point_oracle(const char *rate, double t, int socket, int cpu)
{
	double lane = cpu - 4 * floor(cpu / 4.0), m = t - 10 * floor(t / 10);
	double busy = 100 * (1 + lane), wave = 1 + m + socket;
	if (!strcmp(rate, "busy"))
		return busy;
	if (!strcmp(rate, "wave"))
		return wave;
	return busy * wave; /* mix */
}

START_TEST(sim_points_agree_with_the_formulae)
{
	char *dir = tmp_dir();
	put_file(dir, "model.ini",
		 "[pmu core*]\n"
		 "rate.lane = cpu - 4 * floor(cpu / 4)\n"
		 "rate.m = t - 10 * floor(t / 10)\n"
		 "rate.busy = 100 * (1 + lane)\n"
		 "rate.wave = 1 + m + socket\n"
		 "rate.mix = busy * wave\n");
	char *path = xasprintf("%s/model.ini", dir);
	struct sim_model *m = sim_model_load(path);
	ck_assert_ptr_nonnull(m);
	struct pmu core0 = { .name = (char *)"core0" };
	const struct sim_section *sec = sim_model_section(m, &core0);
	ck_assert_ptr_nonnull(sec);
	ck_assert(sim_section_reads_cpu(sec));
	struct sim_point pts[2][6];
	for (int socket = 0; socket < 2; socket++)
		for (int c = 0; c < 6; c++)
			sim_point_init(&pts[socket][c], sec, socket, 0, socket * 6 + c);
	const char *rates[] = { "busy", "wave", "mix" };
	const double times[] = { 1.5, 1.5, 2.25, 13.0, 2.25 };
	for (int i = 0; i < 5; i++)
		for (int k = 0; k < 3; k++)
			for (int c = 5; c >= 0; c--) /* CPUs in turn, as a core PMU's counters are read */
				for (int socket = 0; socket < 2; socket++) {
					int cpu = socket * 6 + c, idx = sim_rate_index(sec, rates[k]);
					double want = point_oracle(rates[k], times[i], socket, cpu);
					ck_assert_double_eq_tol(sim_point_rate(&pts[socket][c], idx, times[i]), want, 1e-9);
					ck_assert_double_eq_tol(sim_rate(sec, idx, rates[k], times[i], socket, 0, cpu), want, 1e-9);
				}
	for (int socket = 0; socket < 2; socket++)
		for (int c = 0; c < 6; c++)
			sim_point_release(&pts[socket][c]);
	sim_model_free(m);
	free(path);
}
END_TEST

START_TEST(prom_label_escapes)
{
	char buf[256] = "";
	prom_label(buf, sizeof(buf), "label", "Socket \"0\" \\ edge\nline");
	ck_assert_str_eq(buf, "label=\"Socket \\\"0\\\" \\\\ edge\\nline\"");
	prom_label(buf, sizeof(buf), "chip", "x");
	ck_assert_str_eq(buf, "label=\"Socket \\\"0\\\" \\\\ edge\\nline\",chip=\"x\"");
	char name[64];
	prom_metric_name(name, sizeof(name), "tile", "HNF_REQUESTS", "", true);
	ck_assert_str_eq(name, "pmutop_tile_hnf_requests_total");
	prom_metric_name(name, sizeof(name), "host.power_w", NULL, "watts", false);
	ck_assert_str_eq(name, "pmutop_host_power_watts");
	prom_metric_name(name, sizeof(name), "nic.ssu_rpu.pps", NULL, "per_second", false);
	ck_assert_str_eq(name, "pmutop_nic_ssu_rpu_packets_per_second");
	prom_metric_name(name, sizeof(name), "bf.pcie.in_bytes", NULL, "bytes_per_second", false);
	ck_assert_str_eq(name, "pmutop_bf_pcie_in_bytes_per_second");
	/* event names' words promtool takes for units (MS: the microcode sequencer, M: the
	 * memory controller) joined to the word before, so no "_ms_" or "_m_" is left */
	prom_metric_name(name, sizeof(name), "core", "UOPS_RETIRED.MS__cmask_1_edge_1", "", true);
	ck_assert_str_eq(name, "pmutop_core_uops_retiredms_cmask_1_edge_1_total");
	prom_metric_name(name, sizeof(name), "imc", "UNC_M_CAS_COUNT.RD", "", true);
	ck_assert_str_eq(name, "pmutop_imc_uncm_cas_count_rd_total");
	/* perf's data volumes in MiB (AMD's data fabric) are exported in bytes */
	struct prom_unit u;
	prom_unit_of("MiB", &u);
	ck_assert_str_eq(u.suffix, "bytes");
	ck_assert_double_eq(u.factor, 1048576.0);
	/* values as printf's %.17g writes them, counts by hand */
	double vals[] = { 0, 1, -5, 123456789012345.0, 9007199254740991.0, 9007199254740992.0, 1e16, 0.5, 1.0 / 3,
			  2.5e-9, 6.02e23 };
	srand(7);
	for (size_t i = 0; i < 2000; i++) {
		double v = i < sizeof(vals) / sizeof(vals[0]) ? vals[i] : (double)((uint64_t)rand() * (uint64_t)rand() % 100000000000000ull);
		char got[40], want[40];
		prom_value(got, sizeof(got), v);
		snprintf(want, sizeof(want), "%.17g", v);
		if (strcmp(got, want))
			ck_abort_msg("%s, printf says %s", got, want);
	}
}
END_TEST

/* Warnings: control characters from files are shown escaped, and the same warning for
 * every CPU is said once with a count. */
START_TEST(diag_escapes_and_says_once)
{
	diag_clear();
	diag_warn("profile %s: bad", "x\033[2Jy");
	ck_assert_str_eq(diag_message(0, NULL), "profile x\\x1b[2Jy: bad");
	for (int cpu = 0; cpu < 24; cpu++)
		diag_warn("/sys/devices/cpu%d/x: malformed", cpu);
	diag_warn("something else");
	ck_assert_int_eq(diag_count(), 3);
	ck_assert_str_eq(diag_message(1, NULL), "/sys/devices/cpu0/x: malformed");
	ck_assert_int_eq(diag_repeats(1), 23);
	ck_assert_int_eq(diag_repeats(2), 0);
	diag_clear();
}
END_TEST

/* A PMU whose type file cannot be read is not called missing. Root reads any file, so
 * as root the test drops to nobody (Check runs each test in a process of its own). */
START_TEST(unreadable_type_file)
{
	char *root = tmp_dir();
	put_file(root, "sys/bus/event_source/devices/p/type", "9\n");
	char *cmd = xasprintf("chmod -R a+rX %s && chmod 0 %s/sys/bus/event_source/devices/p/type", root, root);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	if (geteuid() == 0) {
		ck_assert_int_eq(setgid(65534), 0);
		ck_assert_int_eq(setuid(65534), 0);
	}
	diag_clear();
	struct machine *m = machine_discover(root);
	bool said = false;
	for (int i = 0; i < diag_count(); i++)
		said |= strstr(diag_message(i, NULL), "p/type: cannot be read (Permission denied)") != NULL;
	ck_assert_msg(said, "%s", diag_count() ? diag_message(0, NULL) : "(no warning)");
	ck_assert_int_eq(m->pmus[0].type, -1);
	machine_free(m);
}
END_TEST

/* ---- CPU utilisation from /proc/stat ---- */

START_TEST(procstat_utilisation)
{
	char *root = tmp_dir();
	put_file(root, "proc/stat", "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n"
				    "cpu3 50 0 50 400 0 0 0 0 0 0\nintr 1 2 3\n");
	struct procstat *ps = procstat_new(root);
	ck_assert(procstat_update(ps));
	ck_assert(isnan(ps->util_all)); /* one reading is no interval */
	/* +300 busy (user, system, irq), +100 idle (50 idle + 50 iowait): 75 % */
	put_file(root, "proc/stat", "cpu  250 0 200 850 50 50 0 0 0 0\ncpu0 150 0 100 400 0 0 0 0 0 0\n"
				    "cpu3 100 0 100 450 50 0 0 0 0 0\n"); /* +100 busy, +100 idle */
	ck_assert(procstat_update(ps));
	ck_assert_double_eq_tol(ps->util_all, 75.0, 1e-9);
	ck_assert_int_eq(ps->ncpus, 4); /* indexed by CPU number: 0..3 */
	ck_assert_double_eq_tol(ps->util_cpu[0], 100.0, 1e-9);
	ck_assert(isnan(ps->util_cpu[1]));
	ck_assert_double_eq_tol(ps->util_cpu[3], 50.0, 1e-9);
	/* CPU 0 goes offline: its row disappears; CPU 3 keeps its own history, not CPU 0's */
	put_file(root, "proc/stat", "cpu  300 0 250 900 50 50 0 0 0 0\n"
				    "cpu3 125 0 125 500 50 0 0 0 0 0\n"); /* +50 busy, +50 idle */
	ck_assert(procstat_update(ps));
	ck_assert(isnan(ps->util_cpu[0]));
	ck_assert_double_eq_tol(ps->util_cpu[3], 50.0, 1e-9);
	procstat_free(ps);
	ps = procstat_new("/nonexistent");
	ck_assert(!procstat_update(ps));
	procstat_free(ps);
}
END_TEST

/* ---- RC numbers from the NVIDIA DVSEC ---- */

START_TEST(dvsec_walk)
{
	unsigned char cfg[4096] = { 0 };
	/* AER at 0x100 -> a Vendor DVSEC of another vendor at 0x148 -> NVIDIA RC map at 0x200 */
	cfg[0x100] = 0x01, cfg[0x102] = 0x81, cfg[0x103] = 0x14;
	cfg[0x148] = 0x23, cfg[0x14a] = 0x01, cfg[0x14b] = 0x20;
	cfg[0x14c] = 0x86, cfg[0x14d] = 0x80, cfg[0x150] = 4; /* Intel's, ID 4: not ours */
	cfg[0x200] = 0x23, cfg[0x202] = 0x01;
	cfg[0x204] = 0xde, cfg[0x205] = 0x10, cfg[0x208] = 4;
	cfg[0x20c] = 0xa0, cfg[0x20d] = 0x0a, cfg[0x20e] = 2, cfg[0x20f] = 1, cfg[0x210] = 1;
	ck_assert_int_eq(pci_find_nvidia_dvsec(cfg, sizeof(cfg)), 0x200);
	ck_assert_int_eq(pci_find_nvidia_dvsec(cfg, 256), -1); /* not root: no extended space */
	cfg[0x14b] = 0x10; /* a "next" pointing backwards would loop */
	ck_assert_int_eq(pci_find_nvidia_dvsec(cfg, sizeof(cfg)), -1);
}
END_TEST

START_TEST(rc_map_of_the_demo_tree)
{
	struct pci_map *m = pci_map_read(demo_tegra410());
	ck_assert_int_eq(m->n, 2 * 11); /* per socket: RC1 four root ports, RC4 three, four RCs one */
	char label[32];
	pci_rc_label(m, 0, 3, label, sizeof(label));
	ck_assert_str_eq(label, "RC3 (0004:00)");
	pci_rc_label(m, 1, 1, label, sizeof(label));
	ck_assert_str_eq(label, "RC1 (000a:80)");
	pci_rc_label(m, 1, 9, label, sizeof(label));
	ck_assert_str_eq(label, "RC9"); /* unknown: the number only */
	bool nvme = false;
	for (int i = 0; i < m->n; i++)
		for (int d = 0; d < m->ports[i].ndevices; d++)
			nvme |= m->ports[i].rc == 2 && strstr(m->ports[i].devices[d], "NVMe controller") != NULL;
	ck_assert(nvme);
	pci_map_free(m);
	m = pci_map_read("/nonexistent");
	ck_assert_int_eq(m->n, 0);
	pci_map_free(m);
}
END_TEST

/* The CPU model as perf's get_cpuid_str writes it, from each place the kernel offers it,
 * and perf's rule that a mapfile pattern may name it without its stepping. */
START_TEST(cpuid_from_each_source)
{
	const char *from;
	char *dir = tmp_dir();
	ck_assert_ptr_null(cpuid_read(dir, &from)); /* a fake root says nothing: no guess */
	ck_assert_ptr_null(from);
	put_file(dir, "sys/devices/system/cpu/modalias", "cpu:type:x86,ven0002fam0019mod0011:feature:,0000\n");
	char *id = cpuid_read(dir, &from);
	ck_assert_str_eq(id, "AuthenticAMD-25-11");
	ck_assert_str_eq(from, "the CPU modalias");
	free(id);
	/* /proc/cpuinfo wins (it has the stepping); "model name" is not "model" */
	put_file(dir, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
				      "model name\t: Intel(R) Xeon(R) Gold 6230\nstepping\t: 7\n\nprocessor\t: 1\nmodel\t\t: 1\n");
	id = cpuid_read(dir, &from);
	ck_assert_str_eq(id, "GenuineIntel-6-55-7");
	ck_assert_str_eq(from, "proc/cpuinfo");
	ck_assert(cpuid_glob_matches("GenuineIntel-6-55-[56789ABCDEF]", id));  /* cascadelakex */
	ck_assert(!cpuid_glob_matches("GenuineIntel-6-55-[01234]", id));       /* not skylakex */
	ck_assert(cpuid_glob_matches("GenuineIntel-6-55", id));                /* without stepping */
	ck_assert(!cpuid_glob_matches("GenuineIntel-6-5", id));
	ck_assert(!cpuid_glob_matches("GenuineIntel-6-55-[01234]", "GenuineIntel-6-55"));
	free(id);
	put_file(dir, "proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\n");
	id = cpuid_read(dir, &from); /* an Arm cpuinfo: the modalias then */
	ck_assert_str_eq(id, "AuthenticAMD-25-11");
	free(id); /* dir: testutil's cleanup */
}
END_TEST

/* perf's mapfile.csv chooses a CPU's directory, the first line whose expression names it
 * by cpuid_regex_matches' rule: each real CPU gets the directory perf documents for it (a
 * Genoa is amdzen4, though amdzen3's expression matches the start of its cpuid; a Milan
 * amdzen3, though amdzen4's names it too, below), and a cpuid without a stepping gets
 * none of the directories whose expressions need one. */
START_TEST(cpuid_regex_picks_perfs_directory)
{
	const char *dir = getenv("PERF_EVENTS_DIR");
	char *path = xasprintf("%s/arch/x86/mapfile.csv", dir ? dir : "");
	char *text = read_text_file(path, 1 << 20);
	free(path);
	if (!text) {
		fprintf(stderr, "SKIP: perf's mapfile.csv not found (PERF_EVENTS_DIR)\n");
		return;
	}
	static const struct { const char *cpuid, *dir; } cpus[] = {
		{ "AuthenticAMD-25-11-1", "amdzen4" }, { "AuthenticAMD-25-1-1", "amdzen3" },
		{ "AuthenticAMD-26-2-0", "amdzen5" }, { "GenuineIntel-6-55-4", "skylakex" },
		{ "GenuineIntel-6-55-7", "cascadelakex" }, { "GenuineIntel-6-8F-8", "sapphirerapids" },
		{ "GenuineIntel-6-8F", "sapphirerapids" }, { "GenuineIntel-6-AD-1", "graniterapids" },
		{ "GenuineIntel-6-55", "" }, /* the modalias has no stepping: neither Skylake-SP nor Cascade Lake */
	};
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		char found[64] = "";
		int n = 0;
		char *save = NULL, *copy = xstrdup(text);
		for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *c3 = c2 ? strchr(c2 + 1, ',') : NULL;
			if (line[0] == '#' || !c3 || strncmp(c3 + 1, "core", 4))
				continue;
			*c1 = *c3 = '\0';
			if (cpuid_regex_matches(line, cpus[i].cpuid) && !n++)
				str_copy(found, sizeof(found), c2 + 1);
		}
		free(copy);
		ck_assert_msg(!strcmp(found, cpus[i].dir), "%s: '%s' first of %d, want '%s'", cpus[i].cpuid, found, n,
			      cpus[i].dir);
	}
	free(text);
}
END_TEST

/* One grammar for durations and moments (base/timetext.h); what it reads is what a
 * person meant, checked against mktime's own arithmetic, and each refusal says why. */
START_TEST(time_grammar)
{
	static const struct { const char *text; double sec; } good[] = {
		{ "90s", 90 }, { "90", 90 }, { "5m", 300 }, { "1.5m", 90 }, { "1h30m", 5400 }, { "9m59s", 599 },
		{ "2d", 172800 }, { "250ms", 0.25 }, { "0s", 0 }, { "1d2h3m4s", 93784 },
	};
	char why[256];
	uint64_t ns;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_msg(duration_parse(good[i].text, &ns, why, sizeof(why)), "%s: %s", good[i].text, why);
		ck_assert_msg(ns == (uint64_t)(good[i].sec * 1e9 + 0.5), "%s: %llu", good[i].text, (unsigned long long)ns);
	}
	static const char *const bad[] = { "", "5x", "m5", "1e3", "inf", "nan", "0x10", "5m1h", "1s1s", "-5s", "1..5s",
					   "2000000000s", "9999999999999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ck_assert_msg(!duration_parse(bad[i], &ns, why, sizeof(why)), "%s accepted", bad[i]);
		ck_assert_msg(why[0], "%s: refused without a reason", bad[i]);
	}
	/* a moment on the reference's day, against mktime's own */
	time_t now = 1764151670; /* 2025-11-26, some time of day */
	struct tm tm;
	localtime_r(&now, &tm);
	tm.tm_hour = 10, tm.tm_min = 47, tm.tm_sec = 50, tm.tm_isdst = -1;
	uint64_t want = (uint64_t)mktime(&tm) * 1000000000ull, wall;
	struct moment_ref ref = { .day_ns = (uint64_t)now * 1000000000ull, .plus_ns = (uint64_t)now * 1000000000ull };
	ck_assert(moment_parse("10:47:50", &ref, &wall, why, sizeof(why)) && wall == want);
	ck_assert(moment_parse("+9m59s", &ref, &wall, why, sizeof(why)) && wall == ref.plus_ns + 599000000000ull);
	ck_assert(moment_parse("@1764151670", &ref, &wall, why, sizeof(why)) && wall == ref.plus_ns);
	ck_assert(!moment_parse("-90s", &ref, &wall, why, sizeof(why))); /* only where allowed */
	ref.minus = true;
	ck_assert(moment_parse("-90s", &ref, &wall, why, sizeof(why)) && wall == ref.plus_ns - 90000000000ull);
	static const char *const badm[] = { "10:50:60", "24:00", "1:5", "10:5x", "@1e30", "@inf", "@-5", "@99999999999999",
					    "2026-02-30T10:00:00", "2026-13-01T00:00:00", "2026-11-24 10:47:50", "+", "" };
	for (size_t i = 0; i < sizeof(badm) / sizeof(badm[0]); i++) {
		why[0] = '\0';
		ck_assert_msg(!moment_parse(badm[i], &ref, &wall, why, sizeof(why)), "%s accepted", badm[i]);
		ck_assert_msg(strstr(why, badm[i]) || !badm[i][0] || badm[i][0] == '+', "%s: '%s' does not say what it read",
			      badm[i], why);
	}
}
END_TEST

static const char *word_at(const void *list, int i)
{
	return ((const char *const *)list)[i];
}

static int scan_for(char *const *words, int n, const char *name, int (*cmp)(const char *, const char *))
{
	for (int i = 0; i < n; i++)
		if (!cmp(words[i], name))
			return i;
	return -1;
}

/* The index answers what a scan from the start answers: the first of equal words, in
 * either case where asked, before it sorts (its first finds) and after. */
START_TEST(name_index_answers_as_a_scan)
{
	enum { N = 200 };
	char *words[N];
	for (int i = 0; i < N; i++) /* duplicates (i % 150) and case variants (odd i upper) */
		words[i] = xasprintf(i % 2 ? "Metric_%d" : "metric_%d", i % 150);
	int (*cmps[2])(const char *, const char *) = { strcmp, strcasecmp };
	for (int c = 0; c < 2; c++) {
		struct name_index ix;
		name_index_init(&ix, words, N, word_at, cmps[c]);
		for (int q = 0; q < 2 * N + 20; q++) {
			char *name = q < N ? xstrdup(words[q]) : q < 2 * N ? xasprintf("METRIC_%d", q % 150)
									  : xasprintf("metric_%d", 1000 + q);
			ck_assert_int_eq(name_index_find(&ix, name), scan_for(words, N, name, cmps[c]));
			free(name);
		}
		ck_assert_ptr_nonnull(ix.sorted); /* the later finds went through the sorted pairs */
		name_index_free(&ix);
	}
	struct name_index few; /* a short list is only scanned */
	name_index_init(&few, words, 10, word_at, strcmp);
	for (int q = 0; q < 30; q++)
		ck_assert_int_eq(name_index_find(&few, words[q % 10]), scan_for(words, 10, words[q % 10], strcmp));
	ck_assert_ptr_null(few.sorted);
	name_index_free(&few);
	for (int i = 0; i < N; i++)
		free(words[i]);
}
END_TEST

/* One compiled expression per pattern, matching as regcomp's; a bad one is NULL each time. */
START_TEST(regex_memo_compiles_once)
{
	const regex_t *a = regex_memo("GenuineIntel-6-(8F|CF)");
	ck_assert_ptr_nonnull(a);
	for (int i = 0; i < 100; i++) { /* enough others to grow the table under it */
		char *p = xasprintf("AuthenticAMD-25-[%d]", i);
		ck_assert_ptr_nonnull(regex_memo(p));
		free(p);
	}
	char *same = xstrdup("GenuineIntel-6-(8F|CF)");
	ck_assert_ptr_eq(regex_memo(same), a);
	free(same);
	ck_assert_int_eq(regexec(a, "GenuineIntel-6-CF-2", 0, NULL, 0), 0);
	ck_assert_int_ne(regexec(a, "GenuineIntel-6-8E", 0, NULL, 0), 0);
	ck_assert_ptr_null(regex_memo("GenuineIntel-6-(8F"));
	ck_assert_ptr_null(regex_memo("GenuineIntel-6-(8F"));
}
END_TEST

/* The guard counts every repetition glibc makes: "{,n}" is glibc's {0,n} (fuzz_regex found
 * `555{,5555}`, 245 MB to compile and match, passed as a plain brace); "{5}" and "{2,3}"
 * pass; a brace that is no repetition is a character. */
START_TEST(regex_guard_counts_every_bound)
{
	ck_assert_str_eq(regex_refusal("555{,5555}"), "a repetition count over 255");
	ck_assert_str_eq(regex_refusal("(a{,200}){,200}"), "more than 64 optional copies (nested counts multiply)");
	ck_assert_ptr_null(regex_refusal("a{,3}b{5}c{2,3}"));
	ck_assert_ptr_null(regex_refusal("x{y}"));
	/* every branch is a node: fuzz_regex's hour found forty empty ones in a group repeated
	 * 6 x 3 x 3 x 2 times (320 MB to compile and match) */
	ck_assert_ptr_nonnull(regex_refusal("((((((((()(()))())())((||||||||||||||||||}|||||||||||||||||||||()))))))){6}{3}{3}{2}"));
	ck_assert_ptr_null(regex_refusal("GenuineIntel-6-(97|9A|B7|BA|BF)"));
	/* a repeated group that can match nothing: CI's fuzz_regex (3 s) found one that glibc
	 * compiled for over 20 minutes, ((()*)(||...)){6} 20 s already; (a*)+ the classic */
	const char *exp = "a repetition of something that can match nothing (compiling it is exponential)";
	ck_assert_str_eq(regex_refusal("((((((((()(()))*))())((||||||||||||(||}||||||||||||||||@||||()))))))){6}z4}{3}{2}"), exp);
	ck_assert_str_eq(regex_refusal("((()*)(||||||||)){6}"), exp);
	ck_assert_str_eq(regex_refusal("(a*)+"), exp);
	ck_assert_str_eq(regex_refusal("(a|){2}"), exp);
	ck_assert_str_eq(regex_refusal("(b{0,3})*"), exp);
	/* an anchor matches nothing too: CI's fuzz_regex (session 31) found a group of anchors
	 * and empty groups under {6}{3}{3}{2} that took glibc's regcomp past 512 MB */
	ck_assert_str_eq(regex_refusal("((((((((($(()))())()))))))){6}{3}{3}{2}"), exp);
	ck_assert_str_eq(regex_refusal("($){2}"), exp);
	ck_assert_str_eq(regex_refusal("(^|$)+"), exp);
	ck_assert_ptr_null(regex_refusal("(^a)+"));
	ck_assert_ptr_null(regex_refusal("(x$){2}"));
	ck_assert_ptr_null(regex_refusal("(a|b)?c(d*e)+"));
	ck_assert_ptr_null(regex_refusal("AuthenticAMD-25-([1][0-9A-F]|[6][0-9A-F])"));
	ck_assert_ptr_nonnull(regex_memo("a{,3}"));
	ck_assert_int_eq(regexec(regex_memo("^a{,3}$"), "aaa", 0, NULL, 0), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core");
	TCase *t = tcase_create("core");
	tcase_add_test(t, cpulist_forms);
	tcase_add_test(t, regex_guard_counts_every_bound);
	tcase_add_test(t, format_ranges);
	tcase_add_test(t, discover_tree);
	tcase_add_test(t, discover_missing_root);
	add_test_if(t, heap_steps_populate, populate_honoured(),
		    "MADV_POPULATE_WRITE does not make pages resident here (an emulator: qemu-user ignores it)");
	tcase_add_test(t, discover_packages);
	tcase_add_test(t, cpuid_from_each_source);
	tcase_add_test(t, time_grammar);
	tcase_add_test(t, cpuid_regex_picks_perfs_directory);
	tcase_add_test(t, encode_aliases_and_filters);
	tcase_add_test(t, encode_memo_agrees);
	tcase_add_test(t, encode_errors);
	tcase_add_test(t, encode_hns3_config_alias);
	tcase_add_test(t, expr_values);
	tcase_add_test(t, expr_needed_as_perf_finds_ids);
	tcase_add_test(t, expr_errors);
	tcase_add_test(t, expr_deep_nesting_refused);
	tcase_add_test(t, procstat_utilisation);
	tcase_add_test(t, diag_escapes_and_says_once);
	tcase_add_test(t, unreadable_type_file);
	tcase_add_test(t, dvsec_walk);
	tcase_add_test(t, rc_map_of_the_demo_tree);
	tcase_add_test(t, prom_label_escapes);
	tcase_add_test(t, name_index_answers_as_a_scan);
	tcase_add_test(t, regex_memo_compiles_once);
	tcase_add_test(t, sim_points_agree_with_the_formulae);
	suite_add_tcase(s, t);
	/* 150 000 printf calls: seconds under valgrind */
	TCase *numbers = tcase_create("numbers");
	tcase_set_timeout(numbers, 120);
	tcase_add_test(numbers, format_g10_is_printf);
	tcase_add_test(numbers, format_int_is_printf);
	tcase_add_test(numbers, path_join_puts_one_slash);
	tcase_add_test(numbers, textbuf_is_printf);
	tcase_add_test(numbers, utc_ms_is_strftime);
	suite_add_tcase(s, numbers);
	return run_suite(s);
}
