/*
 * procaddr_table.c - the table of libcuemu's entry points, made from the
 * one list (procaddr_list.h): each export is declared here only to take
 * its address, so this file must not see cuda.h, whose macros would turn
 * a name into another export (see procaddr.h).
 *
 * Locking: constant data.
 */
#include "driver/procaddr.h"

/* Declarations for the address only; the types are in cuda.h. */
#define E(name, version, sym) void sym(void);
#define PT E
#include "driver/procaddr_list.h"
#undef E
#undef PT

const struct cuemu_export cuemu_exports[] = {
#define E(name, version, sym) { #name, version, 0, sym },
#define PT(name, version, sym) { #name, version, 1, sym },
#include "driver/procaddr_list.h"
#undef E
#undef PT
};

const size_t cuemu_nexports = sizeof cuemu_exports / sizeof cuemu_exports[0];
