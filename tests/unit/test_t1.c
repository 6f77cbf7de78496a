/* test_t1.c — T1 JSON to space text: the statements each shape of real T1
 * files becomes, and the positioned errors and warnings for what cannot be
 * translated. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "harness.h"
#include "space/load.h"
#include "util/util.h"

/* The space text for `json` (caller frees); *rc gets gs_t1_to_space's
 * result and `d` its diagnostics.  The source must outlive `d`. */
static struct gs_source *src;

static char *convert(const char *json, struct gs_diag *d, int *rc)
{
	struct gs_buf out = GS_BUF_INIT;
	gs_source_free(src);
	src = gs_source_new("t.json", json, strlen(json));
	*rc = gs_t1_to_space(src, GS_T1_GRID_PROBLEM, &out, NULL, d);
	return gs_buf_detach(&out);
}

/* Does some message of severity `sev` contain `text`?  Its position goes to
 * *line and *col. */
static int has_msg(const struct gs_diag *d, enum gs_severity sev, const char *text, unsigned *line,
		   unsigned *col)
{
	for (size_t i = 0; i < d->n; i++) {
		if (d->msgs[i].sev == sev && strstr(d->msgs[i].text, text)) {
			if (line)
				gs_loc_linecol(d->msgs[i].loc, line, col);
			return 1;
		}
	}
	return 0;
}

/* Frees what a test made: the text, the diagnostics and the source. */
static void finish(char *s, struct gs_diag *d)
{
	free(s);
	gs_diag_release(d);
	gs_source_free(src);
	src = NULL;
}

static void dump(const struct gs_diag *d, const char *text)
{
	fprintf(stderr, "--- generated:\n%s--- diagnostics:\n", text ? text : "(null)");
	gs_diag_print(d, stderr);
}

#define HEADER "# space generated from the T1 file t.json; each statement names its JSON field\n"

START_TEST(test_t1_values_arrays_and_strings)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert("{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
			  " {\"Name\": \"A\", \"Type\": \"int\", \"Values\": \"[2**i for i in range(5)]\"},\n"
			  " {\"Name\": \"B\", \"Values\": [1, 2, 4]},\n"
			  " {\"Name\": \"C\", \"Type\": \"string\", \"Values\": [\"x\", \"a\\\"b\", \"c\\\\d\"]},\n"
			  " {\"Name\": \"D\", \"Values\": [true, false, null, 0.5, 1e16, 1.5e-5, 2.0, 100000.0]},\n"
			  " {\"Name\": \"E\", \"Values\": \"list(range(1,\\n 9))\"}\n"
			  "]}, \"KernelSpecification\": {}}",
			  &d, &rc);
	if (rc || d.n != 1)
		dump(&d, s);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(s, HEADER
		"param A in [2**i for i in range(5)]  # t1: ConfigurationSpace.TuningParameters[0].Values\n"
		"param B in [1, 2, 4]  # t1: ConfigurationSpace.TuningParameters[1].Values\n"
		"param C in [\"x\", \"a\\\"b\", \"c\\\\d\"]  # t1: ConfigurationSpace.TuningParameters[2].Values\n"
		"param D in [True, False, None, 0.5, 1e+16, 1.5e-05, 2.0, 100000.0]"
		"  # t1: ConfigurationSpace.TuningParameters[3].Values\n"
		"param E in list(range(1,  9))  # t1: ConfigurationSpace.TuningParameters[4].Values\n");
	ck_assert_uint_eq(d.errors, 0);
	ck_assert_uint_eq(d.warnings, 1);
	ck_assert(has_msg(&d, GS_WARNING, "t1: KernelSpecification has no KernelName", NULL, NULL));
	finish(s, &d);
}
END_TEST

START_TEST(test_t1_conditions_every_form)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert("{\"ConfigurationSpace\": {\n"
			  " \"TuningParameters\": [{\"Name\": \"X\", \"Values\": \"[1, 2]\"},\n"
			  "                      {\"Name\": \"Y\", \"Values\": \"[3, 4]\"}],\n"
			  " \"Conditions\": [\n"
			  "  {\"Parameters\": [\"X\", \"Y\"], \"Expression\": \"X % 2 == 0 and 1 <= Y // X < 4\"},\n"
			  "  {\"Expression\": \"X in [1, 2] or not Y\"},\n"
			  "  \"X * Y <= 8  # a comment\",\n"
			  "  {\"Expression\": \"X +\\\\\\n Y > 2\"}\n"
			  "]}}",
			  &d, &rc);
	if (rc)
		dump(&d, s);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(s, HEADER
		"param X in [1, 2]  # t1: ConfigurationSpace.TuningParameters[0].Values\n"
		"param Y in [3, 4]  # t1: ConfigurationSpace.TuningParameters[1].Values\n"
		"require X % 2 == 0 and 1 <= Y // X < 4  # t1: ConfigurationSpace.Conditions[0].Expression\n"
		"require X in [1, 2] or not Y  # t1: ConfigurationSpace.Conditions[1].Expression\n"
		"require X * Y <= 8  # t1: ConfigurationSpace.Conditions[2]\n"
		"require X +  Y > 2  # t1: ConfigurationSpace.Conditions[3].Expression\n");
	/* no KernelSpecification is worth a warning, nothing else */
	ck_assert_uint_eq(d.errors, 0);
	ck_assert_uint_eq(d.warnings, 1);
	ck_assert(has_msg(&d, GS_WARNING, "no KernelSpecification", NULL, NULL));
	finish(s, &d);
}
END_TEST

static const char *const kernel_json =
	"{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
	"  {\"Name\": \"BX\", \"Values\": \"[32, 64]\", \"Default\": 64},\n"
	"  {\"Name\": \"T\", \"Values\": [1, 2], \"Default\": \"2\"}]},\n"
	" \"BenchmarkConfig\": {\"N\": 4096, \"BX\": 1, \"label\": \"x\"},\n"
	" \"KernelSpecification\": {\n"
	"  \"Language\": \"CUDA\", \"KernelName\": \"k\", \"KernelFile\": \"k.cu\",\n"
	"  \"CompilerOptions\": [\"-use_fast_math\", \"\"],\n"
	"  \"GlobalSizeType\": \"%s\",\n"
	"  \"LocalSize\": {\"X\": \"BX\", \"Y\": 2, \"Z\": \"1\"},\n"
	"  \"GlobalSize\": {\"X\": \"N // T\", \"Y\": \"64\"},\n"
	"  \"SharedMemory\": \"BX * 4\",\n"
	"  \"Arguments\": [\n"
	"   {\"Name\": \"n\", \"Type\": \"int32\", \"MemoryType\": \"Scalar\", \"FillValue\": \"4096\"},\n"
	"   {\"Name\": \"a\", \"Type\": \"float\", \"MemoryType\": \"Scalar\", \"FillValue\": 2},\n"
	"   {\"Name\": \"in\", \"Type\": \"float2\", \"MemoryType\": \"Vector\", \"Size\": \"N\","
	"    \"FillType\": \"Random\", \"FillValue\": 10.0, \"AccessType\": \"ReadOnly\"},\n"
	"   {\"Name\": \"idx\", \"Type\": \"int32\", \"MemoryType\": \"Vector\", \"Size\": 16,"
	"    \"FillType\": \"Generator\", \"DataSource\": \"2 * i + 1\"},\n"
	"   {\"Name\": \"coef\", \"Type\": \"float\", \"MemoryType\": \"Symbol\", \"Size\": 8,"
	"    \"FillType\": \"Constant\", \"FillValue\": 0.5},\n"
	"   {\"Name\": \"out\", \"Type\": \"double\", \"MemoryType\": \"Vector\", \"Size\": 4096,"
	"    \"FillType\": \"Constant\", \"FillValue\": 0, \"AccessType\": \"WriteOnly\", \"Output\": 1},\n"
	"   {\"Name\": \"acc\", \"Type\": \"uint64\", \"MemoryType\": \"Vector\", \"Size\": 4,"
	"    \"AccessType\": \"ReadWrite\", \"RandomSeed\": 3, \"FillType\": \"Random\"}\n"
	"  ]}}";

static char *convert_kernel(const char *gst, struct gs_diag *d, int *rc)
{
	char *json = gs_xasprintf(kernel_json, gst);
	char *s = convert(json, d, rc);
	free(json);
	return s;
}

#define KERNEL_HEAD                                                                               \
	HEADER "kernel k from \"k.cu\"  # t1: KernelSpecification.KernelName\n"                   \
	       "problem N = 4096  # t1: BenchmarkConfig.N\n"                                      \
	       "param BX in [32, 64]  # t1: ConfigurationSpace.TuningParameters[0].Values\n"      \
	       "param T in [1, 2]  # t1: ConfigurationSpace.TuningParameters[1].Values\n"         \
	       "option \"-use_fast_math\"  # t1: KernelSpecification.CompilerOptions[0]\n"        \
	       "block BX, 2, 1  # t1: KernelSpecification.LocalSize\n"

#define KERNEL_TAIL                                                                               \
	"shared BX * 4  # t1: KernelSpecification.SharedMemory\n"                                 \
	"input arg2 float[N * 2] random(seed=3, hi=10.0)  # t1: KernelSpecification.Arguments[2]\n" \
	"input idx int32[16] index(2 * i + 1)  # t1: KernelSpecification.Arguments[3]\n"          \
	"input coef float[8] value(0.5)  # t1: KernelSpecification.Arguments[4]\n"                \
	"output out double[4096] value(0.0)  # t1: KernelSpecification.Arguments[5]\n"            \
	"inout acc uint64[4] random(seed=3)  # t1: KernelSpecification.Arguments[6]\n"            \
	"launch k(4096, float(2.0), arg2, idx, out, acc) copy coef to coef"                       \
	"  # t1: KernelSpecification.Arguments\n"                                                 \
	"baseline BX=64, T=2  # t1: ConfigurationSpace.TuningParameters[*].Default\n"

START_TEST(test_t1_kernel_cuda_sizes)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert_kernel("CUDA", &d, &rc);
	if (rc)
		dump(&d, s);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(s, KERNEL_HEAD "grid N // T, 64  # t1: KernelSpecification.GlobalSize\n" KERNEL_TAIL);
	/* BenchmarkConfig.BX yields to the parameter; "label" is no number;
	 * the argument called "in" is renamed */
	ck_assert_uint_eq(d.errors, 0);
	ck_assert_uint_eq(d.warnings, 4);
	ck_assert(has_msg(&d, GS_WARNING, "Random becomes uniform values", NULL, NULL));
	ck_assert(has_msg(&d, GS_WARNING, "BenchmarkConfig.BX is also a parameter", NULL, NULL));
	ck_assert(has_msg(&d, GS_WARNING, "cannot map BenchmarkConfig.label", NULL, NULL));
	ck_assert(has_msg(&d, GS_WARNING, "argument name 'in' is not usable here; called 'arg2'", NULL, NULL));
	finish(s, &d);
}
END_TEST

START_TEST(test_t1_kernel_opencl_sizes)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert_kernel("OpenCL", &d, &rc);
	ck_assert_int_eq(rc, 0);
	/* threads divided by the block size, rounding up */
	ck_assert_str_eq(s, KERNEL_HEAD
		"grid ((N // T) + BX - 1) // BX, (64 + 2 - 1) // 2  # t1: KernelSpecification.GlobalSize"
		" (OpenCL size in threads, divided by LocalSize, rounded up)\n" KERNEL_TAIL);
	finish(s, &d);
}
END_TEST

START_TEST(test_t1_problem_size_grid_div)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert("{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
			  "  {\"Name\": \"bx\", \"Values\": [16, 32]}, {\"Name\": \"tx\", \"Values\": [1, 2]},\n"
			  "  {\"Name\": \"fw\", \"Values\": \"[3, 5]\"}]},\n"
			  " \"KernelSpecification\": {\"KernelName\": \"conv\", \"KernelFile\": \"c.cu\",\n"
			  "  \"LocalSize\": {\"X\": \"bx\", \"Y\": \"1\"},\n"
			  "  \"ProblemSize\": [1000, 64], \"GridDivX\": [\"bx\", \"tx\"], \"GridDivY\": [],\n"
			  "  \"Arguments\": [{\"Name\": \"img\", \"Type\": \"float\", \"MemoryType\": \"Vector\",\n"
			  "    \"Size\": \"ProblemSize[0] + max(fw) - 1\", \"FillType\": \"Random\"}]}}",
			  &d, &rc);
	if (rc)
		dump(&d, s);
	ck_assert_int_eq(rc, 0);
	/* Kernel Tuner binds a parameter's name to its list of values in sizes */
	ck_assert_str_eq(s, HEADER
		"kernel conv from \"c.cu\"  # t1: KernelSpecification.KernelName\n"
		"problem ProblemSize = [1000, 64]  # t1: KernelSpecification.ProblemSize\n"
		"param bx in [16, 32]  # t1: ConfigurationSpace.TuningParameters[0].Values\n"
		"param tx in [1, 2]  # t1: ConfigurationSpace.TuningParameters[1].Values\n"
		"param fw in [3, 5]  # t1: ConfigurationSpace.TuningParameters[2].Values\n"
		"block bx, 1  # t1: KernelSpecification.LocalSize\n"
		"grid (ProblemSize[0] + (bx * tx) - 1) // (bx * tx), ProblemSize[1]"
		"  # t1: KernelSpecification.ProblemSize (divided by GridDiv, rounded up)\n"
		"input img float[ProblemSize[0] + max(([3, 5])) - 1] random(seed=1)"
		"  # t1: KernelSpecification.Arguments[0]\n"
		"launch conv(img)  # t1: KernelSpecification.Arguments\n");
	/* only the note that Random is not Kernel Tuner's generator */
	ck_assert_uint_eq(d.n, 1);
	ck_assert(has_msg(&d, GS_WARNING, "Random becomes uniform values", NULL, NULL));
	finish(s, &d);
}
END_TEST

/* A file that gives its grid twice launches Kernel Tuner's, and hands the
 * other to its caller; the divisor of a dimension without GridDiv is the
 * parameter block_size_x (or _y, _z); sizes that depend on parameters are
 * lets; a scalar in constant memory is copied there from a buffer. */
static const char *const two_grids_json =
	"{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
	"  {\"Name\": \"block_size_x\", \"Values\": [32, 64]}, {\"Name\": \"tile\", \"Values\": [1, 2]},\n"
	"  {\"Name\": \"rows\", \"Values\": [1, 4]}]},\n"
	" \"KernelSpecification\": {\"KernelName\": \"k\", \"KernelFile\": \"k.cu\",\n"
	"  \"LocalSize\": {\"X\": \"block_size_x\"},\n"
	"  \"ProblemSize\": [1000, \"rows * 2\"], \"GridDivY\": [\"tile\", 2],\n"
	"  \"GlobalSize\": {\"X\": \"1000\", \"Y\": \"rows\"}, \"GlobalSizeType\": \"OpenCL\",\n"
	"  \"Arguments\": [{\"Name\": \"c\", \"Type\": \"float\", \"MemoryType\": \"Scalar\",\n"
	"    \"MemType\": \"Constant\", \"FillValue\": 2}]}}";

START_TEST(test_t1_two_grids)
{
	for (int g = GS_T1_GRID_PROBLEM; g <= GS_T1_GRID_GLOBAL; g++) {
		struct gs_diag d = GS_DIAG_INIT;
		struct gs_buf out = GS_BUF_INIT;
		struct gs_t1_grid_info info;
		unsigned line, col;
		src = gs_source_new("t.json", two_grids_json, strlen(two_grids_json));
		int rc = gs_t1_to_space(src, (enum gs_t1_grid)g, &out, &info, &d);
		if (rc)
			dump(&d, gs_buf_str(&out));
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(d.n, 0);
		const char *kt = "(ProblemSize[0] + block_size_x - 1) // block_size_x, "
				 "(ProblemSize[1] + (tile * 2) - 1) // (tile * 2)";
		const char *gl = "(1000 + block_size_x - 1) // block_size_x, rows";
		ck_assert_ptr_nonnull(strstr(gs_buf_str(&out), "let ProblemSize = [1000, rows * 2] nodefine"));
		ck_assert_ptr_nonnull(strstr(gs_buf_str(&out), "input c float[1] value(2.0)"));
		ck_assert_ptr_nonnull(strstr(gs_buf_str(&out), "launch k(float(2.0)) copy c to c"));
		char *grid = gs_xasprintf("grid %s  # t1: KernelSpecification.%s", g ? gl : kt,
					  g ? "GlobalSize (OpenCL" : "ProblemSize (divided");
		ck_assert_ptr_nonnull(strstr(gs_buf_str(&out), grid));
		free(grid);
		ck_assert_int_eq(info.used, g);
		ck_assert_int_eq(info.nother, 2);
		struct gs_buf other = GS_BUF_INIT;
		gs_buf_printf(&other, "%s, %s", info.other[0], info.other[1]);
		ck_assert_str_eq(gs_buf_str(&other), g ? kt : gl);
		gs_buf_release(&other);
		gs_loc_linecol(info.global_loc, &line, &col);
		ck_assert_uint_eq(line, 7);
		ck_assert_uint_eq(col, 3);
		gs_loc_linecol(info.problem_loc, &line, &col);
		ck_assert_uint_eq(line, 6);
		gs_t1_grid_info_release(&info);
		gs_buf_release(&out);
		gs_diag_release(&d);
		gs_source_free(src);
		src = NULL;
	}
}
END_TEST

START_TEST(test_t1_malformed_json_is_positioned)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	unsigned line = 0, col = 0;
	char *s = convert("{\"ConfigurationSpace\": {\n"
			  "  \"TuningParameters\": [\n"
			  "    {\"Name\": \"A\", \"Values\": [1, 2,]}\n"
			  "  ]}}",
			  &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(d.errors, 1);
	ck_assert(has_msg(&d, GS_ERROR, "t1: invalid JSON: unexpected token near ']'", &line, &col));
	ck_assert_uint_eq(line, 3);
	ck_assert_uint_eq(col, 35);
	ck_assert_uint_eq(d.msgs[0].loc.len, 1);
	finish(s, &d);

	/* a token of several characters is underlined from its first one */
	s = convert("{\"a\": 1,\n \"b\": tru }", &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert(has_msg(&d, GS_ERROR, "invalid JSON", &line, &col));
	ck_assert_uint_eq(line, 2);
	ck_assert_uint_eq(col, 7);
	finish(s, &d);

	s = convert("{\"a\": [1,\n 2", &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert(has_msg(&d, GS_ERROR, "near end of file", &line, &col));
	ck_assert_uint_eq(line, 2);
	ck_assert_uint_eq(col, 3);
	finish(s, &d);

	/* Python would keep the second list silently: refused */
	s = convert("{\"ConfigurationSpace\": {\"Conditions\": [\"1\"],\n \"Conditions\": []}}", &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert(has_msg(&d, GS_ERROR, "duplicate object key", &line, &col));
	ck_assert_uint_eq(line, 2);
	ck_assert_uint_eq(col, 2);
	finish(s, &d);
}
END_TEST

START_TEST(test_t1_missing_configuration_space)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert("{\"KernelSpecification\": {}}", &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert(has_msg(&d, GS_ERROR, "t1: ConfigurationSpace: missing (an object with the "
			  "TuningParameters is required)", NULL, NULL));
	finish(s, &d);

	s = convert("[1, 2]", &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert(has_msg(&d, GS_ERROR, "top level must be an object", NULL, NULL));
	finish(s, &d);

	s = convert("{\"ConfigurationSpace\": {\"Conditions\": []}}", &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert(has_msg(&d, GS_ERROR, "t1: ConfigurationSpace.TuningParameters: missing (a list of "
			  "parameters is required)", NULL, NULL));
	finish(s, &d);
}
END_TEST

START_TEST(test_t1_bad_parameters_are_errors)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	unsigned line, col;
	char *s = convert("{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
			  "  {\"Name\": \"class\", \"Values\": [1]},\n"
			  "  {\"Name\": \"block-x\", \"Values\": [1]},\n"
			  "  {\"Name\": \"A\", \"Values\": [1]},\n"
			  "  {\"Name\": \"A\", \"Values\": [2]},\n"
			  "  {\"Name\": \"B\"},\n"
			  "  {\"Name\": \"C\", \"Values\": 5},\n"
			  "  {\"Name\": \"D\", \"Values\": \"[1, 2\"},\n"
			  "  {\"Name\": \"E\", \"Values\": [{\"x\": 1}]}],\n"
			  " \"Conditions\": [{\"Parameters\": [\"A\"]}, {\"Expression\": 3}, {\"Expression\": \" \"}]}}",
			  &d, &rc);
	ck_assert_int_eq(rc, -1);
	ck_assert(has_msg(&d, GS_ERROR, "parameter name 'class' is a Python keyword", &line, &col));
	ck_assert_uint_eq(line, 2);
	ck_assert_uint_eq(col, 12);
	ck_assert(has_msg(&d, GS_ERROR, "parameter name 'block-x' is not an identifier", &line, &col));
	ck_assert_uint_eq(line, 3);
	ck_assert(has_msg(&d, GS_ERROR, "duplicate parameter 'A'", &line, &col));
	ck_assert_uint_eq(line, 5);
	ck_assert(has_msg(&d, GS_ERROR, "t1: ConfigurationSpace.TuningParameters[4].Values: missing (a "
			  "list of values or an expression string is required)", NULL, NULL));
	ck_assert(has_msg(&d, GS_ERROR, "t1: ConfigurationSpace.TuningParameters[5].Values: expected a "
			  "list of values or an expression string, found a number", NULL, NULL));
	ck_assert(has_msg(&d, GS_ERROR, "unbalanced brackets in ConfigurationSpace.TuningParameters[6].Values",
			  &line, &col));
	ck_assert_uint_eq(line, 8);
	ck_assert_uint_eq(col, 27);
	ck_assert(has_msg(&d, GS_ERROR, "TuningParameters[7].Values[0]: expected a number, a string or "
			  "a boolean, found an object", NULL, NULL));
	ck_assert(has_msg(&d, GS_ERROR, "t1: ConfigurationSpace.Conditions[0].Expression: missing", NULL,
			  NULL));
	ck_assert(has_msg(&d, GS_ERROR, "Conditions[1].Expression: expected an expression string, found "
			  "a number", NULL, NULL));
	ck_assert(has_msg(&d, GS_ERROR, "ConfigurationSpace.Conditions[2].Expression: empty", NULL, NULL));
	ck_assert_uint_eq(d.errors, 10);
	finish(s, &d);
}
END_TEST

START_TEST(test_t1_unknown_fields_warn)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	unsigned line, col;
	char *s = convert("{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
			  "   {\"Name\": \"A\", \"Values\": [1], \"Unit\": \"ms\"}], \"Extra\": 1},\n"
			  " \"Search\": {\"Name\": \"Random\"},\n"
			  " \"KernelSpecification\": {\"KernelName\": \"k\", \"KernelFile\": \"k.cu\",\n"
			  "   \"Foo\": 1, \"Stream\": null, \"Arguments\": [\n"
			  "   {\"Name\": \"h\", \"Type\": \"half\", \"MemoryType\": \"Vector\", \"Size\": 4}]},\n"
			  " \"verification\": {}}",
			  &d, &rc);
	if (rc)
		dump(&d, s);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(d.errors, 0);
	ck_assert(has_msg(&d, GS_WARNING, "t1: cannot map KernelSpecification.Foo; ignored", &line, &col));
	ck_assert_uint_eq(line, 5);
	ck_assert_uint_eq(col, 4);
	ck_assert_uint_eq(d.msgs[0].loc.len > 0, 1);
	ck_assert(has_msg(&d, GS_WARNING, "cannot map ConfigurationSpace.TuningParameters[0].Unit", &line, &col));
	ck_assert_uint_eq(line, 2);
	ck_assert(has_msg(&d, GS_WARNING, "cannot map ConfigurationSpace.Extra", NULL, NULL));
	ck_assert(has_msg(&d, GS_WARNING, "Search ignored", &line, &col));
	ck_assert_uint_eq(line, 3);
	ck_assert(has_msg(&d, GS_WARNING, "cannot map verification", NULL, NULL));
	ck_assert(has_msg(&d, GS_WARNING, ".Type 'half'", NULL, NULL));
	ck_assert(has_msg(&d, GS_WARNING, "no launch statement", NULL, NULL));
	/* without LocalSize, the block Kernel Tuner would launch, said */
	ck_assert(has_msg(&d, GS_WARNING, "has no LocalSize; the block is Kernel Tuner's: 256, 1, 1",
			  NULL, NULL));
	ck_assert_uint_eq(d.warnings, 8);
	/* the parameter is still there; the launch is not */
	ck_assert_ptr_nonnull(strstr(s, "param A in [1]"));
	ck_assert_ptr_null(strstr(s, "launch"));
	finish(s, &d);
}
END_TEST

START_TEST(test_t1_baseline_needs_every_default)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert("{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
			  "  {\"Name\": \"A\", \"Values\": \"[1024]\", \"Default\": 1},\n"
			  "  {\"Name\": \"B\", \"Values\": [1, 2], \"Default\": 2}]}}",
			  &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert(has_msg(&d, GS_WARNING, "Default of 'A' is not one of its values; no baseline", NULL, NULL));
	ck_assert_ptr_null(strstr(s, "baseline"));
	finish(s, &d);

	s = convert("{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
		    "  {\"Name\": \"A\", \"Values\": [1, 2]},\n"
		    "  {\"Name\": \"B\", \"Values\": [\"u\", \"v\"], \"Default\": \"v\"},\n"
		    "  {\"Name\": \"C\", \"Values\": \"[i for i in range(3)]\", \"Default\": 7}]}}",
		    &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert(has_msg(&d, GS_WARNING, "parameter 'A' has no Default; no baseline", NULL, NULL));
	ck_assert_ptr_null(strstr(s, "baseline"));
	finish(s, &d);

	/* values that need Python to evaluate are trusted to hold the default */
	s = convert("{\"ConfigurationSpace\": {\"TuningParameters\": [\n"
		    "  {\"Name\": \"B\", \"Values\": [\"u\", \"v\"], \"Default\": \"v\"},\n"
		    "  {\"Name\": \"F\", \"Values\": [0.5, 1], \"Default\": 1.0},\n"
		    "  {\"Name\": \"C\", \"Type\": \"int\", \"Values\": \"[i for i in range(3)]\", \"Default\": \"2\"}]}}",
		    &d, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(d.errors, 0);
	ck_assert_uint_eq(d.warnings, 1); /* no KernelSpecification */
	ck_assert_ptr_nonnull(strstr(s, "\nbaseline B=\"v\", F=1, C=2  # t1: "
					"ConfigurationSpace.TuningParameters[*].Default\n"));
	finish(s, &d);
}
END_TEST

START_TEST(test_t1_older_camel_case_files)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert("{\"configurationSpace\": {\"tuningParameters\": [\n"
			  "  {\"name\": \"BS\", \"type\": \"int\", \"values\": \"list(range(32, 129, 32))\"}],\n"
			  "  \"constraints\": [\"BS != 64\"]},\n"
			  " \"kernelSpecification\": {\"language\": \"CUDA\", \"kernelName\": \"k\",\n"
			  "  \"kernelFile\": \"k.cu\", \"blockSize\": {\"X\": \"BS\", \"Y\": 1},\n"
			  "  \"gridSize\": {\"X\": \"(1000 + BS - 1) // BS\"}, \"shared_memory\": null,\n"
			  "  \"arguments\": [{\"name\": \"n\", \"type\": \"int\", \"memoryType\": \"scalar\", \"value\": 1000},\n"
			  "   {\"name\": \"v\", \"type\": \"double3\", \"length\": 1000, \"memoryType\": \"vector\","
			  "    \"accessType\": \"ReadWrite\", \"fillType\": \"uninitialized\"}]}}",
			  &d, &rc);
	if (rc || d.n)
		dump(&d, s);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_str_eq(s, HEADER
		"kernel k from \"k.cu\"  # t1: kernelSpecification.kernelName\n"
		"param BS in list(range(32, 129, 32))  # t1: configurationSpace.tuningParameters[0].values\n"
		"require BS != 64  # t1: configurationSpace.constraints[0]\n"
		"block BS, 1  # t1: kernelSpecification.blockSize\n"
		"grid (1000 + BS - 1) // BS  # t1: kernelSpecification.gridSize\n"
		"inout v double[1000 * 3] zero  # t1: kernelSpecification.arguments[1]\n"
		"launch k(1000, v)  # t1: kernelSpecification.arguments\n");
	finish(s, &d);
}
END_TEST

/* Kernel arguments are positional: an unusable name is replaced by a fresh
 * one, never one already taken. */
START_TEST(test_t1_argument_names_renamed)
{
	struct gs_diag d = GS_DIAG_INIT;
	int rc;
	char *s = convert("{\"ConfigurationSpace\": {\"TuningParameters\": [{\"Name\": \"arg2\", \"Values\": [1]}]},\n"
			  " \"KernelSpecification\": {\"KernelName\": \"k\", \"KernelFile\": \"k.cu\", \"Arguments\": [\n"
			  "  {\"Name\": \"in\", \"Type\": \"float\", \"Size\": 4, \"MemoryType\": \"Vector\"},\n"
			  "  {\"Name\": \"\u00e9\", \"Type\": \"float\", \"Size\": 4, \"MemoryType\": \"Vector\"},\n"
			  "  {\"Name\": \"arg2\", \"Type\": \"float\", \"Size\": 4, \"MemoryType\": \"Vector\"},\n"
			  "  {\"Type\": \"float\", \"Size\": 4, \"MemoryType\": \"Vector\"}]}}",
			  &d, &rc);
	if (rc)
		dump(&d, s);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(s, "\nlaunch k(arg0, arg1, arg2_2, arg3)  # t1: "));
	ck_assert(has_msg(&d, GS_WARNING, "argument name '\xc3\xa9' is not usable here; called 'arg1'", NULL, NULL));
	ck_assert(has_msg(&d, GS_WARNING, "argument name 'arg2' is not usable here; called 'arg2_2'", NULL, NULL));
	finish(s, &d);
}
END_TEST

/* Every sample of tests/t1 translates without errors. */
START_TEST(test_t1_samples_translate)
{
	char dir[512];
	const char *slash = strrchr(__FILE__, '/');
	snprintf(dir, sizeof dir, "%.*s/../t1", slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".");
	DIR *dp = opendir(dir);
	ck_assert_msg(dp != NULL, "cannot open %s", dir);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(dp))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		char *path = gs_xasprintf("%s/%s", dir, e->d_name);
		struct gs_diag d = GS_DIAG_INIT;
		struct gs_source *s = gs_source_load(path, &d);
		struct gs_buf out = GS_BUF_INIT;
		ck_assert_ptr_nonnull(s);
		int rc = gs_t1_to_space(s, GS_T1_GRID_PROBLEM, &out, NULL, &d);
		if (rc)
			dump(&d, gs_buf_str(&out));
		ck_assert_msg(rc == 0, "%s does not translate", path);
		ck_assert_ptr_nonnull(strstr(gs_buf_str(&out), "\nparam "));
		ck_assert_ptr_nonnull(strstr(gs_buf_str(&out), "\nlaunch "));
		gs_buf_release(&out);
		gs_diag_release(&d);
		gs_source_free(s);
		free(path);
		n++;
	}
	closedir(dp);
	ck_assert_int_ge(n, 4);
}
END_TEST

GS_TEST_MAIN(test_t1_values_arrays_and_strings, test_t1_conditions_every_form,
	     test_t1_kernel_cuda_sizes, test_t1_kernel_opencl_sizes, test_t1_problem_size_grid_div,
	     test_t1_two_grids,
	     test_t1_malformed_json_is_positioned, test_t1_missing_configuration_space,
	     test_t1_bad_parameters_are_errors, test_t1_unknown_fields_warn,
	     test_t1_baseline_needs_every_default, test_t1_older_camel_case_files,
	     test_t1_argument_names_renamed, test_t1_samples_translate)
