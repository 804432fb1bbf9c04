"""printer preflight: small PDFs made here with pikepdf (and one with WeasyPrint), each with one planted violation
of a vendor's profile, must be reported at their page and object; a clean one passes (exit 0).

Expected figures are the vendors' (docs/print-on-demand.md), written here, never read from vendors.toml.
"""

from __future__ import annotations

import io
import random
import zlib
from pathlib import Path

import pikepdf

from printer.sheets.export.preflight import get_profile, preflight_pdf

IN = 72.0  # pt
MM = 72 / 25.4
DTC_PAGE = (2.75 * IN, 3.75 * IN)  # 2.5 x 3.5 in trim, 1/8 in bleed a side


def cmyk_image(
    pdf: pikepdf.Pdf, px: tuple[int, int], cmyk: tuple[int, int, int, int] = (20, 40, 60, 10)
) -> pikepdf.Stream:
    data = bytes(round(v * 2.55) for v in cmyk) * (px[0] * px[1])
    return pdf.make_stream(
        zlib.compress(data),
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=px[0],
        Height=px[1],
        ColorSpace=pikepdf.Name.DeviceCMYK,
        BitsPerComponent=8,
        Filter=pikepdf.Name.FlateDecode,
    )


def jpeg_cmyk_image(pdf: pikepdf.Pdf, px: tuple[int, int], cmyk: tuple[int, int, int, int]) -> pikepdf.Stream:
    """A DCT CMYK image whose stored samples are ``cmyk`` (%), with an Adobe marker and no /Decode, as Ghostscript
    writes a page it flattens. Pillow inverts CMYK when it writes a JPEG: it is given the inverse."""
    from PIL import Image, ImageChops

    stored = Image.new("CMYK", px, tuple(round(v * 2.55) for v in cmyk))
    out = io.BytesIO()
    ImageChops.invert(stored).save(out, "JPEG", quality=100)
    return pdf.make_stream(
        out.getvalue(),
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=px[0],
        Height=px[1],
        ColorSpace=pikepdf.Name.DeviceCMYK,
        BitsPerComponent=8,
        Filter=pikepdf.Name.DCTDecode,
    )


def card_pdf(
    path: Path,
    *,
    image_cmyk: tuple[int, int, int, int] = (20, 40, 60, 10),
    jpeg: bool = False,
    sides: tuple[str, ...] = ("back", "front", "back", "front"),
    image_px: tuple[int, int] = (750, 1050),
    trim_in: tuple[float, float] = (2.5, 3.5),
    fill: str = "0.1 0.2 0.3 0.4 k",
    group_rgb: bool = False,
    font: bool = False,
    pdfx: bool = True,
    pad: int = 0,
) -> Path:
    """A DriveThruCards-shaped PDF: one card side a page, a CMYK image over the trim, labelled by side."""
    pdf = pikepdf.new()
    w, h = DTC_PAGE
    nums: list = []
    image = (jpeg_cmyk_image if jpeg else cmyk_image)(pdf, image_px, image_cmyk)
    for index, side in enumerate(sides):
        page = pdf.add_blank_page(page_size=DTC_PAGE)
        tw, th = trim_in[0] * IN, trim_in[1] * IN
        x0, y0 = (w - tw) / 2, (h - th) / 2
        page.obj.TrimBox = pikepdf.Array([x0, y0, x0 + tw, y0 + th])
        page.obj.BleedBox = pikepdf.Array([0, 0, w, h])
        resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im1=image))
        text = b""
        if font:
            resources.Font = pikepdf.Dictionary(
                F1=pikepdf.Dictionary(
                    Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
                )
            )
            text = b"BT /F1 9 Tf 20 20 Td (Alpha) Tj ET\n"
        page.obj.Resources = resources
        if group_rgb:
            page.obj.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceRGB, I=True)
        content = f"{fill} 0 0 {w} {h} re f q {2.5 * IN} 0 0 {3.5 * IN} {9} {9} cm /Im1 Do Q\n".encode() + text
        page.obj.Contents = pdf.make_stream(content)
        nums += [index, pikepdf.Dictionary(P=pikepdf.String(f"{side} {index // 2 + 1}"))]
    pdf.Root.PageLabels = pikepdf.Dictionary(Nums=pikepdf.Array(nums))
    if pad:  # bytes that do not compress, in a stream no page draws
        pdf.Root.Padding = pdf.make_stream(random.Random(0).randbytes(pad))
    if pdfx:
        icc = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
        profile = pdf.make_stream(icc.read_bytes() if icc.is_file() else b"\0" * 128, N=4)
        pdf.Root.OutputIntents = pikepdf.Array(
            [pikepdf.Dictionary(Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX, DestOutputProfile=profile)]
        )
        pdf.trailer.Info = pdf.make_indirect(pikepdf.Dictionary(GTS_PDFXVersion=pikepdf.String("PDF/X-1a:2003")))
    pdf.save(path)
    return path


def codes(problems) -> list[str]:
    return [p.code for p in problems if p.is_error]


DTC = "drivethrucards"


def test_a_clean_card_pdf_passes(tmp_path):
    assert preflight_pdf(card_pdf(tmp_path / "ok.pdf"), get_profile(DTC)) == []


def test_a_devicergb_transparency_group_is_found_at_its_page(tmp_path):
    problems = preflight_pdf(card_pdf(tmp_path / "g.pdf", group_rgb=True), get_profile(DTC))
    rgb = [p for p in problems if p.code == "preflight-rgb"]
    assert rgb and rgb[0].where == f"{tmp_path / 'g.pdf'}:page 1 page transparency group"
    assert "preflight-transparency" in codes(problems)  # DriveThruCards' PDF/X-1a takes none either


def test_an_rgb_fill_and_an_unembedded_font_are_found(tmp_path):
    problems = preflight_pdf(card_pdf(tmp_path / "f.pdf", fill="1 0 0 rg", font=True), get_profile(DTC))
    assert "preflight-rgb" in codes(problems)
    font = [p for p in problems if p.code == "preflight-font"]
    assert (
        len(font) == 4 and "Helvetica is not embedded" in font[0].message and ":page 1 font /F1" in str(font[0].where)
    )


def test_a_wrong_trimbox_is_found_on_every_page(tmp_path):
    problems = preflight_pdf(card_pdf(tmp_path / "t.pdf", trim_in=(2.5, 3.45)), get_profile(DTC))
    trims = [p for p in problems if p.code == "preflight-trimbox"]
    assert [str(p.where).rsplit(":", 1)[1] for p in trims] == [f"page {n} TrimBox" for n in range(1, 5)]
    assert "63.50 x 87.63 mm" in trims[0].message and "63.5 x 88.9" in trims[0].message
    assert "preflight-bleedbox" in codes(problems)  # the bleed is then 1/8 in + 0.64 mm top and bottom


def test_a_low_resolution_image_is_found_with_its_dpi(tmp_path):
    problems = preflight_pdf(card_pdf(tmp_path / "d.pdf", image_px=(375, 525)), get_profile(DTC))
    dpi = [p for p in problems if p.code == "preflight-dpi"]
    assert len(dpi) == 4 and "150 dpi, below 300 dpi" in dpi[0].message and "image /Im1" in str(dpi[0].where)


def test_front_before_back_is_the_wrong_order_for_drivethrucards_and_the_right_one_for_mbprint(tmp_path):
    pdf = card_pdf(tmp_path / "o.pdf", sides=("front", "back", "front", "back"))
    order = [p for p in preflight_pdf(pdf, get_profile(DTC)) if p.code == "preflight-page-order"]
    assert len(order) == 1 and str(order[0].where).endswith(":page 1") and "back then its front" in order[0].message
    assert "preflight-page-order" not in codes(preflight_pdf(pdf, get_profile("mbprint")))


def test_page_order_is_read_from_repeated_backs_without_labels(tmp_path):
    path = card_pdf(tmp_path / "n.pdf", sides=("front", "back", "front", "back"))
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        del pdf.Root["/PageLabels"]
        backs = pdf.pages[1].obj.Contents
        pdf.pages[0].obj.Contents = pdf.make_stream(b"0 0 0 1 k 0 0 10 10 re f\n")
        pdf.pages[2].obj.Contents = pdf.make_stream(b"0.5 0 0 1 k 0 0 10 10 re f\n")
        pdf.pages[3].obj.Contents = backs
        pdf.save(path)
    assert "preflight-page-order" in codes(preflight_pdf(path, get_profile(DTC)))


def test_a_file_over_the_size_limit_is_found(tmp_path, run):
    path = card_pdf(tmp_path / "big.pdf", pad=300_000)
    result = run("preflight", path, "--vendor", DTC, "--max-size", "0.2MB")
    assert result.code == 1 and "above the 0.2 MB limit" in result.out + result.err


def test_ink_over_the_limit_and_a_black_that_is_not_the_rich_black(tmp_path):
    heavy = card_pdf(tmp_path / "ink.pdf", fill="0.8 0.7 0.7 0.9 k")
    ink = [p for p in preflight_pdf(heavy, get_profile(DTC)) if p.code == "preflight-ink"]
    assert ink and "total ink 310 %" in ink[0].message and "at most 240 %" in ink[0].message
    black = card_pdf(tmp_path / "k.pdf", fill="0 0 0 1 k", pdfx=False)
    found = [p for p in preflight_pdf(black, get_profile("mbprint")) if p.code == "preflight-rich-black"]
    assert found and "rich black C30 M30 Y0 K100" in found[0].message
    rich = card_pdf(tmp_path / "r.pdf", fill="0.3 0.3 0 1 k", pdfx=False)
    assert "preflight-rich-black" not in codes(preflight_pdf(rich, get_profile("mbprint")))


def test_a_cmyk_jpeg_is_read_as_stored_as_ghostscript_writes_a_flattened_page(tmp_path):
    def ink(cmyk, vendor=DTC):
        path = card_pdf(tmp_path / "j.pdf", image_cmyk=cmyk, jpeg=True, image_px=(75, 105), pdfx=vendor == DTC)
        return [p for p in preflight_pdf(path, get_profile(vendor), min_dpi=1) if p.code.startswith("preflight-")]

    assert ink((0, 0, 0, 0)) == []  # white paper (Pillow alone reads it as C100 M100 Y100 K100)
    heavy = ink((80, 70, 70, 90))
    assert [p.code for p in heavy] == ["preflight-ink"] * 4
    assert 308 <= int(heavy[0].message.split("total ink ")[1].split(" %")[0]) <= 311  # 310 %, through JPEG
    assert "image /Im1" in str(heavy[0].where)


def test_a_full_black_pixel_must_be_as_rich_as_the_vendors_black_a_profiles_shadow_is(tmp_path):
    def blacks(cmyk):
        path = card_pdf(tmp_path / "b.pdf", image_cmyk=cmyk, fill="0.3 0.3 0 1 k", pdfx=False)
        return [p for p in preflight_pdf(path, get_profile("mbprint")) if p.code == "preflight-rich-black"]

    assert blacks((0, 0, 0, 100)) and "image /Im1" in str(blacks((0, 0, 0, 100))[0].where)  # K alone prints grey
    assert blacks((63, 29, 62, 96)) == []  # a FOGRA39 shadow: other inks in their own proportions
    assert blacks((30, 30, 0, 100)) == []


def test_missing_pdfx_and_output_intent_and_weasyprint_text_for_outlines(tmp_path):
    from weasyprint import HTML

    path = tmp_path / "w.pdf"
    HTML(string="<p style='font: 12pt DejaVu Sans'>Alpha</p>").write_pdf(path)
    found = codes(preflight_pdf(path, get_profile(DTC)))
    assert {"preflight-pdfx", "preflight-output-intent", "preflight-trimbox"} <= set(found)
    assert "preflight-font" not in found  # WeasyPrint embeds its fonts
    assert "preflight-font-outlines" in codes(preflight_pdf(path, get_profile("mbprint")))


def test_the_command_exits_0_1_and_2(tmp_path, run):
    ok = run("preflight", card_pdf(tmp_path / "ok.pdf"), "--vendor", DTC)
    assert ok.code == 0 and "nothing DriveThruCards would reject" in ok.out
    bad = run("preflight", card_pdf(tmp_path / "bad.pdf", image_px=(300, 420)), "--vendor", DTC)
    assert bad.code == 1 and "bad.pdf:page 1 image /Im1" in bad.err
    assert run("preflight", tmp_path / "ok.pdf", "--vendor", "drivethrucard").code == 2
    assert run("preflight", tmp_path / "none.pdf", "--vendor", DTC).code == 2
    (tmp_path / "junk.pdf").write_bytes(b"not a pdf")
    junk = run("preflight", tmp_path / "junk.pdf", "--vendor", DTC)
    assert junk.code == 1 and "not a readable PDF" in junk.err


def test_every_profile_names_its_public_source():
    from printer.sheets.export.preflight import profiles

    assert set(profiles()) >= {"drivethrucards", "mbprint"}
    assert all(p.source.startswith("https://") for p in profiles().values())
