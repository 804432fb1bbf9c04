"""A chunk's WeasyPrint layout contexts emptied once its pages are painted, so that its boxes and styles are freed
then, by reference counting, instead of waiting for Python's cyclic garbage collector.

WeasyPrint 70 lays a document out with a ``LayoutContext`` that refers to itself (its ``get_image_from_uri`` is a
:func:`functools.partial` bound to the context) and that holds the document's computed styles (``style_for``) and
its last page's boxes (``current_page``, ``current_footnote_area``); every SVG image keeps the context it was
loaded in, and every box that shows one holds the image. So once a document's pages are painted, its whole layout
(boxes, computed styles, cascaded declarations) is left in reference cycles, for the collector's oldest generation
to find: a document of 48 faces of an example game's cards left 48,087 objects to the collector, 7,024 once its
context was emptied (what is left: the parse tree tinyhtml5 builds beside the element tree, and WeasyPrint's
anonymous styles, which refer to themselves). Each collection of that generation walks every object alive, so a
cold ``printer build --jobs 1`` of 900 real cards spent 0.9 to 1.4 s of its 12 to 13.5 s in 29 of them.

:func:`install` has WeasyPrint's ``Document._build_layout_context`` record each context it makes while a
:func:`recorded` block is open on the thread; :func:`release` empties the recorded contexts. Only what is done with
a document's pages is released: :func:`printer.sheets.pdf.stream_pdf` releases a chunk's contexts (its document's
and those of its text-fit rounds) after its last page is painted, when nothing of the chunk is drawn again. Any
WeasyPrint other than :data:`WEASYPRINT` is left alone: nothing is recorded, and the collector frees the layouts as
before.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

#: the WeasyPrint version whose ``Document._build_layout_context`` and ``LayoutContext`` this follows
WEASYPRINT = "70.0"

_recording = threading.local()  # .into: the list the open recorded() block of this thread adds contexts to


def install() -> bool:
    """Have WeasyPrint record the layout contexts it makes inside :func:`recorded` (once a process). Returns whether
    it is in place: False, and nothing changed, on a WeasyPrint other than :data:`WEASYPRINT` or one without
    ``Document._build_layout_context``."""
    import weasyprint
    from weasyprint.document import Document

    current = Document.__dict__.get("_build_layout_context")
    made = getattr(current, "__func__", None)
    if getattr(made, "_printer_original", None) is not None:
        return True
    if weasyprint.__version__ != WEASYPRINT or made is None:
        return False

    def build_layout_context(cls: type, *args: Any, **kwargs: Any) -> Any:
        context = made(cls, *args, **kwargs)
        into: list[Any] | None = getattr(_recording, "into", None)
        if into is not None:
            into.append(context)
        return context

    build_layout_context._printer_original = made  # type: ignore[attr-defined]
    Document._build_layout_context = classmethod(build_layout_context)
    return True


@contextlib.contextmanager
def recorded(into: list[Any]) -> Iterator[list[Any]]:
    """The layout contexts WeasyPrint makes on this thread inside the block, added to ``into`` (a block opened
    inside another records into its own list only)."""
    before = getattr(_recording, "into", None)
    _recording.into = into
    try:
        yield into
    finally:
        _recording.into = before


def release(contexts: list[Any]) -> None:
    """Empty each layout context of ``contexts`` (its attributes dropped, which ends the cycle through its
    ``get_image_from_uri``) and clear the list. Only for contexts whose documents' pages are painted: laying out or
    painting with an emptied context raises :class:`AttributeError`."""
    for context in contexts:
        vars(context).clear()
    contexts.clear()
