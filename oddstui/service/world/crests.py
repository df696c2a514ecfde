"""Small generated crest PNGs (pillow): deterministic per participant, encoded once, cached."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from oddstui.service.world.truth import mix

SIZE = 32
_PALETTE = [
    (200, 16, 46), (0, 56, 168), (255, 205, 0), (0, 122, 51), (255, 255, 255), (20, 20, 20),
    (108, 29, 69), (135, 206, 235), (255, 103, 31), (112, 48, 160), (0, 128, 128),
]


def render_crest(participant_id: int, seed: int) -> bytes:
    h = mix(seed, participant_id)
    primary = _PALETTE[h % len(_PALETTE)]
    secondary = _PALETTE[(h >> 8) % len(_PALETTE)]
    if secondary == primary:
        secondary = _PALETTE[(h % len(_PALETTE) + 3) % len(_PALETTE)]
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    shape = (h >> 16) % 3
    outline = (10, 10, 10, 255)
    if shape == 0:  # a shield
        draw.polygon([(3, 2), (28, 2), (28, 16), (16, 29), (3, 16)], fill=primary,
                     outline=outline)
    elif shape == 1:  # a roundel
        draw.ellipse((2, 2, 29, 29), fill=primary, outline=outline)
    else:  # a square badge
        draw.rectangle((3, 3, 28, 28), fill=primary, outline=outline)
    pattern = (h >> 20) % 3
    if pattern == 0:  # a stripe
        draw.rectangle((13, 5, 18, 25), fill=secondary)
    elif pattern == 1:  # a band
        draw.rectangle((6, 12, 25, 18), fill=secondary)
    else:  # a star-ish dot
        draw.ellipse((11, 10, 20, 19), fill=secondary)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


class CrestCache:
    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._cache: dict[int, bytes] = {}

    def get(self, participant_id: int) -> bytes:
        png = self._cache.get(participant_id)
        if png is None:
            png = self._cache[participant_id] = render_crest(participant_id, self._seed)
        return png
