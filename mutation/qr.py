"""Join links as QR codes, so a player at the table joins by pointing a phone at the screen."""

import xml.etree.ElementTree as ET

import qrcode
from django.utils.safestring import SafeString, mark_safe
from qrcode.image.svg import SvgPathImage


def qr_svg(text: str, *, label: str) -> SafeString:
    """An inline SVG of `text` as a QR code, announced as an image named `label`."""
    # Path drawing gives one <path> instead of a rect per module: a small page even for long links.
    svg = qrcode.make(text, image_factory=SvgPathImage, border=2).get_image()
    # The size comes from CSS (it must shrink to a phone); the viewBox keeps the proportions.
    for attribute in ("width", "height"):
        svg.attrib.pop(attribute, None)
    # qrcode names its path "qr-path": a page shows several codes, and ids must stay unique.
    for path in svg:
        path.attrib.pop("id", None)
    svg.set("class", "qr-code")
    svg.set("role", "img")
    svg.set("aria-label", label)
    # ElementTree escapes the label; the unicode form has no XML declaration to embed in HTML.
    return mark_safe(ET.tostring(svg, encoding="unicode"))
