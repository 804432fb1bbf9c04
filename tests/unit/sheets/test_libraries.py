"""WeasyPrint's native libraries are loaded without ``ctypes.util.find_library`` starting programs."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the quick path is Linux only")


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.slow
def test_weasyprint_is_imported_without_starting_programs():
    started = run(
        """
        import subprocess
        calls = []
        real = subprocess.Popen.__init__
        def counting(self, args, *a, **k):
            calls.append(args)
            return real(self, args, *a, **k)
        subprocess.Popen.__init__ = counting
        import ctypes.util
        before = ctypes.util.find_library
        import printer.sheets.pdf
        from weasyprint import HTML
        assert HTML(string="<p>x</p>").write_pdf().startswith(b"%PDF")
        assert ctypes.util.find_library is before, "find_library restored"
        print(len(calls))
        """
    )
    assert started == "0"


@pytest.mark.slow
def test_a_failed_quick_import_falls_back_to_the_ordinary_one():
    out = run(
        """
        import sys, importlib.abc
        class FailOnce(importlib.abc.MetaPathFinder):
            failed = False
            def find_spec(self, name, path, target=None):
                if name == "weasyprint.text.ffi" and not FailOnce.failed:
                    FailOnce.failed = True
                    raise OSError("cannot load library 'libgobject-2.0-0'")
                return None
        sys.meta_path.insert(0, FailOnce())
        from printer.sheets.libraries import import_weasyprint
        import_weasyprint()
        from weasyprint import HTML
        print(FailOnce.failed, HTML(string="<p>x</p>").write_pdf()[:4].decode())
        """
    )
    assert out == "True %PDF"


#: code that counts the C declarations cffi has pycparser parse from then on (in ``calls``)
COUNTING = "calls = []; real = pycparser.c_parser.CParser.parse; pycparser.c_parser.CParser.parse = " + (
    "lambda self, text, *a, **k: (calls.append(text), real(self, text, *a, **k))[1]"
)


def test_font_subsets_of_new_lengths_parse_no_new_c_types():
    parsed = run(
        f"""
        import pycparser.c_parser
        import printer.sheets.pdf
        from weasyprint import HTML
        {COUNTING}
        page = '<p style="font-family: DejaVu Sans">{{}}</p>'
        HTML(string=page.format("abc")).write_pdf()  # the first subset: the open array type parsed once
        before = len(calls)
        for text in ("abcdef", "abcdefghij", "the quick brown fox"):  # subsets of other lengths
            HTML(string=page.format(text)).write_pdf()
        print(len(calls) - before)
        """
    )
    assert parsed == "0"


def test_a_font_copies_its_whole_file_only_when_it_is_read():
    found = run(
        """
        import io
        import pdfplumber
        import printer.sheets.pdf
        import weasyprint.pdf.fonts as fonts
        from weasyprint import HTML
        made = []
        init = fonts.Font.__init__
        def noting(self, *a, **k):
            init(self, *a, **k)
            kind = type(self.__dict__.get("_printer_file_content")).__name__
            made.append((self, kind, self.file_content if not made else None))  # the first one read at once
        fonts.Font.__init__ = noting
        data = HTML(string='<p style="font-family: DejaVu Sans">Lazy fonts</p>').write_pdf()
        print(sorted({kind for _, kind, _ in made}))  # no font copied its file when it was made
        whole = open("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "rb").read()
        print(made[0][2] == whole)  # read when asked for: the whole file
        print(len(made[0][0].file_content) < len(whole))  # then the subset, as before
        print(pdfplumber.open(io.BytesIO(data)).pages[0].extract_text())
        """
    )
    assert found.splitlines() == ["['_Deferred']", "True", "True", "Lazy fonts"]


def test_fonttools_parts_weasyprint_seldom_uses_are_imported_when_first_used():
    found = run(
        """
        import io, sys, types
        import pdfplumber
        import printer.sheets.pdf
        import weasyprint.pdf.fonts as fonts
        from weasyprint import HTML
        later = ("fontTools.subset", "fontTools.varLib", "fontTools.varLib.instancer")
        print([name for name in later if name in sys.modules])  # not imported with WeasyPrint
        page = '<p style="font-family: DejaVu Sans">Subset by fontTools</p>'
        fonts.harfbuzz_subset = None  # WeasyPrint's way without HarfBuzz: fontTools subsets the font
        data = HTML(string=page).write_pdf()
        print(pdfplumber.open(io.BytesIO(data)).pages[0].extract_text())
        print(fonts.subset.Options is sys.modules["fontTools.subset"].Options)  # the real module, imported now
        try:
            fonts.instantiateVariableFont(None, {})
        except Exception:
            pass
        print(type(sys.modules["fontTools.varLib.instancer"]) is types.ModuleType)  # imported by the first call
        """
    )
    assert found.splitlines() == ["[]", "Subset by fontTools", "True", "True"]


def test_the_c_types_a_face_s_text_needs_are_parsed_ahead():
    parsed = run(
        f"""
        import pycparser.c_parser
        import printer.sheets.pdf
        from printer.sheets.libraries import parse_c_types
        from weasyprint import HTML
        parse_c_types()
        {COUNTING}
        page = '<p style="font-family: DejaVu Sans">Laid out, drawn and subset: <b>bold</b> and 日本語</p>'
        HTML(string=page).write_pdf()
        print(len(calls))
        """
    )
    assert parsed == "0"
