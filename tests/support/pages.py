"""Reading the league site's pages back with the standard library's HTML parser (issue 23)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""
    children: list["Element"] = field(default_factory=list)


class Page(HTMLParser):
    """The parts of a page a test checks: ``lang``, headings (level, text), images (attributes),
    links, and every table's rows (cell texts) by the table's class."""

    VOID = {"img", "meta", "link", "br", "input", "hr"}

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = ""
        self.headings: list[tuple[int, str]] = []
        self.images: list[dict[str, str]] = []
        self.links: list[str] = []
        self.tables: dict[str, list[list[str]]] = {}
        self.lists: dict[str, list[str]] = {}
        self.buttons: list[tuple[dict[str, str], str]] = []
        self.ids: list[str] = []
        self._stack: list[tuple[str, dict[str, str]]] = []
        self._heading: list[str] | None = None
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._table: str | None = None
        self._list: list[tuple[str, list[str] | None]] = []
        self._button: tuple[dict[str, str], list[str]] | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attrs_list}
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "html":
            self.lang = attrs.get("lang", "")
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = []
        elif tag == "img":
            self.images.append(attrs)
        elif tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        elif tag == "table":
            self._table = attrs.get("class", "")
            self.tables.setdefault(self._table, [])
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag in ("ul", "ol"):
            self._list.append((attrs.get("class", ""), None))
        elif tag == "li" and self._list:
            cls, _ = self._list[-1]
            self._list[-1] = (cls, [])
        elif tag == "button":
            self._button = (attrs, [])
        if tag not in self.VOID:
            self._stack.append((tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._heading is not None:
            self.headings.append((int(tag[1]), " ".join("".join(self._heading).split())))
            self._heading = None
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table is not None:
            self.tables[self._table].append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None
        elif tag == "li" and self._list and self._list[-1][1] is not None:
            cls, parts = self._list[-1]
            self.lists.setdefault(cls, []).append(" ".join("".join(parts or []).split()))
            self._list[-1] = (cls, None)
        elif tag in ("ul", "ol") and self._list:
            self._list.pop()
        elif tag == "button" and self._button is not None:
            self.buttons.append((self._button[0], "".join(self._button[1]).strip()))
            self._button = None
        while self._stack:
            if self._stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for part in (self._heading, self._cell, self._button[1] if self._button else None):
            if part is not None:
                part.append(data)
        for _cls, parts in self._list:
            if parts is not None:
                parts.append(data)
