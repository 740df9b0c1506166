"""PDFium itself, the copy pypdfium2 ships, with only the dozen calls the reader makes declared.

`import pypdfium2` declares all of PDFium's ~800 functions and loads its helpers (logging, json,
argparse, uuid, platform): 18 ms of a reading worker's 0.3 s on a 19-page PDF, where loading the
library and declaring what layout.py, pdfium_pages.py and words.py call takes 2-3 ms. The library is
pypdfium2's own file (its `pypdfium2_raw` folder, found without importing it), initialised as
pypdfium2 initialises it (FPDF_InitLibraryWithConfig, version 2, no font paths), and the calls are
declared with pypdfium2's argument and result types, handles as plain addresses. A document that
cannot be opened is the same `PdfiumError` with pypdfium2's own words. Where pypdfium2 was built
against a PDFium of the system (no file in its folder) its own module is imported for the addresses.
PDFium initialises once a process (a second call is ignored), so pypdfium2 may be imported beside it.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from typing import Any

_HANDLE, _INT, _SIZE, _FLOAT = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t, ctypes.c_float
# The library's file name in pypdfium2_raw's folder, as its bindings name it ({prefix}pdfium.{suffix}).
_FILE = ("pdfium.dll" if sys.platform.startswith(("win32", "cygwin", "msys"))
         else "libpdfium.dylib" if sys.platform.startswith(("darwin", "ios")) else "libpdfium.so")
# FPDF_ERR_* as pypdfium2 words them (pypdfium2.internal.consts.ErrorToStr)
_ERRORS = {0: "Success", 1: "Unknown error", 2: "File access error", 3: "Data format error",
           4: "Incorrect password error", 5: "Unsupported security scheme error", 6: "Page not found or content error"}
FPDF_PAGEOBJ_PATH = 2


class PdfiumError(RuntimeError):
    """PDFium refused a document or a page (pypdfium2's name and words: a reading child reports its class)."""


class _Config(ctypes.Structure):
    """FPDF_LIBRARY_CONFIG as pypdfium2 declares it; version 2 reads the first four fields."""

    _fields_ = (("version", _INT), ("m_pUserFontPaths", _HANDLE), ("m_pIsolate", _HANDLE),
                ("m_v8EmbedderSlot", ctypes.c_uint), ("m_pPlatform", _HANDLE), ("m_RendererType", _INT),
                ("m_FontLibraryType", _INT), ("m_BrotliEnabled", _INT), ("m_IsolatePerDocument", _INT))


# name: (result, *arguments), pypdfium2's types with every handle a c_void_p
_DECLARED: dict[str, tuple[Any, ...]] = {
    "FPDF_InitLibraryWithConfig": (None, ctypes.POINTER(_Config)),
    "FPDF_LoadMemDocument64": (_HANDLE, _HANDLE, _SIZE, ctypes.c_char_p),
    "FPDF_GetPageCount": (_INT, _HANDLE),
    "FPDF_GetLastError": (ctypes.c_ulong,),
    "FPDF_CloseDocument": (None, _HANDLE),
    "FPDF_LoadPage": (_HANDLE, _HANDLE, _INT),
    "FPDF_ClosePage": (None, _HANDLE),
    "FPDF_GetPageWidthF": (_FLOAT, _HANDLE),
    "FPDFText_LoadPage": (_HANDLE, _HANDLE),
    "FPDFText_ClosePage": (None, _HANDLE),
    "FPDFText_CountChars": (_INT, _HANDLE),
    "FPDFText_GetText": (_INT, _HANDLE, _INT, _INT, ctypes.POINTER(ctypes.c_ushort)),
}
# Called through pdfium_calls.py, which declares them itself from their addresses: only found here.
_FOUND = ("FPDFPage_CountObjects", "FPDFPage_GetObject", "FPDFPageObj_GetType", "FPDFPageObj_GetBounds",
          "FPDFText_GetCharOrigin", "FPDFText_GetCharBox", "FPDFText_GetFontSize", "FPDFText_GetCharAngle")


class Pdfium:
    """The calls, by PDFium's names (as pypdfium2.raw has them): what the reader's `raw` is."""

    FPDF_PAGEOBJ_PATH = FPDF_PAGEOBJ_PATH

    def __init__(self, address_of: Any) -> None:
        for name, (result, *arguments) in _DECLARED.items():
            setattr(self, name, ctypes.CFUNCTYPE(result, *arguments)(address_of(name)))
        for name in _FOUND:
            setattr(self, name, ctypes.CFUNCTYPE(None)(address_of(name)))

    def __getattr__(self, name: str) -> Any:  # the calls set in __init__ (for mypy)
        raise AttributeError(name)


@functools.cache
def library() -> Pdfium:
    """PDFium loaded and initialised (once a process: call it before forking the processes that read)."""
    pdfium = Pdfium(_addresses())
    pdfium.FPDF_InitLibraryWithConfig(ctypes.byref(_Config(version=2)))
    return pdfium


def _addresses() -> Any:
    import importlib.util
    import os

    spec = importlib.util.find_spec("pypdfium2_raw")
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    path = next((os.path.join(folder, _FILE) for folder in folders if os.path.isfile(os.path.join(folder, _FILE))), None)
    if path is None:  # pragma: no cover - a pypdfium2 built against the system's PDFium
        import pypdfium2  # noqa: F401 - it initialises the library it found
        import pypdfium2.raw as raw

        return lambda name: ctypes.cast(getattr(raw, name), _HANDLE).value
    loaded = ctypes.CDLL(path)
    return lambda name: ctypes.cast(getattr(loaded, name), _HANDLE).value


class Document:
    """An open PDF (what layout.py reads of pypdfium2's PdfDocument: `raw`, its pages' count, `close`)."""

    def __init__(self, pdfium: Pdfium, data: bytes) -> None:
        self._pdfium, self._data = pdfium, data  # PDFium reads the bytes in place: they live as long as it
        self.raw = pdfium.FPDF_LoadMemDocument64(data, len(data), None)
        if pdfium.FPDF_GetPageCount(self.raw) < 1:
            code = pdfium.FPDF_GetLastError()
            raise PdfiumError(f"Failed to load document (PDFium: {_ERRORS.get(code, f'Unhandled constant {code}')}).")

    def __len__(self) -> int:
        return int(self._pdfium.FPDF_GetPageCount(self.raw))

    def close(self) -> None:
        if self.raw:
            self._pdfium.FPDF_CloseDocument(self.raw)
            self.raw = None
