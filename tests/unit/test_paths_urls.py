"""printer.paths.url2pathname: a file: URL's path part as urllib.request.url2pathname gives it, without importing
urllib.request (HTTP and SSL) into every command."""

from __future__ import annotations

import subprocess
import sys
import urllib.request

from hypothesis import given
from hypothesis import strategies as st

from printer.paths import url2pathname


@given(st.text())
def test_a_url_s_path_is_read_as_the_standard_library_reads_it(path):
    assert url2pathname(path) == urllib.request.url2pathname(path)


def test_the_modules_a_build_keys_and_keeps_faces_with_do_not_import_urllib_request():
    """The modules a build's own process imports to check whether it is up to date, and to read and key the
    cards, bring no HTTP or SSL."""
    code = (
        "import sys\n"
        "import printer.sheets.cache, printer.sheets.manifest, printer.sheets.output.cached, printer.sheets.uptodate\n"
        "print('urllib.request' in sys.modules)\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert found.stdout.strip() == "False", found.stderr
