/* Class dispatch from the one class table (ck_tables.h): a run-time ck_dtype onto a function
 * templated on the element type, instantiated only for the classes a mask allows. This replaces
 * the hand-written switches over classes of the kernel families. */
#ifndef CK_DISPATCH_CUH
#define CK_DISPATCH_CUH

#include <stdint.h>

#include "ck.h"

/* The element type of a class, as a value a generic lambda can take: f(ck_type<T>()) and then
 * `typedef typename decltype(tag)::type T;`. */
template <class T> struct ck_type { typedef T type; };

/* f(ck_type<T>()) for class t where MASK (bits 1u << ck_dtype) holds it; `otherwise` for a class
 * outside the mask (f is not even instantiated for it). */
template <unsigned MASK, class R, class F> static R ck_with_class(ck_dtype t, R otherwise, F f) {
  switch (t) {
#define CK_WITH_CLASS_CASE_(a, E, T, N, B, FL, P, MX)         \
  case E:                                                     \
    if constexpr ((MASK >> (E)) & 1u) return f(ck_type<T>()); \
    break;
    CK_CLASS_TABLE(CK_WITH_CLASS_CASE_, _)
#undef CK_WITH_CLASS_CASE_
  default: break;
  }
  return otherwise;
}

#endif
