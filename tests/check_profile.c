/* SPDX-License-Identifier: GPL-2.0-only */
/* check_profile.c - the profile loader: good files, every kind of bad file, the bundled
 * profiles. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/expr.h"
#include "base/textbuf.h"
#include "profile/catalog_subset.h"
#include "profile/profile.h"
#include "testutil.h"
#include "base/util.h"

static const char *const good =
	"[profile]\n"
	"name = t\n"
	"requires = nvidia_ucf_pmu_*\n"
	"\n"
	"[group ucf]\n"
	"pmu = nvidia_ucf_pmu_{socket}\n"
	"instance = socket{socket}\n"
	"events = mem_bytes_rd cycles topdown-retiring\n"
	"optional = slc_bytes_rd\n"
	"event.raw = event=0x123\n"
	"attrs = hw_clk_freq caps/slots\n"
	"filter.src_loc_cpu = flag default=1 title=Local CPU\n"
	"filter.src_rp_mask = mask\n"
	"filter.src_bdf = bdf enable=src_bdf_en\n"
	"exclusive = src_rp_mask src_bdf\n"
	"\n"
	"[metric ucf.bw]\n"
	"formula = mem_bytes_rd / elapsed_ns + 0 * topdown_retiring * caps.slots * hw_clk_freq\n"
	"unit = GB/s\n"
	"max = 400\n"
	"\n"
	"[pane p]\n"
	"style = bars\n"
	"metrics = ucf.bw\n";

static char *write_profile(const char *text)
{
	char *dir = tmp_dir();
	put_file(dir, "t.ini", text);
	char *path = xasprintf("%s/t.ini", dir);
	return path;
}

START_TEST(load_good)
{
	char *path = write_profile(good);
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	ck_assert_msg(p != NULL, "errors: %d (%s)", nerr, diag_count() ? diag_message(0, NULL) : "");
	ck_assert_str_eq(p->name, "t");
	ck_assert_int_eq(p->ngroups, 1);
	const struct prof_group *g = &p->groups[0];
	ck_assert_int_eq(g->nevents, 5);
	ck_assert_str_eq(g->events[2].name, "topdown_retiring"); /* '-' becomes '_' */
	ck_assert_str_eq(g->events[2].terms, "topdown-retiring");
	ck_assert(g->events[3].optional);
	ck_assert_str_eq(g->events[4].terms, "event=0x123");
	ck_assert_int_eq(g->nfilters, 3);
	ck_assert(g->filters[0].has_default && g->filters[0].def == 1);
	ck_assert_str_eq(g->filters[0].title, "Local CPU");
	ck_assert_str_eq(g->filters[2].enable, "src_bdf_en");
	ck_assert_int_eq(g->nexclusive, 1);
	ck_assert_int_eq(p->nmetrics, 1);
	ck_assert(p->metrics[0].max == 400);
	ck_assert_ptr_nonnull(p->metrics[0].forms[0].expr);
	ck_assert_str_eq(p->panes[0].style, "bars");
	profile_free(p);
	free(path);
}
END_TEST

/* Load text; expect failure and a diagnostic containing want. */
static void expect_profile_error(const char *text, const char *want)
{
	char *path = write_profile(text);
	diag_clear();
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	ck_assert_msg(p == NULL, "profile should have been refused (want %s)", want);
	ck_assert_int_ge(nerr, 1);
	bool found = false;
	char *full = xasprintf("%s:%s", path, want);
	for (int i = 0; i < diag_count(); i++)
		found |= strstr(diag_message(i, NULL), full) != NULL;
	ck_assert_msg(found, "no diagnostic '%s'; first was '%s'", full, diag_count() ? diag_message(0, NULL) : "(none)");
	free(full);
	free(path);
}

START_TEST(errors_name_file_line_column)
{
	/* line 18 is the formula; the value starts at column 11, the bad name 0 chars in */
	char *bad = xstrdup(good);
	char *f = strstr(bad, "formula = mem_bytes_rd");
	memcpy(f + 10, "mem_byte_rd ", 12);
	expect_profile_error(bad, "18:11: unknown event 'mem_byte_rd' (did you mean 'mem_bytes_rd'?)");
	free(bad);
	expect_profile_error("[group g]\npmu = x\nevents = a b\n[metric g.m]\nformula = a +  (b * 2\n",
			     "5:22: expected ')'");
	expect_profile_error("[profile]\nname = x\nbogus = 1\n", "3: unknown key 'bogus' in [profile]");
	expect_profile_error("[group g]\npmu = x\nevents = a\n[group g]\n", "4: [group g] defined twice (first on line 1)");
	expect_profile_error("[group g]\npmu = x\nevents = a\nfilter.q = wide\n", "4:12: filter 'q': type must be");
	expect_profile_error("[group g]\npmu = x\nevents = a\nfilter.q = mask default=zz\n", "4: filter 'q': default 'zz'");
	expect_profile_error("[group g]\npmu = x\nevents = a a\n", "3: event 'a' listed twice");
	expect_profile_error("[group g]\nevents = a\n", "1: [group g] has no 'pmu ='");
	expect_profile_error("[metric nogroup.m]\nformula = 1\n", "2: [metric nogroup.m]: no group 'nogroup'");
	expect_profile_error("[group g]\npmu = x\nevents = a\n[metric g.m]\nunit = x\n", "4: [metric g.m] has no formula");
	expect_profile_error("[frob]\n", "1: section [frob] needs a name");
	expect_profile_error("[widget w]\n", "1: unknown section [widget]");
	expect_profile_error("[group g]\npmu = x\nevents = a\nthis line has no equals\n", "4: syntax error");
	expect_profile_error("[group g]\npmu = x\nevents = a\nexclusive = a q\n", "1: [group g]: exclusive names 'a'");
	expect_profile_error("[pane p]\nmetrics = nope\n", "2: [pane p]: no metric 'nope'");
	expect_profile_error("[group g]\npmu = x\nevents = a\nleader = b\n", "1: [group g]: leader 'b'");
	expect_profile_error("[group g]\npmu = x\nevents = a\nper = socket\n", "4:7: per must be");
	/* the keys of enum and per-event filters name what exists */
	expect_profile_error("[group g]\npmu = x\nevents = a\nfilter.q = int events=b\n",
			     "4: filter 'q': events= names 'b', which is not an event of [group g]");
	expect_profile_error("[group g]\npmu = x\nevents = a\nfilter.m = enum\nchoice.m.one = x=1 uses=p\n",
			     "5: choice 'one': uses= names 'p', which is not a filter of [group g]");
	expect_profile_error("[group g]\npmu = x\nevents = a\nfilter.m = enum\n", "4: [group g]: enum filter 'm' has no choice.m.NAME");
	expect_profile_error("[group g]\npmu = x\nevents = a\nfilter.q = int\nper_bit = q a\n",
			     "1: [group g]: per_bit wants a mask filter of the group first, not 'q'");
	expect_profile_error("[group g]\npmu = x\nevents = a\nchoice.m.one = x=1\n", "4: choice.m.one: no enum filter 'm'");
}
END_TEST

/* What inih alone gets wrong, made right on our side of it. */
START_TEST(reader_robustness)
{
	/* a UTF-8 byte order mark (editors on other systems write one) */
	char *path = write_profile("\xef\xbb\xbf[group g]\npmu = x\nevents = a\n[metric g.m]\nformula = a\n");
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	ck_assert_msg(p != NULL, "a BOM: %s", diag_count() ? diag_message(0, NULL) : "");
	ck_assert_int_eq(p->ngroups, 1);
	profile_free(p);
	free(path);
	/* an indented section header is a section, not the previous key's continuation */
	path = write_profile("[group g]\npmu = x\nevents = a\n  [metric g.m]\nformula = a\n");
	p = profile_load(path, &nerr);
	ck_assert_msg(p != NULL, "indented header: %s", diag_count() ? diag_message(0, NULL) : "");
	ck_assert_int_eq(p->nmetrics, 1);
	ck_assert_str_eq(p->groups[0].pmu_pattern, "x");
	ck_assert_str_eq(p->groups[0].events[0].terms, "a");
	profile_free(p);
	free(path);
	/* an option given twice: the last counts, nothing leaks (the fuzzer found it) */
	path = write_profile("[group g]\npmu = x\nevents = a b\n"
			     "filter.q = int events=a events=b accepts=x accepts=y enable=e enable=f default=1 default=2\n");
	p = profile_load(path, &nerr);
	ck_assert_msg(p != NULL, "repeated options: %s", diag_count() ? diag_message(0, NULL) : "");
	ck_assert_str_eq(p->groups[0].filters[0].events[0], "b");
	ck_assert_str_eq(p->groups[0].filters[0].enable, "f");
	ck_assert_uint_eq(p->groups[0].filters[0].def, 2);
	profile_free(p);
	free(path);
	/* a key longer than inih keeps is one error naming it, not a cut name */
	expect_profile_error("[group g]\npmu = x\nevents = a\nfilter.a_very_long_filter_name_that_goes_on_and_on_x = flag\n",
			     "4:1: key 'filter.a_very_long_f...' is 52 characters long; at most 49");
	/* a line over 64 KiB: one error with its line, not fragments */
	size_t big = 70000;
	char *text = xmalloc(big + 200);
	int n = snprintf(text, 200, "[group g]\npmu = x\nevents = a\n[metric g.m]\nformula = a");
	memset(text + n, ' ', big);
	strcpy(text + n + big, "+ a\nunit = x\n");
	diag_clear();
	path = write_profile(text);
	p = profile_load(path, &nerr);
	ck_assert(p == NULL);
	ck_assert_int_eq(nerr, 2); /* the long line, and so the metric has no formula */
	char *want = xasprintf("%s:5: line is 70014 bytes long; at most 65535", path);
	ck_assert_msg(diag_count() && strstr(diag_message(0, NULL), want), "%s", diag_count() ? diag_message(0, NULL) : "");
	free(want);
	free(text);
	free(path);
}
END_TEST

START_TEST(long_lines_are_not_split)
{
	/* inih splits lines over 200 characters unless told otherwise */
	char *text = xstrdup("[group g]\npmu = x\nevents = a\n[metric g.m]\nformula = a");
	for (int i = 0; i < 300; i++) {
		char *t = xasprintf("%s + a", text);
		free(text);
		text = t;
	}
	char *t = xasprintf("%s\nunit = x\n", text);
	char *path = write_profile(t);
	int nerr;
	struct profile *p = profile_load(path, &nerr);
	ck_assert_msg(p != NULL, "a 1200-character formula must load");
	double v = 2;
	ck_assert(expr_eval(p->metrics[0].forms[0].expr, &v) == 602);
	profile_free(p);
	free(t);
	free(text);
	free(path);
}
END_TEST

/* Start-up reads only the [profile] section of a profile that cannot apply: that read
 * stops at the next section, says nothing, and gives up (NULL: read it whole) where the
 * header cannot be trusted. */
START_TEST(header_only_load)
{
	char *path = write_profile(good);
	struct profile *p = profile_load_header(path);
	ck_assert_ptr_nonnull(p);
	ck_assert(p->header_only);
	ck_assert_str_eq(p->name, "t");
	ck_assert_int_eq(p->nrequires, 1);
	ck_assert_str_eq(p->requires[0], "nvidia_ucf_pmu_*");
	ck_assert_int_eq(p->ngroups + p->nmetrics + p->npanes, 0);
	profile_free(p);
	free(path);
	const char *untrusted[] = {
		"[group g]\npmu = x\nevents = a\n[profile]\nrequires = x\n", /* the header comes late */
		"[profile]\nrequires x\n[group g]\n",                           /* an error in it */
		"[profile\nrequires = x\n",                                       /* a broken header line */
		"; no header at all\n[metric m]\nformula = 1\n",
	};
	for (size_t i = 0; i < sizeof(untrusted) / sizeof(untrusted[0]); i++) {
		diag_clear();
		path = write_profile(untrusted[i]);
		ck_assert_msg(profile_load_header(path) == NULL, "case %zu was trusted", i);
		ck_assert_msg(diag_count() == 0, "case %zu said: %s", i, diag_message(0, NULL));
		free(path);
	}
}
END_TEST

START_TEST(missing_file)
{
	diag_clear();
	int nerr;
	ck_assert_ptr_null(profile_load("/nonexistent/x.ini", &nerr));
	ck_assert_int_eq(nerr, 1);
	ck_assert(strstr(diag_message(0, NULL), "/nonexistent/x.ini: cannot open profile"));
}
END_TEST

START_TEST(bundled_profiles_load)
{
	static const char *const names[] = { "profiles/host.ini", "profiles/tegra410.ini" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *path = src_path(names[i]);
		diag_clear();
		int nerr;
		struct profile *p = profile_load(path, &nerr);
		ck_assert_msg(p != NULL, "%s: %s", path, diag_count() ? diag_message(0, NULL) : "");
		profile_free(p);
		free(path);
	}
}
END_TEST

START_TEST(filter_values)
{
	struct prof_filter bdf = { .type = FILTER_BDF }, mask = { .type = FILTER_MASK }, flag = { .type = FILTER_FLAG };
	uint64_t v;
	char *err;
	/* (bus << 8) | (device << 3) | function: the kernel doc's "27:01.1 is 0x2781" slips */
	ck_assert(filter_parse_value(&bdf, "27:01.1", &v, &err) && v == 0x2709);
	ck_assert(filter_parse_value(&bdf, "35:01.0", &v, &err) && v == 0x3508); /* as hns3-pmu.rst */
	ck_assert(filter_parse_value(&bdf, "0000:01:01.0", &v, &err) && v == 0x0108);
	ck_assert(filter_parse_value(&bdf, "0x2781", &v, &err) && v == 0x2781);
	ck_assert(!filter_parse_value(&bdf, "27:41.1", &v, &err));
	free(err);
	ck_assert(filter_parse_value(&mask, "0b1010", &v, &err) && v == 10);
	ck_assert(filter_parse_value(&mask, "0xff", &v, &err) && v == 255);
	ck_assert(!filter_parse_value(&mask, "0b12", &v, &err));
	free(err);
	ck_assert(filter_parse_value(&flag, "on", &v, &err) && v == 1);
	ck_assert(filter_parse_value(&flag, "0", &v, &err) && v == 0);
	ck_assert(filter_parse_value(&flag, "0x1", &v, &err) && v == 1);
	ck_assert(!filter_parse_value(&flag, "2", &v, &err));
	ck_assert(strstr(err, "not on/off"));
	free(err);
}
END_TEST

static int line_of(const char *text, const char *what)
{
	int line = 1;
	for (const char *c = text; c < strstr(text, what); c++)
		line += *c == '\n';
	return line;
}

static void *cut_chain(void *text)
{
	char *const first[] = { "m0", NULL };
	return catalogue_subset(text, first);
}

/* A catalogue file cut to what a few metrics need: the header and groups whole, the metrics
 * asked (by name or perf_name, any case), what their formulas and thresholds read by name,
 * transitively; not a metric a description merely mentions. The cut still loads. */
START_TEST(catalogue_subset_keeps_what_is_read)
{
	const char *text = "; head\n[profile]\nname = perf-t\n\n[group g]\npmu = cpu\nevents = a b c\n\n"
			   "[metric m1]\nformula@g = a / b\ndescription = unlike m3\n\n"
			   "[metric m2]\nformula@g = 100 * m1 + helper\nthreshold = m4 > 0.5\n\n"
			   "[metric m3]\nformula@g = c\n\n"
			   "[metric helper]\nformula@g = b\n\n"
			   "[metric m4]\nformula@g = a\n\n"
			   "[metric tma_x_y]\nperf_name = tma_x/y\nformula@g = c / a\n";
	char *const want_m2[] = { "M2", NULL }, *const want_perf[] = { "tma_x/y", NULL },
		    *const want_none[] = { "m9", NULL };
	char *cut = catalogue_subset(text, want_m2);
	ck_assert_ptr_nonnull(cut);
	for (const char *const *kept = (const char *const[]){ "[profile]", "[group g]", "[metric m2]", "[metric m1]",
								 "[metric helper]", "[metric m4]", NULL };
	     *kept; kept++)
		ck_assert_msg(strstr(cut, *kept), "%s left out:\n%s", *kept, cut);
	ck_assert_msg(!strstr(cut, "[metric m3]") && !strstr(cut, "[metric tma_x_y]"), "too much kept:\n%s", cut);
	ck_assert_int_eq(line_of(cut, "[metric helper]"), line_of(text, "[metric helper]")); /* messages name the file's line */
	char *path = write_profile(cut);
	int nerr;
	struct profile *p = profile_load_text(path, cut, &nerr);
	ck_assert_msg(p && nerr == 0, "the cut does not load: %s", diag_count() ? diag_message(0, NULL) : "");
	ck_assert_int_eq(p->nmetrics, 4);
	profile_free(p);
	free(path);
	free(cut);
	cut = catalogue_subset(text, want_perf);
	ck_assert(cut && strstr(cut, "[metric tma_x_y]") && !strstr(cut, "[metric m1]"));
	free(cut);
	ck_assert_ptr_null(catalogue_subset(text, want_none));
	/* a chain of 20 000 metrics each reading the next: all kept, on a thread's small
	 * stack (a recursion a metric deep needs megabytes of it) */
	struct textbuf chain = { 0 };
	textbuf_put(&chain, "[profile]\nname = perf-c\n");
	for (int i = 0; i < 20000; i++)
		textbuf_printf(&chain, "[metric m%d]\nformula@g = m%d + 1\n", i, i + 1);
	pthread_attr_t small;
	pthread_t th;
	pthread_attr_init(&small);
	pthread_attr_setstacksize(&small, 256 << 10);
	ck_assert_int_eq(pthread_create(&th, &small, cut_chain, chain.data), 0);
	ck_assert_int_eq(pthread_join(th, (void **)&cut), 0);
	ck_assert(cut && strlen(cut) == chain.len);
	free(cut);
	pthread_attr_destroy(&small);
	textbuf_free(&chain);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *t = tcase_create("profile");
	tcase_add_test(t, load_good);
	tcase_add_test(t, header_only_load);
	tcase_add_test(t, errors_name_file_line_column);
	tcase_add_test(t, long_lines_are_not_split);
	tcase_add_test(t, reader_robustness);
	tcase_add_test(t, missing_file);
	tcase_add_test(t, bundled_profiles_load);
	tcase_add_test(t, filter_values);
	tcase_add_test(t, catalogue_subset_keeps_what_is_read);
	suite_add_tcase(s, t);
	return run_suite(s);
}
