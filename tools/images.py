"""Draw the site's images: link-preview cards and app icons (Pillow, a dev dependency).

    .venv/bin/python tools/images.py          # writes them into cardwar/web/static
    .venv/bin/python tools/images.py --check  # exit 1 if the committed ones differ

* ``og/peace.png``, ``og/war.png``, ``og/beggar.png``, ``og/site.png`` - 1200x630 Open Graph
  images: the variant's deciding cards (the low one wins in Peace, the high
  one in War) and its face-down cards; no words but the site's name, so one
  image serves every language (the preview's title is translated).
* ``icons/icon-192.png``, ``icons/icon-512.png`` (purpose ``any``),
  ``icons/maskable-192.png``, ``icons/maskable-512.png`` (the logo inside the
  safe zone, on a full background) and ``icons/apple-touch-icon.png`` (180).

Everything is drawn from shapes and one self-hosted font
(``tools/fonts/DejaVuSerif-Bold-subset.ttf``, see its LICENSE); the images
are the project's own (MIT, like the code). The drawing is exact and
repeatable: ``tests/web/test_images.py`` draws them again and compares pixels.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "cardwar" / "web" / "static"
FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSerif-Bold-subset.ttf"

FELT = (20, 92, 66)
FELT_DARK = (13, 66, 47)
CREAM = (255, 253, 248)
INK = (31, 29, 26)
RED = (179, 38, 30)
GOLD = (201, 139, 28)
BACK = (31, 109, 80)
BACK_STRIPE = (23, 87, 63)
LOGO_RED = (163, 38, 31)
LOGO_GREEN = (23, 105, 75)
#: Drawn this many times larger, then scaled down: smooth edges.
SCALE = 2


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size * SCALE)


def _card(face: str | None, width: int, angle: float, *, win: bool = False,
          letter: str = "") -> Image.Image:
    """A card (``face`` like ``"2♣"``, or None for its back, with ``letter`` on it)
    on a transparent square, turned ``angle`` degrees."""
    w, h = width * SCALE, int(width * 1.4) * SCALE
    pad = max(w, h)
    tile = Image.new("RGBA", (pad * 2, pad * 2), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    box = (pad - w // 2, pad - h // 2, pad + w // 2, pad + h // 2)
    radius = w // 9
    shadow = tuple(v + 10 * SCALE for v in box)
    d.rounded_rectangle(shadow, radius, fill=(0, 0, 0, 70))
    if win:
        glow = (box[0] - 9 * SCALE, box[1] - 9 * SCALE, box[2] + 9 * SCALE, box[3] + 9 * SCALE)
        d.rounded_rectangle(glow, radius + 9 * SCALE, fill=GOLD)
    if face is None:
        d.rounded_rectangle(box, radius, fill=CREAM)
        inner = (box[0] + w // 14, box[1] + w // 14, box[2] - w // 14, box[3] - w // 14)
        d.rounded_rectangle(inner, radius // 2, fill=BACK)
        stripes = Image.new("L", tile.size, 0)
        step = w // 8
        for x in range(inner[0] - h, inner[2], step):
            ImageDraw.Draw(stripes).line((x, inner[3], x + (inner[3] - inner[1]), inner[1]),
                                         fill=255, width=step // 2)
        inside = Image.new("L", tile.size, 0)
        ImageDraw.Draw(inside).rounded_rectangle(inner, radius // 2, fill=255)
        tile.paste(BACK_STRIPE, (0, 0), ImageChops.multiply(stripes, inside))
        if letter:
            d.text((pad, pad), letter, font=_font(int(width * 0.42)), fill=CREAM, anchor="mm",
                   stroke_width=SCALE * 2, stroke_fill=BACK)
    else:
        d.rounded_rectangle(box, radius, fill=CREAM, outline=(207, 198, 184), width=SCALE * 2)
        rank, suit = face[:-1], face[-1]
        ink = RED if suit in "♥♦" else INK
        d.text((pad, pad - h // 9), rank, font=_font(int(width * 0.52)), fill=ink, anchor="mm")
        d.text((pad, pad + h // 5), suit, font=_font(int(width * 0.42)), fill=ink, anchor="mm")
        small = _font(int(width * 0.17))
        d.text((box[0] + w // 8, box[1] + w // 8), rank, font=small, fill=ink, anchor="lt")
    return tile.rotate(angle, resample=Image.Resampling.BICUBIC)


def _paste(canvas: Image.Image, card: Image.Image, x: int, y: int) -> None:
    """Put ``card`` centred on (``x``, ``y``) of the (scaled) canvas."""
    canvas.alpha_composite(card, (x * SCALE - card.width // 2, y * SCALE - card.height // 2))


def _felt(width: int, height: int) -> Image.Image:
    canvas = Image.new("RGBA", (width * SCALE, height * SCALE), FELT_DARK)
    d = ImageDraw.Draw(canvas)
    d.ellipse((-width * SCALE // 3, -height * SCALE // 2, width * SCALE * 4 // 3,
               height * SCALE * 3 // 2), fill=FELT)
    return canvas


def _logo(canvas: Image.Image, x: int, y: int, size: int, outline: bool = True) -> None:
    """The site's logo (two tilted cards, as favicon.svg) in a ``size`` box at (x, y)."""
    u = size / 32 * SCALE
    side = int(size * SCALE)
    for rect, angle, centre, colour in (((3, 5, 20, 28), 12, (11, 16), LOGO_RED),
                                        ((11, 3, 28, 26), -8, (20, 15), LOGO_GREEN)):
        tile = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        d = ImageDraw.Draw(tile)
        d.rounded_rectangle(tuple(v * u for v in rect), 3 * u, fill=colour,
                            outline=CREAM if outline and colour == LOGO_GREEN else None,
                            width=max(1, int(1.5 * u)))
        tile = tile.rotate(angle, center=(centre[0] * u, centre[1] * u),
                           resample=Image.Resampling.BICUBIC)
        canvas.alpha_composite(tile, (x * SCALE, y * SCALE))


def _brand(canvas: Image.Image) -> None:
    _logo(canvas, 64, 52, 76)
    ImageDraw.Draw(canvas).text((156 * SCALE, 92 * SCALE), "cardwar", font=_font(58),
                                fill=CREAM, anchor="lm")


def _finish(canvas: Image.Image, width: int, height: int) -> Image.Image:
    return canvas.resize((width, height), Image.Resampling.LANCZOS).convert("RGB")


def preview(variant: str) -> Image.Image:
    """The 1200x630 link-preview image of ``variant`` (``peace``, ``war``, ``beggar``
    or ``site``)."""
    canvas = _felt(1200, 630)
    _brand(canvas)
    if variant == "peace":
        _paste(canvas, _card("A♥", 200, 8), 270, 370)
        _paste(canvas, _card("2♣", 200, -6, win=True), 470, 350)
        for i, letter in enumerate("PEACE"):
            _paste(canvas, _card(None, 104, 6 - 3 * i, letter=letter), 700 + i * 98, 380)
    elif variant == "war":
        _paste(canvas, _card("2♦", 200, 8), 270, 370)
        _paste(canvas, _card("A♠", 200, -6, win=True), 470, 350)
        for i in range(3):
            _paste(canvas, _card(None, 130, 5 - 4 * i), 760 + i * 140, 380)
    elif variant == "beggar":  # a king on the pile, and the three cards paid for it
        _paste(canvas, _card("K♥", 200, -6, win=True), 270, 350)
        for i, face in enumerate(("2♣", "3♦", "2♠")):  # glyphs of the font subset
            _paste(canvas, _card(face, 150, 8 - 6 * i), 560 + i * 160, 385)
    else:
        _paste(canvas, _card("A♥", 170, 10), 250, 380)
        _paste(canvas, _card("2♣", 170, -4, win=True), 420, 360)
        _paste(canvas, _card("2♦", 170, 6), 790, 380)
        _paste(canvas, _card("A♠", 170, -8, win=True), 960, 360)
    return _finish(canvas, 1200, 630)


def icon(size: int, maskable: bool = False) -> Image.Image:
    """The app icon, ``size`` pixels square: the logo on the felt (for a maskable
    icon, inside the middle 80%, the safe zone, on a full-bleed background)."""
    big = 512
    canvas = Image.new("RGBA", (big * SCALE, big * SCALE), (0, 0, 0, 0))
    d = ImageDraw.Draw(canvas)
    if maskable:
        d.rectangle((0, 0, big * SCALE, big * SCALE), fill=FELT)
        _logo(canvas, 111, 111, 290)
    else:
        d.rounded_rectangle((0, 0, big * SCALE - 1, big * SCALE - 1), 96 * SCALE, fill=FELT)
        _logo(canvas, 56, 56, 400)
    out = canvas.resize((size, size), Image.Resampling.LANCZOS)
    return out if not maskable and size != 180 else out.convert("RGB")


def images() -> dict[str, Image.Image]:
    """Every image, by its path under ``cardwar/web/static``."""
    out = {f"og/{v}.png": preview(v) for v in ("peace", "war", "beggar", "site")}
    out.update({f"icons/icon-{n}.png": icon(n) for n in (192, 512)})
    out.update({f"icons/maskable-{n}.png": icon(n, maskable=True) for n in (192, 512)})
    out["icons/apple-touch-icon.png"] = icon(180, maskable=True)
    return out


def png(image: Image.Image) -> bytes:
    """``image`` as a small PNG: a palette of 256 colours (with transparency), which
    loses nothing visible on these flat drawings."""
    quantized = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantized.save(out, "PNG", optimize=True)
    return out.getvalue()


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    """True when ``a`` and ``b`` show the same picture."""
    mode = "RGBA"
    a, b = a.convert(mode), b.convert(mode)
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def main(argv: list[str] | None = None) -> int:
    """Write the images (or, with ``--check``, compare them with the committed ones)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    stale = []
    for name, image in images().items():
        path = STATIC / name
        data = png(image)
        if args.check:
            fresh = Image.open(io.BytesIO(data))
            if not path.is_file() or not same_pixels(Image.open(path), fresh):
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{name}: {len(data):,} bytes", file=sys.stderr)
    if stale:
        print("stale images (run tools/images.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
