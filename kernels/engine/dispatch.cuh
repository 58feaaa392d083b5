/* Class dispatch from the one class table (ck_tables.h): a run-time ck_dtype onto a function
 * templated on the element type, instantiated only for the classes a mask allows. This replaces
 * the hand-written switches over classes of the kernel families. */
#ifndef CK_DISPATCH_CUH
#define CK_DISPATCH_CUH

#include <stdint.h>

#include "ck.h"
#include "semiring.cuh"

/* The element type of a class, as a value a generic lambda can take: f(ck_type<T>()) and then
 * `typedef typename decltype(tag)::type T;`. */
template <class T> struct ck_type { typedef T type; };

/* f(ck_type<T>()) for class t where MASK (bits 1u << ck_dtype) holds it; `otherwise` for a class
 * outside the mask (f is not even instantiated for it). */
template <unsigned MASK, class R, class F> static R ck_with_class(ck_dtype t, R otherwise, F f) {
  switch (t) {
#define CK_WITH_CLASS_CASE_(a, E, T, N, B, FL, P, L, MX)      \
  case E:                                                     \
    if constexpr ((MASK >> (E)) & 1u) return f(ck_type<T>()); \
    break;
    CK_CLASS_TABLE(CK_WITH_CLASS_CASE_, _)
#undef CK_WITH_CLASS_CASE_
  default: break;
  }
  return otherwise;
}

/* The classes semiring SR takes (its row of ck_tables.h), as ck_with_class's mask. */
template <class SR> struct sr_classes;
#define CK_SR_CLASSES_(a, E, TYPE, NAME, ALIAS, CLASSES, ADD, MUL) \
  template <> struct sr_classes<TYPE> { static constexpr unsigned mask = CK_CLASSES(CLASSES); };
CK_SEMIRING_TABLE(CK_SR_CLASSES_, _)
#undef CK_SR_CLASSES_

/* f(ck_type<SR>()) for semiring s, its type in semiring.cuh; `otherwise` for an unknown one. */
template <class R, class F> static R ck_with_semiring(ck_semiring s, R otherwise, F f) {
  switch (s) {
#define CK_WITH_SEMIRING_CASE_(a, E, TYPE, NAME, ALIAS, CLASSES, ADD, MUL) \
  case E: return f(ck_type<TYPE>());
    CK_SEMIRING_TABLE(CK_WITH_SEMIRING_CASE_, _)
#undef CK_WITH_SEMIRING_CASE_
  default: break;
  }
  return otherwise;
}

#endif
