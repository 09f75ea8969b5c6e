"""What the PNG chart is drawn with: plot areas on a Pillow image, their axes, ticks, labels, legends and lines.

A small kit of what ``chart`` draws (bars, error bars, steps, dashed lines, cells, rotated labels), in pixels of
one ``Image``; Pillow (the ``plot`` extra) is imported by whoever imports this module. The text is Pillow's own
scalable font (``ImageFont.load_default``), so nothing depends on the fonts a machine has.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from PIL import Image, ImageColor, ImageDraw, ImageFont

Colour = str | tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
#: matplotlib's ten colours (its default colour cycle), so the chart reads as it did
CYCLE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
         "#17becf")
INK = (0, 0, 0)
GREY = (128, 128, 128)
#: ColorBrewer's red-to-blue diverging scale in eleven steps (matplotlib's "RdBu")
RED_TO_BLUE = ("#67001f", "#b2182b", "#d6604d", "#f4a582", "#fddbc7", "#f7f7f7", "#d1e5f0", "#92c5de", "#4393c3",
               "#2166ac", "#053061")


@cache
def font(size: int) -> Font:
    """Pillow's own sans-serif font at ``size`` pixels."""
    return ImageFont.load_default(size)


def scale_colour(share: float) -> tuple[int, int, int]:
    """The colour of ``share`` (0 to 1) on the red-to-blue scale, between its two nearest steps.

    >>> scale_colour(0.0), scale_colour(0.5), scale_colour(1.0)
    ((103, 0, 31), (247, 247, 247), (5, 48, 97))
    """
    at = min(max(share, 0.0), 1.0) * (len(RED_TO_BLUE) - 1)
    low = min(int(at), len(RED_TO_BLUE) - 2)
    part = at - low
    a, b = ImageColor.getrgb(RED_TO_BLUE[low]), ImageColor.getrgb(RED_TO_BLUE[low + 1])
    return tuple(round(x + (y - x) * part) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def nice_ticks(low: float, high: float, most: int = 8) -> list[float]:
    """Round ticks from ``low`` to ``high``, a step of 1, 2, 2.5 or 5 times a power of ten, at most ``most``.

    >>> nice_ticks(0, 100), nice_ticks(21.3, 46.2), nice_ticks(3.1, 10.4)
    ([0, 20, 40, 60, 80, 100], [25, 30, 35, 40, 45], [4, 5, 6, 7, 8, 9, 10])
    """
    span = max(high - low, 1e-9)
    power = 10.0 ** math.floor(math.log10(span / most))
    step = next(m * power for m in (1, 2, 2.5, 5, 10, 20) if span / (m * power) <= most)
    first = math.ceil(low / step - 1e-9)
    ticks = [(first + i) * step for i in range(int((high - first * step) / step + 1e-9) + 1)]
    return [int(t) if float(t).is_integer() else round(t, 6) for t in ticks]


def tick_label(value: float) -> str:
    """A tick's number as matplotlib writes it: no decimals for a whole number."""
    return f"{value:g}"


def text(image: Image.Image, at: tuple[float, float], words: str, size: int, anchor: str = "mm",
         fill: Colour = INK, angle: float = 0) -> None:
    """``words`` written at ``at`` (Pillow's two-letter ``anchor``: l/m/r then a/m/s/d), turned ``angle`` degrees
    counter-clockwise about that point (its box placed by the anchor's corner for a turned text)."""
    if not angle:
        ImageDraw.Draw(image).multiline_text(at, words, fill=fill, font=font(size), anchor=anchor, align="center")
        return
    box = ImageDraw.Draw(image).multiline_textbbox((0, 0), words, font=font(size), anchor="la")
    mask = Image.new("L", (math.ceil(box[2]) + 2, math.ceil(box[3]) + 2))
    ImageDraw.Draw(mask).multiline_text((1, 1), words, fill=255, font=font(size), anchor="la", align="center")
    mask = mask.rotate(angle, expand=True, resample=Image.Resampling.BICUBIC)
    left = at[0] - {"l": 0, "m": mask.width / 2, "r": mask.width}[anchor[0]]
    top = at[1] - {"a": 0, "m": mask.height / 2, "s": mask.height, "d": mask.height}[anchor[1]]
    image.paste(fill, (round(left), round(top)), mask)


def text_width(words: str, size: int) -> float:
    """How wide ``words`` are in pixels."""
    return font(size).getlength(words)


def wrapped(words: str, size: int, width: float) -> str:
    """``words`` broken into lines at spaces, each at most ``width`` pixels wide (a longer word stands alone)."""
    lines: list[str] = []
    for word in words.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return "\n".join(lines)


def legend_height(entries: int, size: int = 11) -> float:
    """How tall ``Axes.legend``'s box of ``entries`` is, in pixels."""
    return (size + 7) * entries + 6


def dashed(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], fill: Colour,
           width: int = 1, dash: float = 5, gap: float = 3) -> None:
    """A dashed straight line from ``start`` to ``end``."""
    length = math.dist(start, end)
    if length == 0:
        return
    dx, dy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    at = 0.0
    while at < length:
        stop = min(at + dash, length)
        draw.line([(start[0] + dx * at, start[1] + dy * at), (start[0] + dx * stop, start[1] + dy * stop)],
                  fill=fill, width=width)
        at = stop + gap


@dataclass
class Axes:
    """A plot area: its box in pixels (left, top, right, bottom) and the data ranges it shows along x and y."""

    image: Image.Image
    box: tuple[float, float, float, float]
    xs: tuple[float, float]
    ys: tuple[float, float]
    draw: ImageDraw.ImageDraw = field(init=False)
    labels_width: float = field(init=False, default=0)  # the widest y tick label (``frame``): the y label goes beyond

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)

    def px(self, x: float) -> float:
        """The pixel column of ``x``."""
        left, _, right, _ = self.box
        return left + (x - self.xs[0]) / (self.xs[1] - self.xs[0]) * (right - left)

    def py(self, y: float) -> float:
        """The pixel row of ``y`` (up is more)."""
        _, top, _, bottom = self.box
        return bottom - (y - self.ys[0]) / (self.ys[1] - self.ys[0]) * (bottom - top)

    def frame(self, xticks: Sequence[tuple[float, str]], yticks: Sequence[tuple[float, str]], size: int = 13,
              xangle: float = 0) -> None:
        """The box's frame, and its ticks with their labels below it and left of it (``xangle``: the x labels
        turned, their right end under their tick)."""
        left, top, right, bottom = self.box
        self.draw.rectangle((left, top, right, bottom), outline=INK, width=1)
        for x, label in xticks:
            at = self.px(x)
            self.draw.line([(at, bottom), (at, bottom + 4)], fill=INK)
            if xangle:
                text(self.image, (at + 4, bottom + 6), label, size, anchor="ra", angle=xangle)
            else:
                text(self.image, (at, bottom + 7), label, size, anchor="ma")
        self.labels_width = max((text_width(label, size) for _, label in yticks), default=0)
        for y, label in yticks:
            at = self.py(y)
            self.draw.line([(left - 4, at), (left, at)], fill=INK)
            text(self.image, (left - 7, at), label, size, anchor="rm")

    def labels(self, title: str = "", xlabel: str = "", ylabel: str = "", size: int = 13, title_size: int = 16,
               below: float = 26) -> None:
        """The title above the box, the x label ``below`` pixels under it, the y label turned left of the y tick
        labels (``frame`` first)."""
        left, top, right, bottom = self.box
        if title:
            text(self.image, ((left + right) / 2, top - 6), title, title_size, anchor="md")
        if xlabel:
            text(self.image, ((left + right) / 2, bottom + below), xlabel, size, anchor="ma")
        if ylabel:
            text(self.image, (left - self.labels_width - 14, (top + bottom) / 2), ylabel, size, anchor="rm", angle=90)

    def legend(self, entries: Sequence[tuple[Colour, str, str]], size: int = 11) -> None:
        """A legend in the box's upper right corner: per entry its colour, drawn as a ``"patch"`` or a ``"line"``,
        and its label."""
        height = size + 7
        width = max(text_width(label, size) for _, _, label in entries) + 40
        right, top = self.box[2] - 8, self.box[1] + 8
        self.draw.rectangle((right - width, top, right, top + legend_height(len(entries), size)), fill="white",
                            outline=(204, 204, 204))
        for i, (colour, kind, label) in enumerate(entries):
            middle = top + 3 + height * i + height / 2
            if kind == "patch":
                self.draw.rectangle((right - width + 8, middle - 4, right - width + 28, middle + 4), fill=colour)
            else:
                self.draw.line([(right - width + 8, middle), (right - width + 28, middle)], fill=colour, width=2)
            text(self.image, (right - width + 34, middle), label, size, anchor="lm")
