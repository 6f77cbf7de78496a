/* test_expr.c — the expression language through the public front end: each
 * expression is written as `problem P = EXPR` of an in-memory space, parsed,
 * checked and evaluated by gs_space_parse, and its value's repr compared with
 * what Python 3 prints for the same expression.  Errors are compared as
 * "line:col: severity: message", as gsearch reports them. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "space/load.h"
#include "space/space.h"
#include "util/util.h"

static struct gs_space *parse_text(const char *text, struct gs_diag *d)
{
	struct gs_source *src = gs_source_new("t.space", text, strlen(text));
	return gs_space_parse(src, NULL, d);
}

/* Every diagnostic, one per line: "L:C: error: msg" ("note: msg" without a
 * location).  The caller frees. */
static char *diag_text(const struct gs_diag *d)
{
	static const char *const sev[] = { "error", "warning", "note" };
	struct gs_buf b = GS_BUF_INIT;
	for (size_t i = 0; i < d->n; i++) {
		const struct gs_diag_msg *m = &d->msgs[i];
		if (m->loc.src) {
			unsigned line, col;
			gs_loc_linecol(m->loc, &line, &col);
			gs_buf_printf(&b, "%u:%u: ", line, col);
		}
		gs_buf_printf(&b, "%s: %s\n", sev[m->sev], m->text);
	}
	gs_buf_putc(&b, '\0');
	b.len--;
	return gs_buf_detach(&b);
}

/* repr of the value of `problem P = expr`; the caller frees. */
static char *eval_repr(const char *expr)
{
	char *text = gs_xasprintf("problem P = %s\n", expr);
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_space *sp = parse_text(text, &d);
	ck_assert_ptr_nonnull(sp);
	if (d.errors) {
		char *msgs = diag_text(&d);
		ck_abort_msg("%s: unexpected diagnostics:\n%s", expr, msgs);
	}
	ck_assert_uint_eq(sp->nproblems, 1);
	struct gs_buf b = GS_BUF_INIT;
	gs_value_repr(&b, sp->problems[0].value);
	gs_buf_putc(&b, '\0');
	b.len--;
	gs_space_free(sp);
	gs_diag_release(&d);
	free(text);
	return gs_buf_detach(&b);
}

/* The diagnostics of a whole space text; the caller frees. */
static char *errors_of(const char *text)
{
	struct gs_diag d = GS_DIAG_INIT;
	struct gs_space *sp = parse_text(text, &d);
	ck_assert_ptr_nonnull(sp);
	char *msgs = diag_text(&d);
	gs_space_free(sp);
	gs_diag_release(&d);
	return msgs;
}

#define EXPECT(expr, want)                                                                        \
	do {                                                                                      \
		char *got_ = eval_repr(expr);                                                     \
		ck_assert_msg(!strcmp(got_, (want)), "%s: got %s, want %s", (expr), got_, (want)); \
		free(got_);                                                                       \
	} while (0)

/* The errors of `problem P = expr` (columns count from the 'p' of problem:
 * the expression starts in column 13). */
#define EXPECT_ERR(expr, want)                                                                    \
	do {                                                                                      \
		char *t_ = gs_xasprintf("problem P = %s\n", (expr));                              \
		char *got_ = errors_of(t_);                                                       \
		ck_assert_msg(!strcmp(got_, (want)), "%s: got\n%s\nwant\n%s", (expr), got_, (want)); \
		free(got_);                                                                       \
		free(t_);                                                                         \
	} while (0)

START_TEST(test_floor_division_and_modulo)
{
	/* round toward minus infinity; the sign of % is the divisor's */
	EXPECT("-7 // 2", "-4");
	EXPECT("7 // -2", "-4");
	EXPECT("-7 // -2", "3");
	EXPECT("-7 % 2", "1");
	EXPECT("7 % -2", "-1");
	EXPECT("-7 % -2", "-1");
	EXPECT("-7.5 // 2", "-4.0");
	EXPECT("7.5 % -2", "-0.5");
	EXPECT("-7 % 2.5", "0.5");
	EXPECT("7.0 // 0.5", "14.0");
	EXPECT("-0.0 // 1", "-0.0");
	EXPECT("5 % 0.3", "0.20000000000000018");
	EXPECT("-5 % 0.3", "0.09999999999999981");
	EXPECT("divmod(-7, 2)", "[-4, 1]");
	EXPECT("3 % True", "0");
}
END_TEST

START_TEST(test_power)
{
	EXPECT("2 ** 10", "1024");
	EXPECT("2 ** -1", "0.5");
	EXPECT("(-2) ** -3", "-0.125");
	EXPECT("2 ** 3 ** 2", "512"); /* right-associative */
	EXPECT("-2 ** 2", "-4");      /* binds tighter than unary minus */
	EXPECT("(-2) ** 63", "-9223372036854775808");
	EXPECT("0 ** 0", "1");
	EXPECT("2 ** 0.5", "1.4142135623730951");
	EXPECT("4 ** 0.5", "2.0");
	EXPECT("pow(3, 4)", "81");
	EXPECT_ERR("2 ** 63", "1:15: error: integer overflow in '**'\n");
	EXPECT_ERR("pow(10, 19)", "1:13: error: integer overflow in '**'\n");
}
END_TEST

START_TEST(test_true_division)
{
	EXPECT("7 / 2", "3.5");
	EXPECT("4 / 2", "2.0");
	EXPECT("-1 / 4", "-0.25");
	EXPECT("1 / 3", "0.3333333333333333");
	EXPECT("True / 2", "0.5");
	EXPECT("10 ** 18 / 3", "3.333333333333333e+17");
}
END_TEST

START_TEST(test_chained_comparisons)
{
	EXPECT("1 < 2 < 3", "True");
	/* `(1 < 3) < 2` would be True: a chain is `1 < 3 and 3 < 2` */
	EXPECT("1 < 3 < 2", "False");
	EXPECT("3 > 2 > 1 >= 1", "True");
	EXPECT("1 < 2 > 1.5", "True");
	EXPECT("1 == 1.0 != 2", "True");
	EXPECT("\"a\" < \"b\" < \"c\"", "True");
	/* the chain stops at the first false link: 1 // 0 is never evaluated */
	EXPECT("2 < 1 < 1 // 0", "False");
	EXPECT("not 1 == 2", "True");
	EXPECT("[1, 2] < [1, 3]", "True");
}
END_TEST

START_TEST(test_membership)
{
	EXPECT("3 in [1, 2, 3]", "True");
	EXPECT("2.0 in [1, 2]", "True");
	EXPECT("4 not in [1, 2, 3]", "True");
	EXPECT("4 in range(0, 10, 2)", "True");
	EXPECT("5 in range(0, 10, 2)", "False");
	EXPECT("5 not in range(0, 10, 2)", "True");
	EXPECT("-3 in range(0, -10, -3)", "True");
	EXPECT("\"bc\" in \"abcd\"", "True");
	EXPECT("\"x\" not in \"abc\"", "True");
	EXPECT("\"\" in \"abc\"", "True");
}
END_TEST

START_TEST(test_conditional_and_boolean_operators)
{
	EXPECT("1 if 0 else 2", "2");
	EXPECT("1 if 0 else 2 if 1 else 3", "2");
	EXPECT("5 if True else 1 // 0", "5"); /* only the branch taken */
	/* and/or yield the operand that decided, as Python */
	EXPECT("0 or 5", "5");
	EXPECT("3 or 5", "3");
	EXPECT("3 and 0.0", "0.0");
	EXPECT("0 and 1 // 0", "0");
	EXPECT("1 or 1 // 0", "1");
	EXPECT("\"\" or \"x\"", "'x'");
	EXPECT("[] and 1", "[]");
	EXPECT("None or 0", "0");
	EXPECT("not 0", "True");
	EXPECT("not [1]", "False");
}
END_TEST

START_TEST(test_comprehensions)
{
	EXPECT("[x * y for x in [1, 2] for y in [1, 3]]", "[1, 3, 2, 6]");
	EXPECT("[x for x in range(10) if x % 2 if x > 3]", "[5, 7, 9]");
	EXPECT("[[x, y] for x in range(3) for y in range(x)]", "[[1, 0], [2, 0], [2, 1]]");
	EXPECT("[t for t in range(8, 65, 8) if 4096 % t == 0]", "[8, 16, 32, 64]");
	EXPECT("[2 ** k for k in range(6)]", "[1, 2, 4, 8, 16, 32]");
	EXPECT("[x for x in []]", "[]");
	EXPECT("sum([x for x in range(5) for y in range(x) if (x + y) % 2])", "17");
}
END_TEST

START_TEST(test_ranges_and_slices)
{
	EXPECT("list(range(5))", "[0, 1, 2, 3, 4]");
	EXPECT("list(range(10, 0, -3))", "[10, 7, 4, 1]");
	EXPECT("list(range(0, -5, -1))", "[0, -1, -2, -3, -4]");
	EXPECT("list(range(5, 0))", "[]");
	EXPECT("len(range(10, 0, -3))", "4");
	EXPECT("range(10, 0, -3)[-1]", "1");
	EXPECT("[1, 2, 3, 4, 5][1:3]", "[2, 3]");
	EXPECT("[1, 2, 3, 4, 5][::-2]", "[5, 3, 1]");
	EXPECT("[1, 2, 3, 4, 5][-2:]", "[4, 5]");
	EXPECT("[1, 2, 3, 4, 5][3:1:-1]", "[4, 3]");
	EXPECT("[1, 2, 3][5:]", "[]");
	EXPECT("\"hello\"[1:-1]", "'ell'");
	EXPECT("\"abc\"[::-1]", "'cba'");
	EXPECT("[1, 2, 3][-1]", "3");
	EXPECT_ERR("range(1, 5, 0)", "1:13: error: range() step must not be zero\n");
}
END_TEST

START_TEST(test_builtins)
{
	EXPECT("min(3, 1, 2)", "1");
	EXPECT("max([1, 5, 3])", "5");
	EXPECT("max(1, 1.0)", "1"); /* the first of equals */
	EXPECT("min(2.0, 2)", "2.0");
	EXPECT("abs(-3)", "3");
	EXPECT("abs(-2.5)", "2.5");
	EXPECT("len(\"abc\")", "3");
	EXPECT("len([1, [2, 3]])", "2");
	EXPECT("sum([1, 2, 3])", "6");
	EXPECT("sum([0.5, 1], 1)", "2.5");
	EXPECT("sum([True, True])", "2");
	EXPECT("any([0, \"\", 3])", "True");
	EXPECT("any([])", "False");
	EXPECT("all([1, []])", "False");
	EXPECT("all([])", "True");
	EXPECT("sorted([3, 1, 2])", "[1, 2, 3]");
	EXPECT("sorted([\"b\", \"a\"])", "['a', 'b']");
	EXPECT("sorted([True, 0, 1, False])", "[0, False, True, 1]"); /* stable */
	EXPECT_ERR("min([])", "1:13: error: min() arg is an empty sequence\n");
}
END_TEST

START_TEST(test_round_is_bankers)
{
	EXPECT("round(2.5)", "2");
	EXPECT("round(3.5)", "4");
	EXPECT("round(-2.5)", "-2");
	EXPECT("round(0.5)", "0");
	EXPECT("round(-0.5)", "0");
	EXPECT("round(2.6)", "3");
	EXPECT("round(7)", "7");
	EXPECT("round(True)", "1");
	EXPECT("round(0.125, 2)", "0.12"); /* exactly half: to even */
	EXPECT("round(2.5, 0)", "2.0");
}
END_TEST

START_TEST(test_conversions)
{
	EXPECT("int(-2.5)", "-2"); /* toward zero */
	EXPECT("int(2.9)", "2");
	EXPECT("int(\"12\")", "12");
	EXPECT("int(\"-12\")", "-12");
	EXPECT("int(True)", "1");
	EXPECT("int()", "0");
	EXPECT("float(3)", "3.0");
	EXPECT("float(\"1.5\")", "1.5");
	EXPECT("float(\"inf\")", "inf");
	EXPECT("float(True)", "1.0");
	EXPECT("bool(0.0)", "False");
	EXPECT("bool(\"False\")", "True");
	EXPECT("str(2.0)", "'2.0'");
	EXPECT("str(True)", "'True'");
	EXPECT("int(-9.223372036854775808e18)", "-9223372036854775808");
	EXPECT_ERR("int(\"x\")", "1:13: error: invalid literal for int(): 'x'\n");
	EXPECT_ERR("int(1e300)", "1:13: error: float 1e+300 too large for a 64-bit integer\n");
}
END_TEST

START_TEST(test_math)
{
	EXPECT("math.sqrt(16)", "4.0");
	EXPECT("math.sqrt(2)", "1.4142135623730951");
	EXPECT("sqrt(2)", "1.4142135623730951");
	/* ceil, floor and trunc give integers, as Python 3 */
	EXPECT("math.ceil(2.1)", "3");
	EXPECT("math.ceil(-0.5)", "0");
	EXPECT("math.floor(-2.1)", "-3");
	EXPECT("floor(7 / 2)", "3");
	EXPECT("math.trunc(-2.7)", "-2");
	EXPECT("math.log(8, 2)", "3.0");
	EXPECT("math.log(1000, 10)", "2.9999999999999996"); /* log(x) / log(base), as Python */
	EXPECT("math.log2(1024)", "10.0");
	EXPECT("math.log10(1000)", "3.0");
	EXPECT("math.exp(0)", "1.0");
	EXPECT("math.isqrt(17)", "4");
	EXPECT("math.gcd(12, 18)", "6");
	EXPECT("math.lcm(4, 6)", "12");
	EXPECT("math.pi", "3.141592653589793");
	EXPECT("math.inf", "inf");
	EXPECT_ERR("math.sqrt(-1)", "1:13: error: math domain error in sqrt()\n");
}
END_TEST

START_TEST(test_strings)
{
	EXPECT("\"ab\" + \"cd\"", "'abcd'");
	EXPECT("\"ab\" * 3", "'ababab'");
	EXPECT("3 * \"ab\"", "'ababab'");
	EXPECT("\"ab\" * 0", "''");
	EXPECT("\"ab\" * -1", "''");
	EXPECT("'it\\'s'", "\"it's\"");
	EXPECT("[1] * 3 + [2]", "[1, 1, 1, 2]");
}
END_TEST

/* The search gs_float_repr replaced: every precision from 1 to 17 digits,
 * the first that reads back wins.  Digits and exponent as "d.ddde+XX". */
static void repr_by_search(char *out, size_t size, double f)
{
	char tmp[40];
	int prec;
	for (prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*e", prec - 1, f);
		if (strtod(tmp, NULL) == f)
			break;
	}
	snprintf(out, size, "%s", tmp);
}

/* The significant digits of a repr, without sign, point, exponent, leading
 * and trailing zeros. */
static void digits_of(const char *s, char *out, size_t size)
{
	size_t n = 0, keep = 0;
	for (; *s && *s != 'e' && n + 1 < size; s++) {
		if (*s < '0' || *s > '9' || (*s == '0' && !n))
			continue;
		out[n++] = *s;
		if (*s != '0')
			keep = n;
	}
	out[keep] = 0;
}

static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

START_TEST(test_float_repr_is_the_shortest)
{
	/* gs_float_repr gives what trying every precision gave: same digits, and
	 * the text reads back as the same double */
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (int i = 0; i < 300000; i++) {
		double f;
		uint64_t r = rng_next(&x);
		char text[40];
		switch (i % 8) {
		case 0: memcpy(&f, &r, sizeof f); break; /* any bits: subnormals too */
		case 1: f = (double)(r >> 11) / 9007199254740992.0; break;
		case 2: f = (double)(r % 100000) / 1000.0; break; /* short decimals */
		case 3: f = (double)(r >> 11) * 1e-6 * ((r & 1) ? -1 : 1); break;
		case 4: /* a few digits at any scale, as read from text */
			snprintf(text, sizeof text, "%de%d", (int)(r % 100000),
				 (int)(r >> 32) % 640 - 330);
			f = strtod(text, NULL);
			break;
		case 6: /* all 53 bits, where 16 or 17 digits are found in 128 bits */
			f = (double)(r >> 11) / 9007199254740992.0 * pow(10, (int)(r % 30) - 12);
			break;
		default: /* up to 16 digits, near where 15 stop being enough */
			snprintf(text, sizeof text, "%llue%d",
				 (unsigned long long)(r % 10000000000000000u),
				 (int)(r >> 60) % 16 - 20);
			f = strtod(text, NULL);
			break;
		}
		if (isnan(f) || isinf(f))
			continue;
		struct gs_buf b = GS_BUF_INIT;
		gs_float_repr(&b, f);
		const char *got = gs_buf_str(&b);
		char want[40];
		repr_by_search(want, sizeof want, f);
		ck_assert_msg(strtod(got, NULL) == f, "%s does not read back as %.17g", got, f);
		char dg[40], dw[40];
		digits_of(got, dg, sizeof dg);
		digits_of(want, dw, sizeof dw);
		ck_assert_msg(!strcmp(dg, dw), "%s: digits %s, the search found %s", got, dg, want);
		gs_buf_release(&b);
	}
}
END_TEST

START_TEST(test_float_repr)
{
	/* shortest repr that reads back, switching to exponents as Python does */
	EXPECT("0.1", "0.1");
	EXPECT("0.1 + 0.2", "0.30000000000000004");
	EXPECT("1e16", "1e+16");
	EXPECT("1e15", "1000000000000000.0");
	EXPECT("1e-05", "1e-05");
	EXPECT("0.0001", "0.0001");
	EXPECT("123.0", "123.0");
	EXPECT("1e22", "1e+22");
	EXPECT("5e-324", "5e-324");
	EXPECT("1.7976931348623157e308", "1.7976931348623157e+308");
	EXPECT("-0.0", "-0.0");
	EXPECT("1e308 * 10", "inf");
	EXPECT("1e308 * 10 - 1e308 * 10", "nan");
	EXPECT("2.0 ** 0.5 * 2 ** 0.5", "2.0000000000000004");
}
END_TEST

START_TEST(test_error_division_by_zero)
{
	EXPECT_ERR("1 // 0", "1:15: error: integer division or modulo by zero\n");
	EXPECT_ERR("7 % 0", "1:15: error: integer division or modulo by zero\n");
	EXPECT_ERR("1 / 0", "1:15: error: division by zero\n");
	EXPECT_ERR("1.5 / 0", "1:17: error: float division by zero\n");
	/* the caret is on the operator that failed, not the statement */
	char *got = errors_of("problem N = 4\n"
			      "problem P = N * (2 + 3 // (N - 4))\n");
	ck_assert_str_eq(got, "2:24: error: integer division or modulo by zero\n");
	free(got);
}
END_TEST

START_TEST(test_error_integer_overflow)
{
	EXPECT_ERR("3037000500 * 3037000500", "1:24: error: integer overflow in '*'\n");
	EXPECT_ERR("9223372036854775807 + 1", "1:33: error: integer overflow in '+'\n");
	EXPECT_ERR("1 << 63", "1:15: error: integer overflow in '<<'\n");
	EXPECT_ERR("-(-9223372036854775807 - 1)", "1:13: error: integer overflow in unary '-'\n");
	/* the extremes themselves are fine */
	EXPECT("9223372036854775807", "9223372036854775807");
	EXPECT("-9223372036854775807 - 1", "-9223372036854775808");
	EXPECT("3037000499 * 3037000499", "9223372030926249001");
}
END_TEST

START_TEST(test_error_unknown_name_suggests)
{
	char *got = errors_of("problem N = 4096\n"
			      "problem P = NN + 1\n");
	ck_assert_str_eq(got, "2:13: error: unknown name 'NN'\n"
			      "2:13: note: did you mean 'N'?\n");
	free(got);
	/* builtins are candidates too */
	got = errors_of("problem P = sqrtt(2)\n");
	ck_assert_msg(strstr(got, "1:13: error: unknown function 'sqrtt'\n") == got &&
			      strstr(got, "note: did you mean 'sqrt'?"),
		      "got\n%s", got);
	free(got);
}
END_TEST

START_TEST(test_error_type_at_compile_time)
{
	EXPECT_ERR("1 + \"a\"", "1:15: error: unsupported operand types for +: 'int' and 'str'\n");
	/* In a require, X + "a" is never evaluated (X > 5 is false for every
	 * value), so the error can only come from the compiler's type check. */
	char *got = errors_of("param X in [1, 2]\n"
			      "require X > 5 and X + \"a\" == 1\n");
	ck_assert_str_eq(got, "2:21: error: unsupported operand types for +: 'int' and 'str'\n");
	free(got);
}
END_TEST

START_TEST(test_error_index_out_of_range)
{
	EXPECT_ERR("[1, 2][5]", "1:13: error: index 5 out of range (length 2)\n");
	EXPECT_ERR("1 + [1, 2][-3]", "1:17: error: index -3 out of range (length 2)\n");
	EXPECT_ERR("\"abc\"[3]", "1:13: error: index 3 out of range (length 3)\n");
}
END_TEST

START_TEST(test_errors_are_all_reported)
{
	/* one pass reports every failing problem, each at its own line */
	char *got = errors_of("problem A = 1 // 0\n"
			      "problem B = 2\n"
			      "problem C = [1][2]\n");
	ck_assert_str_eq(got, "1:15: error: integer division or modulo by zero\n"
			      "3:13: error: index 2 out of range (length 1)\n");
	free(got);
}
END_TEST

GS_TEST_MAIN(test_floor_division_and_modulo, test_power, test_true_division,
	     test_chained_comparisons, test_membership, test_conditional_and_boolean_operators,
	     test_comprehensions, test_ranges_and_slices, test_builtins, test_round_is_bankers,
	     test_conversions, test_math, test_strings, test_float_repr,
	     test_float_repr_is_the_shortest,
	     test_error_division_by_zero, test_error_integer_overflow,
	     test_error_unknown_name_suggests, test_error_type_at_compile_time,
	     test_error_index_out_of_range, test_errors_are_all_reported)
