"""PDFium's per-object and per-character calls, typed with plain C types.

pypdfium2's bindings type every handle as a pointer to an opaque struct, so each call builds a
typed pointer object for its result; reading a page's ~3,000 objects and ~1,000 words pays that
thousands of times. The same functions, at the same addresses, declared with `c_void_p` handles
(plain ints) take a quarter to a third less time (benchmarks/bench_pdf_ingest.py). They are declared
as `PYFUNCTYPE` too: such a call keeps the GIL instead of giving it up and taking it back, a fifth
less again for these getters of a few nanoseconds (the reader runs on one thread; nothing waits for
the GIL meanwhile). Only the declared types differ; PDFium is called exactly as before.

The calls made for every word (`char_origin`, `char_box`) and every page object (`get_object`), and
`object_bounds`, declare no argument types at all: the caller passes ready ctypes objects (the page,
text page or object as `argument`, the out-parameters as `out_at` addresses into one array) and the index as a
Python int, which ctypes passes as a C int, as PDFium takes it. Checking and converting the arguments
was most of a call's cost (a page of 300 words: 0.47 -> 0.30 ms; an object: 257 -> 165 ns). Pass
anything else and PDFium reads garbage: they are called from words.py and page.py alone.

The handles and out-parameters these untyped calls take are made once a page as ctypes' own argument
objects (`argument`, `out_at`: what `c_void_p.from_param` and `byref` return), which ctypes copies
into the call as they are; a `c_void_p` instance is turned into a new such object on every call
(a word's two calls: 1.67 -> 1.27 us).
"""

from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass
from typing import Any, Callable

_HANDLE, _INT, _FLOAT, _DOUBLE = ctypes.c_void_p, ctypes.c_int, ctypes.c_float, ctypes.c_double


def _retyped(function: Any, result: Any, *arguments: Any) -> Callable[..., Any]:
    address = ctypes.cast(function, _HANDLE).value
    return ctypes.PYFUNCTYPE(result, *arguments)(address)


def _untyped(function: Any, result: Any) -> Callable[..., Any]:
    """The function with its result type only: arguments go as given (see the module docstring)."""
    return _retyped(function, result)


@dataclass(frozen=True)
class Calls:
    """The calls made per object and per character, declared as the module docstring says."""

    count_objects: Callable[..., int]  # (page: a c_void_p or its address)
    get_object: Callable[..., int]  # (page as `argument`, index): untyped, see the module docstring
    object_type: Callable[[int], int]
    object_bounds: Callable[..., int]  # (object as `argument`, left, bottom, right, top as `out_at` c_floats)
    char_origin: Callable[..., int]
    char_box: Callable[..., int]
    font_size: Callable[..., float]  # (text page: a c_void_p or its address, index)
    char_angle: Callable[..., float]  # (text page, index): radians, counterclockwise; -1 when unknown
    path_type: int


@functools.cache
def calls(raw: Any) -> Calls:
    return Calls(
        count_objects=_retyped(raw.FPDFPage_CountObjects, _INT, _HANDLE),
        get_object=_untyped(raw.FPDFPage_GetObject, _HANDLE),  # (page, index) -> the object's address
        object_type=_retyped(raw.FPDFPageObj_GetType, _INT, _HANDLE),
        object_bounds=_untyped(raw.FPDFPageObj_GetBounds, _INT),
        char_origin=_untyped(raw.FPDFText_GetCharOrigin, _INT),  # (page, index, x, y)
        char_box=_untyped(raw.FPDFText_GetCharBox, _INT),  # (page, index, left, right, bottom, top)
        font_size=_retyped(raw.FPDFText_GetFontSize, _DOUBLE, _HANDLE, _INT),
        char_angle=_retyped(raw.FPDFText_GetCharAngle, _FLOAT, _HANDLE, _INT),
        path_type=raw.FPDF_PAGEOBJ_PATH,
    )


def handle(pointer: Any) -> int:
    """A PDFium handle (an address, or a typed pointer from pypdfium2) as the plain address these calls take."""
    return ctypes.cast(pointer, _HANDLE).value or 0


def argument(address: int) -> Any:
    """A handle (its address) as the argument object ctypes passes as it is: for the untyped calls."""
    return _HANDLE.from_param(address)


def out_at(values: Any, index: int) -> Any:
    """The address of `values[index]` (a ctypes array) as an out-parameter of the untyped calls."""
    return ctypes.byref(values, index * ctypes.sizeof(values._type_))
