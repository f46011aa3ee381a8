/* SPDX-License-Identifier: GPL-2.0-only */
/* check_ui.c - the monitor's pure logic: number formatting, the display dead-band, the
 * settings file, and the renderer's bytes. (The screen itself is tested in tmux by
 * test_tui.sh.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/tui.h"
#include "testutil.h"
#include "ui/render.h"
#include "base/util.h"

static void fmt(double v, const char *unit, const char *want_num, const char *want_unit)
{
	char num[32], u[16];
	format_human(v, unit, num, sizeof(num), u, sizeof(u));
	ck_assert_msg(!strcmp(num, want_num) && !strcmp(u, want_unit), "%g %s -> '%s %s', want '%s %s'", v, unit, num, u,
		      want_num, want_unit);
}

/* The renderer sends only what changed, with the terminal's own strings, in one write:
 * an identical frame sends nothing; one changed cell sends a move, its attribute and the
 * character, encoded as UTF-8. */
static size_t file_grew(FILE *f, long *at, char *buf, size_t len)
{
	fflush(f);
	long now = ftell(f);
	size_t n = (size_t)(now - *at);
	fseek(f, *at, SEEK_SET);
	n = fread(buf, 1, n < len - 1 ? n : len - 1, f);
	buf[n] = '\0';
	fseek(f, now, SEEK_SET);
	*at = now;
	return n;
}

START_TEST(render_sends_changes_only)
{
	FILE *out = tmpfile();
	ck_assert_ptr_nonnull(out);
	SCREEN *scr = newterm("xterm-256color", out, stdin);
	ck_assert_ptr_nonnull(scr);
	resizeterm(4, 20);
	refresh();
	render_start(out, true);
	struct cell now[80], shown[80];
	for (int i = 0; i < 80; i++)
		now[i] = (struct cell){ ' ', 0 };
	long at = ftell(out);
	char buf[512];
	ck_assert_int_eq(render_frame(now, shown, 4, 20, true, false), 0);
	ck_assert_uint_gt(file_grew(out, &at, buf, sizeof(buf)), 80); /* the whole screen */
	ck_assert_int_eq(render_frame(now, shown, 4, 20, false, false), 0);
	ck_assert_uint_eq(file_grew(out, &at, buf, sizeof(buf)), 0); /* nothing changed */
	now[2 * 20 + 9] = (struct cell){ 0x2588, A_BOLD }; /* row 3, column 10 */
	ck_assert_int_eq(render_frame(now, shown, 4, 20, false, false), 0);
	file_grew(out, &at, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "\033[3;10H"), "no move to row 3, column 10: %s", buf);
	ck_assert_msg(strstr(buf, "\033[1m\xe2\x96\x88"), "no bold full block: %s", buf);
	ck_assert_msg(!strstr(buf, "\033[1;1H ") && strlen(buf) < 40, "more than the change: %s", buf);
	render_leave();
	render_stop();
	endwin();
	delscreen(scr);
	fclose(out);
}
END_TEST

START_TEST(human_numbers)
{
	fmt(275.44, "GB/s", "275", "GB/s");
	fmt(97.64, "GB/s", "97.6", "GB/s");
	fmt(4.212, "GB/s", "4.21", "GB/s");
	fmt(0.9951, "GB/s", "995", "MB/s");     /* below 1 GB/s: MB/s */
	fmt(41.82, "percent of slots", "41.8", "%"); /* perf's Arm TopDown unit, as a cell has room for */
	fmt(0.00042, "GB/s", "420", "KB/s");
	fmt(0.0, "GB/s", "0.00", "GB/s");
	fmt(430551, "/s", "431k", "/s");        /* counts get k, M, G */
	fmt(1234567890, "/s", "1.23G", "/s");
	fmt(0.0, "errors", "0", "errors");      /* a count of none has no decimals */
	fmt(-0.0, "/s", "0", "/s");
	fmt(189.4, "ns", "189", "ns");
	fmt(56.78, "ns", "56.8", "ns");
	fmt(23.456, "%", "23.5", "%");
	fmt(2.5961, "GHz", "2.60", "GHz");
	fmt(NAN, "GB/s", "-", "GB/s");
	fmt(-4.216, "GB/s", "-4.22", "GB/s");
	fmt(99.996, "ns", "100", "ns");       /* three digits after rounding, not 100.0 */
	fmt(9.999, "GB/s", "10.0", "GB/s");
	fmt(0.468, "req/cyc", "0.468", "req/cyc"); /* below 1: leading zeros do not count */
	fmt(0.04681, "", "0.0468", "");
	fmt(0.99996, "", "1.00", "");
	fmt(0.004, "%", "0.0", "%");
	fmt(1e30, "/s", "1000000000000000000T", "/s");
	/* three digits promised: a unit moves up its ladder rather than show four */
	fmt(61613, "MB/s", "61.6", "GB/s");      /* perf's Intel metrics are in MB/s */
	fmt(500000, "MB/s", "500", "GB/s");
	fmt(0.5, "MB/s", "500", "KB/s");
	fmt(2048, "GB/s", "2.05", "TB/s");
	fmt(1506, "ns", "1.51", "us");           /* HNS3's RPU latency */
	fmt(999.6, "ns", "1.00", "us");
	fmt(1234, "W", "1.23", "kW");
	fmt(2200, "MHz", "2.20", "GHz");
}
END_TEST

START_TEST(dead_band)
{
	ck_assert(display_hysteresis(NAN, 5.0) == 5.0);        /* nothing shown yet */
	ck_assert(display_hysteresis(300, 301) == 300);        /* 0.33 %: flicker */
	ck_assert(display_hysteresis(300, 302) == 302);        /* 0.67 %: a change */
	ck_assert(display_hysteresis(9.99, 9.993) == 9.99);    /* under 3/4 of the last digit */
	ck_assert(display_hysteresis(9.99, 10.2) == 10.2);
	ck_assert(display_hysteresis(120, 0) == 0);            /* to zero is always shown */
	ck_assert(display_hysteresis(-5, 5) == 5);             /* a sign change is shown */
}
END_TEST

START_TEST(settings_round_trip)
{
	char *dir = tmp_dir();
	char *path = xasprintf("%s/.config/pmutop/pmutoprc", dir), why[512];
	struct settings s;
	settings_defaults(&s);
	s.colour = TRI_OFF;
	s.chars = CHARS_ASCII;
	s.bars = BAR_HASHES;
	s.sparklines = SPARK_SCROLL;
	settings_set_hidden(&s, "tegra410/pcie", true);
	settings_set_hidden(&s, "host/host", true);
	settings_set_hidden(&s, "host/host", false);
	ck_assert(settings_save(&s, path, why, sizeof(why))); /* makes .config/pmutop, no further */
	/* a $HOME that does not exist is not made, and the refusal says why */
	char *nohome = xasprintf("%s/nonexistent/x/.config/pmutop/pmutoprc", dir);
	ck_assert(!settings_save(&s, nohome, why, sizeof(why)));
	ck_assert_msg(strstr(why, "No such file or directory") && strstr(why, nohome), "%s", why);
	char *above = xasprintf("%s/nonexistent", dir);
	ck_assert_int_ne(access(above, F_OK), 0);
	free(above);
	free(nohome);
	struct settings r;
	settings_defaults(&r);
	settings_load(&r, path);
	ck_assert_int_eq(r.colour, TRI_OFF);
	ck_assert_int_eq(r.chars, CHARS_ASCII);
	ck_assert_int_eq(r.bars, BAR_HASHES);
	ck_assert_int_eq(r.sparklines, SPARK_SCROLL);
	ck_assert(settings_is_hidden(&r, "tegra410/pcie"));
	ck_assert(!settings_is_hidden(&r, "host/host"));
	settings_free(&s);
	settings_free(&r);
	/* a broken line is a warning, the rest still loads */
	put_file(dir, "bad", "colour=off\nthis is not a setting\nbars=pipes\nfrobs=9\nsparklines=on\n");
	char *bad = xasprintf("%s/bad", dir);
	settings_defaults(&r);
	settings_load(&r, bad);
	ck_assert_int_eq(r.colour, TRI_OFF);
	ck_assert_int_eq(r.bars, BAR_PIPES);
	ck_assert_int_eq(r.sparklines, SPARK_SWEEP); /* "on" from earlier versions */
	settings_free(&r);
	free(bad);
	free(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ui");
	TCase *t = tcase_create("ui");
	tcase_add_test(t, human_numbers);
	tcase_add_test(t, render_sends_changes_only);
	tcase_add_test(t, dead_band);
	tcase_add_test(t, settings_round_trip);
	suite_add_tcase(s, t);
	return run_suite(s);
}
