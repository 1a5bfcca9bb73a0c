"""The QR codes of the join links: what a phone camera and a screen reader get."""

import re

from mutation.qr import qr_svg


def test_a_qr_code_is_a_named_image_that_scales() -> None:
    svg = qr_svg("https://example.org/mutation/join/abc/", label='Seat "2" & <more>')
    assert svg.startswith(
        '<svg version="1.1" viewBox="0 0 33 33" xmlns="http://www.w3.org/2000/svg" class="qr-code"'
        ' role="img" aria-label="Seat &quot;2&quot; &amp; &lt;more&gt;">'
    )
    assert "width=" not in svg and "height=" not in svg and " id=" not in svg


def test_the_code_draws_the_three_finder_squares_inside_a_quiet_zone() -> None:
    svg = qr_svg("https://example.org/mutation/join/abc/", label="x")
    cells = {(int(x), int(y)) for x, y in re.findall(r"M(\d+),(\d+)H", svg)}
    # Version 3 (29 modules) and a border of 2: modules from 2 to 30.
    assert min(x for x, _ in cells) == 2 and max(x for x, _ in cells) == 30
    assert min(y for _, y in cells) == 2 and max(y for _, y in cells) == 30
    for left, top in ((2, 2), (24, 2), (2, 24)):
        ring = {(left + i, top) for i in range(7)} | {(left + i, top + 6) for i in range(7)}
        ring |= {(left, top + i) for i in range(7)} | {(left + 6, top + i) for i in range(7)}
        core = {(left + 2 + i, top + 2 + j) for i in range(3) for j in range(3)}
        gap = {(left + 1 + i, top + 1) for i in range(5)}
        assert ring | core <= cells and not gap & cells
