"""Each stylesheet a document links or holds parsed once per process, not once per document.

WeasyPrint parses every ``<link rel="stylesheet">`` and ``<style>`` of a document again for each document: it
reads the file, tokenizes it and compiles its selectors (``weasyprint.CSS``, called by
``weasyprint.css.find_stylesheets``). printer lays a build out as many documents (a batch of faces in chunks of
48, each text-fit round, the sheets' marks), all with the same ``card-common.css`` and game ``card.css``: 46 ms a
document for the largest example game's stylesheets, measured on the 2-core machine of the README's Performance
section, about a twentieth of a cold build and of a one-card edit.

:func:`install` makes ``find_stylesheets`` go through :func:`parsed`, which reads the stylesheet as WeasyPrint
would (through the document's URL fetcher, so the project's sandbox still decides what may be read), and hands
back the stylesheet parsed earlier from the same bytes, at the same URL, for the same media. What it keeps is
what WeasyPrint reads from a stylesheet while it lays a document out: the compiled selectors, the ``@page``
rules and the cascade layers. A stylesheet that changes state outside itself while it is parsed is parsed every
time, as before: ``@import`` (another file's content), ``@font-face`` (the font configuration),
``@counter-style``, ``@color-profile`` and ``@layer``, and any at-rule whose name is written with escapes. The warnings the first parse logged (an unknown property,
at ``line:col``) are logged again at each use, so every document's problems still name them.

Equivalence: WeasyPrint gives the author stylesheets of one document one shared list of ``@page`` rules and
reads it once per stylesheet, in document order; a kept stylesheet has a list of its own, read at its place in
the same order, which applies the same rules in the same order.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: stylesheets kept per process (least recently used dropped first)
MAX_KEPT = 64
#: at-rules whose stylesheet changes state outside itself when parsed: such a stylesheet is never kept
#: (and ``@\``: an at-rule whose name is written with CSS escapes, which these plain names would not find)
_NOT_KEPT = (b"@import", b"@font-face", b"@counter-style", b"@color-profile", b"@layer", b"@\\")

#: the arguments of the two calls ``find_stylesheets`` makes (any other call is passed on as it is)
_ARGUMENTS = frozenset({"string", "url", "url_fetcher", "base_url", "media_type", "font_config", "counter_style",
                        "color_profiles", "page_rules", "layers", "_check_mime_type"})  # fmt: skip

#: (SHA-256 of the stylesheet's bytes, base URL, media type) -> (the parsed ``weasyprint.CSS``, its warnings)
_kept: OrderedDict[tuple[bytes, str | None, str], tuple[Any, list[tuple[int, str, Path | None]]]] = OrderedDict()
_stats = {"parsed": 0, "reused": 0}
_lock = threading.Lock()  # the kept stylesheets are shared by the threads of a process


class _Record(logging.Handler):
    """The warnings logged while one stylesheet is parsed, with the file each is attributed to."""

    def __init__(self, attribute: Callable[[], Path | None]) -> None:
        super().__init__(logging.WARNING)
        self.attribute = attribute
        self.records: list[tuple[int, str, Path | None]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((record.levelno, record.getMessage(), self.attribute()))


def install(attribute: Callable[[], Path | None] = lambda: None) -> None:
    """Route WeasyPrint's stylesheet parsing through :func:`parsed` (once; a no-op on a WeasyPrint without
    ``weasyprint.css.CSS``). ``attribute`` names the stylesheet file a warning being logged comes from (see
    :func:`printer.sheets.pdf._stylesheet_being_read`); replayed warnings carry it as ``record.stylesheet``."""
    import weasyprint
    import weasyprint.css

    real = getattr(weasyprint.css, "CSS", None)
    if real is not weasyprint.CSS:  # installed already, or a WeasyPrint this was not written for
        return

    def css(*args: Any, **kwargs: Any) -> Any:
        return parsed(real, attribute, *args, **kwargs)

    weasyprint.css.CSS = css


def parsed(real: Callable[..., Any], attribute: Callable[[], Path | None], *args: Any, **kwargs: Any) -> Any:
    """``real(*args, **kwargs)`` (``weasyprint.CSS``), or the stylesheet parsed before from the same source.

    Only the two calls ``find_stylesheets`` makes are kept: a ``<style>`` element's text (``string=``) and a
    linked file (``url=``); any other call is passed on. Raises what WeasyPrint raises for the source.
    """
    from weasyprint.logger import LOGGER
    from weasyprint.urls import fetch

    if args or set(kwargs) - _ARGUMENTS or (kwargs.get("string") is None) == (kwargs.get("url") is None):
        return real(*args, **kwargs)
    string, url = kwargs.get("string"), kwargs.get("url")
    base_url = kwargs.get("base_url")
    if url is not None:
        with fetch(kwargs["url_fetcher"], url) as response:
            body = response.read()
            if response.charset is not None or (kwargs.get("_check_mime_type") and response.content_type != "text/css"):
                return real(*args, **kwargs)  # an encoding or a type from the protocol: WeasyPrint's own way
            base_url = base_url or response.url
    else:
        body = string.encode("utf-8") if isinstance(string, str) else bytes(string or b"")
    if any(rule in body.lower() for rule in _NOT_KEPT):
        return real(*args, **kwargs)
    # the font configuration is not part of the key: only @font-face rules use it, and those are never kept
    key = (hashlib.sha256(body).digest(), base_url, kwargs.get("media_type", "print"))
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
    if found is not None:
        sheet, records = found
        for level, message, where in records:
            LOGGER.log(level, "%s", message, extra={"stylesheet": where})
        _stats["reused"] += 1
        return sheet
    own = {k: v for k, v in kwargs.items() if k not in ("string", "url", "page_rules", "layers", "_check_mime_type")}
    record = _Record(attribute)
    LOGGER.addHandler(record)
    try:
        sheet = real(string=body if url is not None else string, **{**own, "base_url": base_url})
    finally:
        LOGGER.removeHandler(record)
    with _lock:
        _stats["parsed"] += 1
        _kept[key] = (sheet, record.records)
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)
    return sheet
