/* The one list of element classes and the one list of semirings. Everything that enumerates
 * them is made from these two X-macro tables: the ck_dtype and ck_semiring enums, the names, the
 * class checks of the entry points, the device dispatch (engine/dispatch.cuh), the explicit
 * instantiations of the kernel families, the CPU references' dispatch and the gateway's
 * mxArray classes. Adding a class or a semiring starts with one row here (doc/ARCHITECTURE.md has
 * the recipes).
 *
 * CK_CLASS_TABLE(X, a) calls X(a, ENUM, ctype, name, bytes, floating, product, MX) per class:
 *   name      Octave's name of the class, as a bare word (#name is the string)
 *   floating  1 for single and double
 *   product   1 where the semiring products and shortest paths take the class (64-bit integers
 *             have no exact wide type for their sums on the GPU)
 *   MX        the mxClassID is mx##MX##_CLASS
 * The `a` argument is handed to X unchanged, so that one expansion can carry a name along
 * (e.g. the runner an instantiation list instantiates). */
#ifndef CK_TABLES_H
#define CK_TABLES_H

#define CK_CLASS_TABLE(X, a)                         \
  X(a, CK_DOUBLE, double, double, 8, 1, 1, DOUBLE)   \
  X(a, CK_SINGLE, float, single, 4, 1, 1, SINGLE)    \
  X(a, CK_INT8, int8_t, int8, 1, 0, 1, INT8)         \
  X(a, CK_UINT8, uint8_t, uint8, 1, 0, 1, UINT8)     \
  X(a, CK_INT16, int16_t, int16, 2, 0, 1, INT16)     \
  X(a, CK_UINT16, uint16_t, uint16, 2, 0, 1, UINT16) \
  X(a, CK_INT32, int32_t, int32, 4, 0, 1, INT32)     \
  X(a, CK_UINT32, uint32_t, uint32, 4, 0, 1, UINT32) \
  X(a, CK_INT64, int64_t, int64, 8, 0, 0, INT64)     \
  X(a, CK_UINT64, uint64_t, uint64, 8, 0, 0, UINT64)

/* Expand x only where a table's 0/1 column is 1: CK_IF_##column(x). */
#define CK_IF_1(x) x
#define CK_IF_0(x)
#define CK_IF_NOT_1(x)
#define CK_IF_NOT_0(x) x

/* The classes the semiring products take, as a mask of (1u << ENUM) bits. */
#define CK_PRODUCT_BIT_(a, E, T, N, B, F, P, MX) | ((unsigned)(P) << (E))
#define CK_PRODUCT_CLASSES (0u CK_CLASS_TABLE(CK_PRODUCT_BIT_, _))

/* CK_SEMIRING_TABLE(X, a) calls X(a, ENUM, type, name, alias, classes, ADD, MUL) per semiring:
 *   type      its C++ type in engine/semiring.cuh
 *   name      the name users pass ("min.+"), alias the GraphBLAS spelling ("min.plus")
 *   classes   the mask of the classes it takes
 *   ADD, MUL  its add and its multiply as bare words, which name their forms in the CPU
 *             references (cpu_semiring.h: CK_CPU_PICK_##ADD, CK_CPU_MUL_##MUL, ...) */
#define CK_SEMIRING_TABLE(X, a) \
  X(a, CK_SR_MIN_PLUS, sr_min_plus, "min.+", "min.plus", CK_PRODUCT_CLASSES, MIN, PLUS)

#endif
