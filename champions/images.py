"""Untrusted illustration uploads: checked by content, bounded, stripped and normalised.

Only PNG, JPEG and WebP are accepted, recognised by their signature (never by the name or the
declared content type). The pixel count is checked from the header before any pixel is
decoded, so a decompression bomb is refused without being inflated. The stored copy is
re-encoded from the decoded pixels alone: EXIF (GPS, camera), XMP, text chunks and colour
profiles are gone, the EXIF orientation is applied first and colours are converted to sRGB.
"""

import hashlib
import io
import warnings
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _
from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from cod_site.errors import DomainError

MAX_UPLOAD_BYTES: int = getattr(settings, "CHAMPIONS_MAX_UPLOAD_BYTES", 10 * 1024 * 1024)
MAX_PIXELS: int = getattr(settings, "CHAMPIONS_MAX_UPLOAD_PIXELS", 40_000_000)
REQUEST_ENVELOPE_BYTES = 256 * 1024
# Long side of the stored copy: enough for the art window at 300 ppi with 2× zoom.
NORMALISED_MAX_SIDE = 2400
JPEG_QUALITY = 90

SIGNATURES: tuple[tuple[str, bytes, int], ...] = (
    ("PNG", b"\x89PNG\r\n\x1a\n", 0),
    ("JPEG", b"\xff\xd8\xff", 0),
    ("WEBP", b"WEBP", 8),  # RIFF····WEBP
)
_SRGB = ImageCms.createProfile("sRGB")


@dataclass(frozen=True)
class NormalisedImage:
    content: bytes
    extension: str  # "png" (kept transparency) or "jpg"
    width: int
    height: int
    sha256: str

    @property
    def content_type(self) -> str:
        return "image/png" if self.extension == "png" else "image/jpeg"


def sniff_format(head: bytes) -> str | None:
    for name, signature, offset in SIGNATURES:
        if head[offset : offset + len(signature)] == signature:
            if name == "WEBP" and head[:4] != b"RIFF":
                continue
            return name
    return None


def refuse_oversized(size: int) -> None:
    if size > MAX_UPLOAD_BYTES:
        raise DomainError(
            "image_too_large",
            _("The image is %(size)s MB; the limit is %(limit)s MB.")
            % {
                "size": f"{size / 1_048_576:.1f}",
                "limit": f"{MAX_UPLOAD_BYTES / 1_048_576:g}",
            },
            {"field": "illustration", "bytes": size, "limit": MAX_UPLOAD_BYTES},
            status_code=413,
        )


def refuse_oversized_request(content_length: str | int | None) -> None:
    """Refuse a request whose declared body is larger than any acceptable upload.

    Checked before the body is read, so a 100 MB upload is turned away without being spooled
    to disk; the envelope leaves room for the multipart headers and the other form fields.
    """
    try:
        declared = int(content_length or 0)
    except ValueError:
        declared = 0
    if declared > MAX_UPLOAD_BYTES + REQUEST_ENVELOPE_BYTES:
        refuse_oversized(declared)


def normalise_image(data: bytes) -> NormalisedImage:
    """The stored copy of an upload, or a DomainError saying why the file is refused."""
    refuse_oversized(len(data))
    kind = sniff_format(data[:16])
    if kind is None:
        raise DomainError(
            "unsupported_image",
            _("Only PNG, JPEG and WebP images are accepted; this file is none of them."),
            {"field": "illustration"},
        )
    try:
        image = Image.open(io.BytesIO(data), formats=[kind])
    except Image.DecompressionBombError as error:  # Pillow's own, far higher, ceiling
        raise _too_many_pixels(None) from error
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise _corrupt() from error
    if image.width * image.height > MAX_PIXELS:
        raise _too_many_pixels(image.size)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image.seek(0)  # the first frame of an animation
            image.load()
            pixels = _clean_pixels(image)
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombWarning) as error:
        raise _corrupt() from error
    pixels.thumbnail((NORMALISED_MAX_SIDE, NORMALISED_MAX_SIDE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    if pixels.mode == "RGBA":
        pixels.save(out, "PNG", optimize=False, compress_level=6)
        extension = "png"
    else:
        pixels.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
        extension = "jpg"
    content = out.getvalue()
    return NormalisedImage(
        content=content,
        extension=extension,
        width=pixels.width,
        height=pixels.height,
        sha256=hashlib.sha256(content).hexdigest(),
    )


def _too_many_pixels(size: tuple[int, int] | None) -> DomainError:
    limit = f"{MAX_PIXELS / 1_000_000:g}"
    if size is None:
        message = _("The image has more than %(limit)s megapixels.") % {"limit": limit}
        return DomainError(
            "image_too_many_pixels", message, {"field": "illustration", "limit": MAX_PIXELS}
        )
    width, height = size
    return DomainError(
        "image_too_many_pixels",
        _("The image is %(width)s × %(height)s pixels; the limit is %(limit)s megapixels.")
        % {"width": width, "height": height, "limit": limit},
        {"field": "illustration", "width": width, "height": height, "limit": MAX_PIXELS},
    )


def _corrupt() -> DomainError:
    return DomainError(
        "corrupt_image",
        _("The image could not be read: the file is damaged or not really an image."),
        {"field": "illustration"},
    )


def _clean_pixels(image: Image.Image) -> Image.Image:
    """Upright sRGB pixels in a fresh image, so no metadata of the upload can survive."""
    image = ImageOps.exif_transpose(image) or image
    profile = image.info.get("icc_profile")
    has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    target = "RGBA" if has_alpha else "RGB"
    if profile and image.mode in ("RGB", "RGBA", "CMYK", "L"):
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            image = ImageCms.profileToProfile(image, source, _SRGB, outputMode=target) or image
        except (ImageCms.PyCMSError, OSError, ValueError):
            pass  # a broken profile: keep the raw values rather than refuse the picture
    converted = image.convert(target)
    clean = Image.new(target, converted.size)
    clean.paste(converted)
    return clean
