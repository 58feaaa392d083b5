/* The one list of element classes and the one list of semirings. Everything that enumerates
 * them is made from these two X-macro tables: the ck_dtype and ck_semiring enums, the names, the
 * class checks of the entry points, the device dispatch (engine/dispatch.cuh), the explicit
 * instantiations of the kernel families, the CPU references' dispatch and the gateway's
 * mxArray classes. Adding a class or a semiring starts with one row here (doc/ARCHITECTURE.md has
 * the recipes).
 *
 * CK_CLASS_TABLE(X, a) calls X(a, ENUM, ctype, name, bytes, floating, product, logical, MX) per
 * class:
 *   name      Octave's name of the class, as a bare word (#name is the string)
 *   floating  1 for single and double
 *   product   1 where the numeric semiring products and shortest paths take the class (64-bit
 *             integers have no exact wide type for their sums on the GPU)
 *   logical   1 for logical, the boolean product's class (one byte per element, 0 or 1)
 *   MX        the mxClassID is mx##MX##_CLASS
 * The `a` argument is handed to X unchanged, so that one expansion can carry a name along
 * (e.g. the runner an instantiation list instantiates). */
#ifndef CK_TABLES_H
#define CK_TABLES_H

#define CK_CLASS_TABLE(X, a)                            \
  X(a, CK_DOUBLE, double, double, 8, 1, 1, 0, DOUBLE)   \
  X(a, CK_SINGLE, float, single, 4, 1, 1, 0, SINGLE)    \
  X(a, CK_INT8, int8_t, int8, 1, 0, 1, 0, INT8)         \
  X(a, CK_UINT8, uint8_t, uint8, 1, 0, 1, 0, UINT8)     \
  X(a, CK_INT16, int16_t, int16, 2, 0, 1, 0, INT16)     \
  X(a, CK_UINT16, uint16_t, uint16, 2, 0, 1, 0, UINT16) \
  X(a, CK_INT32, int32_t, int32, 4, 0, 1, 0, INT32)     \
  X(a, CK_UINT32, uint32_t, uint32, 4, 0, 1, 0, UINT32) \
  X(a, CK_INT64, int64_t, int64, 8, 0, 0, 0, INT64)     \
  X(a, CK_UINT64, uint64_t, uint64, 8, 0, 0, 0, UINT64) \
  X(a, CK_LOGICAL, uint8_t, logical, 1, 0, 0, 1, LOGICAL)

/* Expand x only where a table's 0/1 column is 1: CK_IF_##column(x). */
#define CK_IF_1(x) x
#define CK_IF_0(x)
#define CK_IF_NOT_1(x)
#define CK_IF_NOT_0(x) x

/* Which classes a semiring takes (its row's `classes` word below), per class row and as a mask
 * of (1u << ENUM) bits: CK_TAKES_<word>(F, P, L) is 0 or 1 from the row's columns, and
 * CK_CLASSES(word) the mask. CK_IF(b)(x) expands x where b expands to 1. */
#define CK_TAKES_PRODUCT(F, P, L) P /* every class with exact wide sums */
#define CK_TAKES_FLOAT(F, P, L) F   /* single and double: products of reals (max.*) */
#define CK_TAKES_LOGICAL(F, P, L) L /* logical: the boolean product */
#define CK_IF(b) CK_IF_CAT_(b)
#define CK_IF_CAT_(b) CK_IF_##b
#define CK_CLASS_BIT_(w, E, T, N, B, F, P, L, MX) | ((unsigned)(CK_TAKES_##w(F, P, L)) << (E))
#define CK_CLASSES(w) (0u CK_CLASS_TABLE(CK_CLASS_BIT_, w))
/* The classes the numeric products take. */
#define CK_PRODUCT_CLASSES CK_CLASSES(PRODUCT)

/* CK_SEMIRING_TABLE(X, a) calls X(a, ENUM, type, name, alias, classes, ADD, MUL) per semiring:
 *   type      its C++ type in engine/semiring.cuh
 *   name      the name users pass ("min.+"), alias the GraphBLAS spelling ("min.plus")
 *   classes   which classes it takes, a word of CK_TAKES_<word> above: PRODUCT (every class
 *             with exact wide terms), FLOAT (max.*: integer products overflow every wide type
 *             and saturate at once, so only single and double), LOGICAL (or.and)
 *   ADD, MUL  its add and its multiply as bare words, which name their forms in the CPU
 *             references (cpu_semiring.h: CK_CPU_PICK_##ADD, CK_CPU_MUL_##MUL, ...)
 * New rows go at the end: the enum's values are the gateway's. or.and runs on logical as max.min
 * of 0 and 1, bit-packed on the GPU (kernels/boolean). */
#define CK_SEMIRING_TABLE(X, a)                                                \
  X(a, CK_SR_MIN_PLUS, sr_min_plus, "min.+", "min.plus", PRODUCT, MIN, PLUS)   \
  X(a, CK_SR_MAX_PLUS, sr_max_plus, "max.+", "max.plus", PRODUCT, MAX, PLUS)   \
  X(a, CK_SR_MAX_MIN, sr_max_min, "max.min", "max.min", PRODUCT, MAX, MIN)     \
  X(a, CK_SR_MIN_MAX, sr_min_max, "min.max", "min.max", PRODUCT, MIN, MAX)     \
  X(a, CK_SR_MAX_TIMES, sr_max_times, "max.*", "max.times", FLOAT, MAX, TIMES) \
  X(a, CK_SR_OR_AND, sr_or_and, "or.and", "lor.land", LOGICAL, MAX, MIN)

#endif
