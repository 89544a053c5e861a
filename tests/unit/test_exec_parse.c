/*
 * test_exec_parse.c - PTX text to the engine's compact form: what a module
 * says of its kernels and variables, and each refusal (EX_INVALID_PTX,
 * EX_UNSUPPORTED_PTX, EX_NO_BINARY_FOR_GPU, EX_UNSUPPORTED) with the line
 * and the instruction named in the log.
 */
#include "tap.h"
#include "exec_mock.h"

#define HEAD ".version 9.0\n.target sm_90\n.address_size 64\n"

static enum ex_status parse(const char *text, int sm, struct ex_module **m,
			    char *log, size_t logsz)
{
	return ex_module_parse(text, strlen(text), sm, m, log, logsz);
}

/* A refusal: its status, and the log names what it should. */
static void refused(const char *text, enum ex_status want, const char *says,
		    const char *what)
{
	struct ex_module *m = (struct ex_module *)1;
	char log[256];
	enum ex_status st = parse(text, 90, &m, log, sizeof log);

	if (!ok(st == want && m == NULL && strstr(log, says), "%s", what))
		printf("#   status %d, log '%s', want %d and '%s'\n", st, log,
		       want, says);
	ex_module_free(st == EX_OK ? m : NULL);
}

static void test_header(void)
{
	struct ex_module *m;
	char log[256];

	refused("", EX_INVALID_PTX, "line 1: no PTX", "empty text: EX_INVALID_PTX");
	refused("\x7f" "ELF\x02\x01", EX_INVALID_PTX, ".version expected",
		"an ELF image is not PTX");
	refused(".version 9.1\n.target sm_90\n", EX_UNSUPPORTED_PTX,
		".version 9.1 is newer than 9.0",
		".version 9.1: EX_UNSUPPORTED_PTX");
	refused(".version 10.0\n.target sm_90\n", EX_UNSUPPORTED_PTX, "line 1:",
		".version 10.0: EX_UNSUPPORTED_PTX, on its line");
	refused(".version 9.0\n.target sm_100\n", EX_NO_BINARY_FOR_GPU,
		"line 2: .target sm_100 is not for sm_90",
		".target above the device: EX_NO_BINARY_FOR_GPU");
	refused(".version 9.0\n.target sm_80a\n", EX_NO_BINARY_FOR_GPU,
		"sm_80a", "an architecture-specific target of another GPU");
	refused(".version 9.0\n.target sm_90\n.address_size 32\n",
		EX_UNSUPPORTED, ".address_size 32", ".address_size 32 is not run");
	is_int(parse(".version 8.0\n.target sm_52\n.address_size 64\n", 90, &m,
		     log, sizeof log), EX_OK,
	       "older PTX for an older target loads (the JIT compiles it)");
	is_int(ex_module_kernel_count(m), 0, "a module of no kernels has none");
	ex_module_free(m);
	is_int(parse(".version 9.0\n.target sm_90a\n.address_size 64\n", 90, &m,
		     log, sizeof log), EX_OK, "sm_90a on sm_90 loads");
	ex_module_free(m);
	/* the text is len bytes: a NUL inside ends it */
	is_int(ex_module_parse(HEAD "\0garbage", sizeof HEAD + 7, 90, &m, log,
			       sizeof log), EX_OK, "a NUL ends the text");
	ex_module_free(m);
}

static const char kernel_text[] = HEAD
	".global .align 4 .b8 gv[12] = {1, 0, 0, 0, 2};\n"
	".global .attribute(.managed) .align 8 .u64 mv;\n"
	".const .align 4 .f32 cv[2] = {0f3FC00000, 0f40200000};\n"
	".extern .global .align 4 .u32 ext;\n"
	".shared .align 16 .b8 tile[1000];\n"
	".visible .entry k(\n"
	"\t.param .u32 k_param_0,\n"
	"\t.param .u64 .ptr .global .align 8 k_param_1,\n"
	"\t.param .align 16 .b8 k_param_2[24]\n"
	")\n"
	".maxntid 128, 2, 1\n"
	"{\n"
	"\t.local .align 8 .b8 __local_depot0[40];\n"
	"\t.reg .b32 %r<4>;\n"
	"\t.reg .pred %p<2>;\n"
	"\tld.param.u32 %r1, [k_param_0];\n"
	"\tsetp.eq.s32 %p1, %r1, 0;\n"
	"\t@%p1 bra $L__done;\n"
	"\tadd.s32 %r2, %r1, -1;\n"
	"\tmov.u32 %r3, tile;\n"
	"$L__done:\n"
	"\tret;\n"
	"}\n"
	".entry k2()\n.reqntid 64\n{\n\tret;\n}\n";

static void test_facts(void)
{
	struct ex_module *m;
	const struct ex_kernel_info *k;
	const struct ex_var_info *v;
	char log[256];

	if (!ok(parse(kernel_text, 90, &m, log, sizeof log) == EX_OK,
		"a module of two kernels and four variables parses")) {
		printf("#   %s\n", log);
		return;
	}
	is_int(ex_module_kernel_count(m), 2, "two kernels");
	is_int(ex_module_find_kernel(m, "k2"), 1, "found by name");
	is_int(ex_module_find_kernel(m, "k3"), -1, "an unknown name is -1");
	k = ex_module_kernel(m, 0);
	ok(!strcmp(k->name, "k"), "the first is k");
	is_int(k->nparams, 3, "k has three parameters");
	ok(k->params[0].offset == 0 && k->params[0].size == 4 &&
	   k->params[1].offset == 8 && k->params[1].size == 8 &&
	   k->params[2].offset == 16 && k->params[2].size == 24 &&
	   k->params[2].align == 16,
	   "each at its alignment: 0/4, 8/8, 16/24 aligned 16");
	is_int(k->param_bytes, 40, "40 bytes of parameters");
	is_int(k->shared_static_bytes, 1000, "1000 bytes of the static shared memory it names");
	is_int(ex_module_kernel(m, 1)->shared_static_bytes, 0,
	       "k2 names none: its shared memory is its own, 0 bytes");
	is_int(k->registers, 4, "k's estimate: its four 32-bit registers (predicates aside)");
	is_int(k->local_bytes, 40, "a local depot of 40 bytes");
	ok(k->maxntid[0] == 128 && k->maxntid[1] == 2 && k->maxntid[2] == 1,
	   ".maxntid 128, 2, 1");
	is_int(ex_module_kernel(m, 1)->reqntid[0], 64, "k2: .reqntid 64");
	ok(ex_module_kernel(m, 2) == NULL, "no third kernel");

	is_int(ex_module_var_count(m), 4, "four variables in device memory");
	v = ex_module_var(m, ex_module_find_var(m, "gv"));
	ok(v && v->size == 12 && v->align == 4 && v->space == EX_VAR_GLOBAL &&
	   v->init && v->init[0] == 1 && v->init[4] == 2 && v->init[8] == 0,
	   "gv: 12 bytes, its initializer, zeros after it");
	v = ex_module_var(m, ex_module_find_var(m, "mv"));
	ok(v && v->managed && v->size == 8 && !v->init, "mv: managed, no initializer");
	v = ex_module_var(m, ex_module_find_var(m, "cv"));
	ok(v && v->space == EX_VAR_CONST && v->init &&
	   !memcmp(v->init, (float[]){ 1.5f, 2.5f }, 8), "cv: a .const of two floats");
	v = ex_module_var(m, ex_module_find_var(m, "ext"));
	ok(v && v->external, "ext: .extern");
	is_int(ex_module_find_var(m, "tile"), -1, ".shared is the engine's, not the loader's");
	ex_module_free(m);
}

static void test_refusals(void)
{
	refused(HEAD ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tfrob.b32 %r1, %r0;\n}\n",
		EX_UNSUPPORTED, "line 7: the instruction 'frob'",
		"an unknown instruction: EX_UNSUPPORTED, named with its line");
	refused(HEAD ".entry k()\n{\n\t.reg .b16 %h<2>;\n\t.reg .b32 %r<2>;\n"
		"\tatom.shared.max.f16 %h1, [%r0], %h0;\n}\n",
		EX_UNSUPPORTED, "half-precision", "f16 atomics other than add: "
		"EX_UNSUPPORTED");
	refused(HEAD ".entry k()\n{\n\t.reg .b16 %h<2>;\n\t.reg .b32 %r<2>;\n"
		"\tatom.shared.add.u16 %h1, [%r0], %h0;\n}\n",
		EX_INVALID_PTX, "16-bit atomic", "a 16-bit integer add: "
		"EX_INVALID_PTX, only cas.b16 is one");
	refused(HEAD ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.s32 %r1, %r9, 1;\n}\n",
		EX_INVALID_PTX, "line 7: undeclared register '%r9'",
		"an undeclared register: EX_INVALID_PTX");
	refused(HEAD ".entry k()\n{\n\tbra $L__nowhere;\n}\n", EX_INVALID_PTX,
		"undefined label '$L__nowhere'", "a branch to no label");
	refused(HEAD ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.s32 %r1, %r0 1;\n}\n",
		EX_INVALID_PTX, "line 7: expected ','", "a missing comma");
	refused(HEAD ".entry k()\n{\n\tret;\n", EX_INVALID_PTX, "'}' expected",
		"an unterminated body");
	refused(HEAD ".entry k()\n{\n\tret;\n}\n.entry k()\n{\n\tret;\n}\n",
		EX_INVALID_PTX, "'k' defined twice", "a kernel defined twice");
	refused(HEAD ".extern .func f(.param .b32 a);\n.entry k()\n{\n"
		"\t.param .b32 p;\n\tcall.uni f, (p);\n}\n", EX_INVALID_PTX,
		"unresolved extern function 'f'", "a call of an undefined function");
	refused(HEAD ".entry k()\n{\n\t.reg .b32 %r<2>;\n"
		"\ttex.1d.v4.f32.s32 {%r0, %r0, %r0, %r0}, [t, {%r1}];\n}\n",
		EX_UNSUPPORTED, "a texture or surface reference ('t')",
		"a texture reference (a name, not an object's handle): EX_UNSUPPORTED");
	refused(HEAD ".global .u32 a = {1, 2};\n", EX_INVALID_PTX,
		"too many initializers", "an initializer longer than its variable");
	refused(HEAD ".global .u64 p = generic(a);\n", EX_UNSUPPORTED,
		"an address initializer", "an address initializer: EX_UNSUPPORTED");
	refused(HEAD ".global .u32 v = 1;\n.global .u64 p = v;\n",
		EX_UNSUPPORTED, "an address initializer ('v') that is not a "
		"function", "a variable's address in an initializer");
	refused(HEAD ".func f()\n{\n\tret;\n}\n.global .u32 t[1] = {f};\n",
		EX_INVALID_PTX, "a function's address in a 4-byte element",
		"a function's address in 32 bits");
	refused(HEAD ".func f()\n{\n\tret;\n}\n.entry k()\n{\n"
		"\t.reg .b32 %r<2>;\n\tmov.u32 %r0, f;\n}\n", EX_INVALID_PTX,
		"a function's name where a 64-bit mov", "a 32-bit mov of a "
		"function's address");
	refused(HEAD ".entry k()\n{\n\t.reg .b32 %r<2>;\n"
		"\tcall %r0, (), p;\n}\n", EX_INVALID_PTX, "nor a 64-bit "
		"register", "a call through a 32-bit register");
	refused(HEAD ".func f()\n{\n\tret;\n}\n.entry k()\n{\n"
		"\tcall f, (), p;\n}\n", EX_INVALID_PTX, "a prototype after a "
		"direct call", "a prototype named by a direct call");
	refused(HEAD ".extern .func (.param .b64 r) malloc(.param .b64 s);\n"
		".entry k()\n{\n\t.param .b32 a;\n\t.param .b64 r;\n"
		"\tcall.uni (r), malloc, (a);\n}\n", EX_INVALID_PTX,
		"call of 'malloc' with the wrong parameters",
		"malloc with a 32-bit size");
	refused(HEAD ".extern .func free(.param .b64 p);\n"
		".entry k()\n{\n\t.param .b64 a;\n\t.param .b64 r;\n"
		"\tcall.uni (r), free, (a);\n}\n", EX_INVALID_PTX,
		"call of 'free' with the wrong parameters",
		"free with a result");

	/* the log is truncated to its size, NUL-terminated */
	struct ex_module *m;
	char log[12];
	memset(log, 'x', sizeof log);
	parse(HEAD ".entry k()\n{\n\tfrob;\n}\n", 90, &m, log, sizeof log);
	ok(log[sizeof log - 1] == '\0' && !strncmp(log, "line 6: ", 8),
	   "a short log gets the start of the line, terminated");
	is_int(parse(HEAD ".entry k()\n{\n\tfrob;\n}\n", 90, &m, NULL, 0),
	       EX_UNSUPPORTED, "no log: the status alone");
}

/* A function calling itself, and two calling each other, load: their
 * frames are test_exec_stack's. */
static void test_recursion(void)
{
	static const char *const texts[] = {
		HEAD ".func f()\n{\n\tcall.uni f, ();\n\tret;\n}\n"
		".entry k()\n{\n\tcall.uni f, ();\n\tret;\n}\n",
		HEAD ".func g();\n.func f()\n{\n\tcall.uni g, ();\n\tret;\n}\n"
		".func g()\n{\n\tcall.uni f, ();\n\tret;\n}\n"
		".entry k()\n{\n\tcall.uni g, ();\n\tret;\n}\n",
	};
	for (int i = 0; i < 2; i++) {
		struct ex_module *m = NULL;
		char log[256] = "";
		enum ex_status st = parse(texts[i], 90, &m, log, sizeof log);
		ok(st == EX_OK, "%s recursion loads (%s)", i ? "mutual" : "direct", log);
		ex_module_free(st == EX_OK ? m : NULL);
	}
}

/* A function reached only through its address in a table (a vtable's
 * destructor that frees, declared before the table and defined after it,
 * as nvcc orders them): its address is in the table's initializer, and
 * the kernel that calls through the table uses the heap, as the one that
 * does not call does not. */
static void test_indirect(void)
{
	static const char text[] = HEAD
		".extern .func free(.param .b64 p);\n"
		".func d(.param .b64 p);\n"
		".global .align 8 .u64 vt[2] = {0, d};\n"
		".func d(.param .b64 p)\n{\n\t.reg .b64 %rd<2>;\n"
		"\tld.param.u64 %rd0, [p];\n\t{\n\t.param .b64 q;\n"
		"\tst.param.b64 [q], %rd0;\n\tcall.uni free, (q);\n\t}\n"
		"\tret;\n}\n"
		".entry k(.param .u64 a)\n{\n\t.reg .b64 %rd<3>;\n"
		"\tld.param.u64 %rd0, [a];\n\tmov.u64 %rd1, vt;\n"
		"\tld.global.u64 %rd2, [%rd1+8];\n\t{\n\t.param .b64 q;\n"
		"\tst.param.b64 [q], %rd0;\n"
		"\tproto : .callprototype ()_ (.param .b64 _);\n"
		"\tcall %rd2, (q), proto;\n\t}\n\tret;\n}\n"
		".entry plain()\n{\n\tret;\n}\n";
	struct ex_module *m = NULL;
	char log[256] = "";
	enum ex_status st = parse(text, 90, &m, log, sizeof log);
	const struct ex_var_info *v;
	uint64_t slot[2] = { 1, 0 };

	if (!ok(st == EX_OK, "an indirect call through a vtable loads (%s)",
		log))
		return;
	v = ex_module_var(m, ex_module_find_var(m, "vt"));
	if (v && v->init)
		memcpy(slot, v->init, sizeof slot);
	ok(slot[0] == 0 && slot[1] != 0 && slot[1] % 8 == 0,
	   "the table holds 0 and the function's address, 8-aligned");
	ok(ex_module_kernel(m, ex_module_find_kernel(m, "k"))->uses_heap,
	   "the kernel calling through it uses the heap");
	ok(!ex_module_kernel(m, ex_module_find_kernel(m, "plain"))->uses_heap,
	   "a kernel that calls nothing does not");
	ex_module_free(m);
}

int main(void)
{
	test_header();
	test_recursion();
	test_indirect();
	test_facts();
	test_refusals();
	return done_testing();
}
