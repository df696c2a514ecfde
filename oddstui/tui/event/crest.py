"""A team's crest: its PNG drawn with rich-pixels, or its initials in a box with "no crest".

Crests are fetched once per participant and kept for the life of the REST client (a 404 is
remembered too), so going back and forth between events costs no requests.
"""

from __future__ import annotations

import asyncio
import io
import re
import weakref
from collections.abc import Awaitable, Callable

from PIL import Image, UnidentifiedImageError
from rich.console import RenderableType
from rich.text import Text
from rich_pixels import Pixels
from textual.widgets import Static

from oddstui.api.rest import ApiClient
from oddstui.tui.text import clean

Fetch = Callable[[int], Awaitable[bytes | None]]


def decode_png(data: bytes) -> Image.Image | None:
    """The crest as RGBA, or None when the bytes are not an image pillow can read."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.convert("RGBA")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None


class CrestCache:
    """Decoded crests by participant id; None for a participant without one."""

    def __init__(self, fetch: Fetch) -> None:
        self._fetch = fetch
        self._images: dict[int, Image.Image | None] = {}
        self._pending: dict[int, asyncio.Task[Image.Image | None]] = {}

    async def get(self, participant_id: int) -> Image.Image | None:
        if participant_id in self._images:
            return self._images[participant_id]
        task = self._pending.get(participant_id)
        if task is None:
            task = asyncio.ensure_future(self._load(participant_id))
            self._pending[participant_id] = task
        try:
            image = await asyncio.shield(task)
        finally:
            if task.done():
                self._pending.pop(participant_id, None)
        self._images[participant_id] = image
        return image

    async def _load(self, participant_id: int) -> Image.Image | None:
        data = await self._fetch(participant_id)
        if data is None:
            return None
        return await asyncio.to_thread(decode_png, data)


_caches: weakref.WeakKeyDictionary[ApiClient, CrestCache] = weakref.WeakKeyDictionary()


def crest_cache(api: ApiClient) -> CrestCache:
    """The one cache of an `ApiClient` (made on first use)."""
    cache = _caches.get(api)
    if cache is None:
        cache = _caches[api] = CrestCache(api.participant_logo)
    return cache


def initials(name: str) -> str:
    """`Bodø/Glimt` → `BG`, `Real Madrid` → `RM`; `?` when the name has no letters."""
    words = re.findall(r"[^\W_]+", clean(name))
    return "".join(word[0] for word in words[:2]).upper() or "?"


class Crest(Static):
    """One crest, drawn to fit the widget (each cell holds two pixels, one above the other).

    | class | when |
    |---|---|
    | `-missing` | the participant has no crest: initials in a box and a "no crest" hint |
    | `-loading` | the crest is being fetched |
    """

    DEFAULT_CSS = """
    Crest { width: 12; height: 6; content-align: center middle; text-align: center; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self._image: Image.Image | None = None
        self._team = ""
        self._rendered: dict[tuple[int, int], Pixels] = {}
        self.add_class("-loading")

    @property
    def has_image(self) -> bool:
        return self._image is not None

    def show(self, image: Image.Image | None, name: str) -> None:
        """Draw `image`, or the initials of `name` when there is none."""
        self._image, self._team = image, name
        self._rendered.clear()
        self.remove_class("-loading")
        self.set_class(image is None, "-missing")
        self._draw()

    def load(self, api: ApiClient, participant: int | None, name: str) -> None:
        """Fetch the participant's crest through `api` and show it (initials without one)."""
        self.run_worker(
            self._load(api, participant, name),
            group="crests",
            description=f"crest of {name}",
            exit_on_error=False,
        )

    async def _load(self, api: ApiClient, participant: int | None, name: str) -> None:
        if participant is None:
            self.show(None, name)
            return
        try:
            image = await crest_cache(api).get(participant)
        except Exception:
            self.show(None, name)  # a crest is decoration: its failure is no error to report
            return
        self.show(image, name)

    def on_resize(self) -> None:
        if self._image is not None:
            self._draw()

    def _draw(self) -> None:
        self.update(self._content())

    def _content(self) -> RenderableType:
        if self._image is None:
            return Text.assemble((initials(self._team), "bold"), "\n", ("no crest", "italic"))
        width, height = self.content_size.width, self.content_size.height
        side = max(min(width, height * 2) - (min(width, height * 2) % 2), 2)
        pixels = self._rendered.get((side, side))
        if pixels is None:
            pixels = self._rendered[(side, side)] = Pixels.from_image(
                self._image, resize=(side, side)
            )
        return pixels
