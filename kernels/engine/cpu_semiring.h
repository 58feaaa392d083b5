/* The semirings' arithmetic for the CPU references (kernels/semiring/minplus_cpu.c,
 * kernels/apsp/apsp_cpu.c), in C. Written apart from engine/semiring.cuh, the GPU's, so that the
 * references stay an independent check of it. Each semiring's row in ck_tables.h names its add
 * and its multiply (ADD, MUL); their forms here are:
 *   CK_CPU_PICK_<ADD>(v, t)     the add of accumulator v and term t; floating point ignores a NaN
 *                               term, and a NaN v takes t (so only all-NaN terms leave NaN), as
 *                               Octave's min and max do
 *   CK_CPU_BETTER_<ADD>(t, v)   t strictly better than v (the witness keeps the first best term;
 *                               a NaN v is beaten by any term that is not NaN)
 *   CK_CPU_EMPTY_<ADD>(LO, HI)  the add's identity in a class whose values run from LO to HI
 *                               (floating point: -Inf to Inf): the result of k = 0, "no path"
 *   CK_CPU_MUL_<MUL>(a, b)      the multiply of two terms (integers: in a wide type that holds it
 *                               exactly; the references saturate it to the class after)
 *   CK_CPU_UNIT_<MUL>(LO, HI)   the multiply's identity, the empty path, in a class whose values
 *                               run from LO to HI (floating point: -Inf to Inf): min's and max's
 *                               are their identities as adds */
#ifndef CK_CPU_SEMIRING_H
#define CK_CPU_SEMIRING_H

#define CK_CPU_PICK_MIN(v, t) ((t) < (v) || (v) != (v) ? (t) : (v))
#define CK_CPU_BETTER_MIN(t, v) ((t) < (v) || ((v) != (v) && (t) == (t)))
#define CK_CPU_EMPTY_MIN(LO, HI) (HI)

#define CK_CPU_PICK_MAX(v, t) ((t) > (v) || (v) != (v) ? (t) : (v))
#define CK_CPU_BETTER_MAX(t, v) ((t) > (v) || ((v) != (v) && (t) == (t)))
#define CK_CPU_EMPTY_MAX(LO, HI) (LO)

#define CK_CPU_MUL_PLUS(a, b) ((a) + (b))
/* min and max as multiplies ignore a NaN operand, as Octave's min (a, b) and max (a, b) do */
#define CK_CPU_MUL_MIN(a, b) ((b) < (a) || (a) != (a) ? (b) : (a))
#define CK_CPU_MUL_MAX(a, b) ((b) > (a) || (a) != (a) ? (b) : (a))
#define CK_CPU_MUL_TIMES(a, b) ((a) * (b))
#define CK_CPU_UNIT_PLUS(LO, HI) 0
#define CK_CPU_UNIT_MIN(LO, HI) CK_CPU_EMPTY_MIN(LO, HI)
#define CK_CPU_UNIT_MAX(LO, HI) CK_CPU_EMPTY_MAX(LO, HI)
#define CK_CPU_UNIT_TIMES(LO, HI) 1

/* An integer class T's bounds, and a wide type for its terms (by its size B in bytes). */
#define CK_CPU_SIGNED(T) (!((T) ~(T)0 > 0)) /* all ones is -1: a test no compiler warns of */
#define CK_CPU_HI(T) (CK_CPU_SIGNED(T) ? (T)(((uint64_t)1 << (8 * sizeof(T) - 1)) - 1) : (T) ~(T)0)
#define CK_CPU_LO(T) (CK_CPU_SIGNED(T) ? (T)(-CK_CPU_HI(T) - 1) : (T)0)
#define CK_CPU_WIDE_1 int
#define CK_CPU_WIDE_2 int
#define CK_CPU_WIDE_4 int64_t
#define CK_CPU_WIDE_8 int64_t

/* CK_CPU_EACH(X): X(SE, ADD, MUL, E, T, B, F) for every semiring and every class it takes
 * (ck_tables.h): the references' instantiation lists and dispatch tables. */
#define CK_CPU_CALL_(m, args) m args
#define CK_CPU_UNPACK_(X, SE, ADD, MUL, W) X, SE, ADD, MUL
#define CK_CPU_WORD_(X, SE, ADD, MUL, W) W
#define CK_CPU_TAKES_(x, F, P, L) CK_CPU_CALL_(CK_CPU_TAKES2_, (CK_CPU_WORD_ x, F, P, L))
#define CK_CPU_TAKES2_(W, F, P, L) CK_TAKES_##W(F, P, L)
#define CK_CPU_CLASS_(x, E, T, N, B, F, P, L, MX) \
  CK_IF(CK_CPU_TAKES_(x, F, P, L))(CK_CPU_CALL_(CK_CPU_APPLY_, (CK_CPU_UNPACK_ x, E, T, B, F)))
#define CK_CPU_APPLY_(X, SE, ADD, MUL, E, T, B, F) X(SE, ADD, MUL, E, T, B, F)
#define CK_CPU_SEMIRING_(X, SE, TYPE, NAME, ALIAS, CLASSES, ADD, MUL) \
  CK_CLASS_TABLE(CK_CPU_CLASS_, (X, SE, ADD, MUL, CLASSES))
#define CK_CPU_EACH(X) CK_SEMIRING_TABLE(CK_CPU_SEMIRING_, X)

/* CK_CPU_EACH_NUMERIC(X): the same without logical, the class of or.and alone: the semirings
 * whose weights are numbers (the all-pairs paths). */
#define CK_CPU_NUMERIC_(x, E, T, N, B, F, P, L, MX) \
  CK_IF_##P(CK_CPU_CLASS_(x, E, T, N, B, F, P, L, MX))
#define CK_CPU_SEMIRING_NUMERIC_(X, SE, TYPE, NAME, ALIAS, CLASSES, ADD, MUL) \
  CK_CLASS_TABLE(CK_CPU_NUMERIC_, (X, SE, ADD, MUL, CLASSES))
#define CK_CPU_EACH_NUMERIC(X) CK_SEMIRING_TABLE(CK_CPU_SEMIRING_NUMERIC_, X)

#endif
