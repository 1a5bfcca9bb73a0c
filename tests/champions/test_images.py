"""The upload pipeline: format by content, size and pixel caps, metadata stripped, normalised."""

import io
import struct
import zlib

import pytest
from PIL import Image, ImageCms

from champions import images
from champions.images import normalise_image, sniff_format
from cod_site.errors import DomainError
from tests.champions.conftest import picture_bytes


def png_bomb(width: int = 30_000, height: int = 30_000) -> bytes:
    """A valid PNG header declaring 900 megapixels over a tiny, highly compressed body."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    row = b"\x00" + b"\x00" * width
    compressor = zlib.compressobj(9)
    data = compressor.compress(row * 64) + compressor.flush()  # the rest is "missing"
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


SVG = (
    b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(1)</script></svg>"
)


def test_formats_are_recognised_by_content() -> None:
    assert sniff_format(picture_bytes("PNG")[:16]) == "PNG"
    assert sniff_format(picture_bytes("JPEG")[:16]) == "JPEG"
    assert sniff_format(picture_bytes("WEBP")[:16]) == "WEBP"
    assert sniff_format(picture_bytes("GIF")[:16]) is None
    assert sniff_format(SVG[:16]) is None
    assert sniff_format(b"RIFF\x00\x00\x00\x00WAVEfmt ") is None


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_the_three_formats_are_accepted_and_normalised(fmt: str) -> None:
    result = normalise_image(picture_bytes(fmt, size=(400, 300)))
    assert (result.width, result.height) == (400, 300)
    assert result.extension == "jpg"
    reopened = Image.open(io.BytesIO(result.content))
    assert reopened.format == "JPEG"
    assert reopened.size == (400, 300)


def test_transparency_is_kept_as_png() -> None:
    image = Image.new("RGBA", (50, 40), (200, 10, 10, 0))
    image.paste((10, 200, 10, 255), (10, 10, 30, 30))
    out = io.BytesIO()
    image.save(out, "PNG")
    result = normalise_image(out.getvalue())
    reopened = Image.open(io.BytesIO(result.content))
    assert (result.extension, reopened.format, reopened.mode) == ("png", "PNG", "RGBA")
    assert reopened.getpixel((0, 0))[3] == 0
    assert reopened.getpixel((20, 20)) == (10, 200, 10, 255)


def test_metadata_is_stripped_and_orientation_applied() -> None:
    image = Image.new("RGB", (60, 20), (250, 0, 0))
    image.paste((0, 0, 250), (0, 0, 10, 20))  # a blue band on the left
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90° clockwise to display
    exif[0x010F] = "SecretCam"  # camera make
    exif[0x8825] = {1: "N", 2: (59.0, 19.0, 0.0)}  # GPS
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, icc_profile=profile, quality=95)
    assert b"SecretCam" in out.getvalue()

    result = normalise_image(out.getvalue())
    assert b"SecretCam" not in result.content
    reopened = Image.open(io.BytesIO(result.content))
    assert reopened.getexif() == {}
    assert "icc_profile" not in reopened.info
    assert "exif" not in reopened.info
    # Displayed upright: 20 × 60, the blue band now on top.
    assert reopened.size == (20, 60)
    red, _green, blue = reopened.getpixel((10, 3))
    assert blue > 200 and red < 60


def test_png_text_chunks_are_stripped() -> None:
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Someone Private")
    out = io.BytesIO()
    Image.new("RGB", (20, 20), "white").save(out, "PNG", pnginfo=info)
    result = normalise_image(out.getvalue())
    assert b"Someone Private" not in result.content


def test_large_pictures_are_scaled_down() -> None:
    result = normalise_image(picture_bytes("JPEG", size=(4800, 1200)))
    assert (result.width, result.height) == (2400, 600)


def test_the_first_frame_of_an_animation_is_kept() -> None:
    frames = [Image.new("RGB", (30, 30), colour) for colour in ("red", "blue")]
    out = io.BytesIO()
    frames[0].save(out, "WEBP", save_all=True, append_images=frames[1:], lossless=True)
    result = normalise_image(out.getvalue())
    red, _green, blue = Image.open(io.BytesIO(result.content)).getpixel((15, 15))
    assert red > 200 and blue < 50


@pytest.mark.parametrize(
    ("data", "code", "message"),
    [
        (
            SVG,
            "unsupported_image",
            "Only PNG, JPEG and WebP images are accepted; this file is none of them.",
        ),
        (
            b"just some text, renamed to picture.png\n" * 10,
            "unsupported_image",
            "Only PNG, JPEG and WebP images are accepted; this file is none of them.",
        ),
        (
            picture_bytes("GIF"),
            "unsupported_image",
            "Only PNG, JPEG and WebP images are accepted; this file is none of them.",
        ),
        (
            png_bomb(),
            "image_too_many_pixels",
            "The image has more than 40 megapixels.",
        ),
        (
            png_bomb(7000, 7000),
            "image_too_many_pixels",
            "The image is 7000 × 7000 pixels; the limit is 40 megapixels.",
        ),
        (
            picture_bytes("PNG")[:200],
            "corrupt_image",
            "The image could not be read: the file is damaged or not really an image.",
        ),
        (
            b"\x89PNG\r\n\x1a\n" + b"\x00" * 100,
            "corrupt_image",
            "The image could not be read: the file is damaged or not really an image.",
        ),
    ],
    ids=["svg", "text-renamed-png", "gif", "png-bomb", "png-bomb-49mp", "truncated", "fake-png"],
)
def test_bad_files_are_refused(data: bytes, code: str, message: str) -> None:
    with pytest.raises(DomainError) as caught:
        normalise_image(data)
    assert (caught.value.code, caught.value.message) == (code, message)
    assert caught.value.details["field"] == "illustration"


def test_a_decompression_bomb_below_the_pixel_cap_but_lying_about_its_data_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a generous cap, the bomb passes the header check and fails to decode, cleanly."""
    monkeypatch.setattr(images, "MAX_PIXELS", 1_000_000_000)
    with pytest.raises(DomainError) as caught:
        normalise_image(png_bomb(20_000, 20_000))
    assert caught.value.code in {"corrupt_image", "image_too_many_pixels"}


def test_too_many_bytes_are_refused_before_decoding() -> None:
    data = picture_bytes("PNG") + b"\x00" * (images.MAX_UPLOAD_BYTES)
    with pytest.raises(DomainError) as caught:
        normalise_image(data)
    assert caught.value.code == "image_too_large"
    assert caught.value.status_code == 413
    assert caught.value.message.endswith("the limit is 10 MB.")


def test_a_declared_body_over_the_limit_is_refused_unread() -> None:
    with pytest.raises(DomainError) as caught:
        images.refuse_oversized_request(str(100 * 1024 * 1024))
    assert caught.value.message == "The image is 100.0 MB; the limit is 10 MB."
    images.refuse_oversized_request(str(images.MAX_UPLOAD_BYTES))
    images.refuse_oversized_request(None)
    images.refuse_oversized_request("not a number")
