"""The faces of one job, each rendered once and known by a key: :class:`FaceRegistry` (face keys, their HTML held in
a :class:`~printer.sheets.faces.store.FaceHtml`, what prints each face), with card fronts kept in the face cache's
HTML store between builds."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from printer.cards.model import Card
from printer.limits import DEFAULT as DEFAULT_LIMITS
from printer.limits import over as over_limit
from printer.problems import Location, RenderError
from printer.sheets.cache import FaceKeyEntry, referenced_files
from printer.sheets.faces.items import PrintItem
from printer.sheets.faces.store import FaceHtml, html_digest
from printer.sheets.options import PrintOptions
from printer.sheets.render import Renderer

if TYPE_CHECKING:
    from printer.sheets.cache import FaceCache

#: what prints a face, for warnings: ``(where, name, card or None)``; a card's ``where`` is ``""`` (:func:`owner_where`)
Owner = tuple[str, str, Card | None]


def front_owner(item: PrintItem) -> Owner:
    """The owner of ``item``'s front: ``("", name, card)`` for a card, ``(name, name, None)`` for a placeholder."""
    return ("" if item.card else item.name, item.name, item.card)


class FaceOwners:
    """What prints each face, by face key (:attr:`FaceRegistry.owners`): :meth:`get` gives a face's owners in the order
    they were added.

    A face whose only owner is the front of one print item (most faces) is held as that item, the entry made
    when asked for (:func:`front_owner`): two tuples a face otherwise, 1 MB for 9,000 cards."""

    def __init__(self) -> None:
        self._items: dict[str, PrintItem] = {}  # faces owned by one item's front alone
        self._many: dict[str, tuple[Owner, ...]] = {}

    def add(self, key: str, owner: Owner, item: PrintItem | None = None) -> None:
        """Add ``owner`` to the face ``key``'s owners unless it is one; ``item``: the print item whose front
        ``owner`` is, if any."""
        owners = self.get(key)
        if owner in owners:
            return
        if not owners and item is not None and front_owner(item) == owner:
            self._items[key] = item
            return
        self._items.pop(key, None)
        self._many[key] = owners + (owner,)

    def get(self, key: str, default: tuple[Owner, ...] = ()) -> tuple[Owner, ...]:
        """The owners of the face ``key``, or ``default`` when it has none."""
        item = self._items.get(key)
        if item is not None:
            return (front_owner(item),)
        return self._many.get(key, default)

    def __len__(self) -> int:
        return len(self._items) + len(self._many)


def owner_where(owner: Owner) -> str | Location:
    """Where the owner of a face (an entry of :attr:`FaceRegistry.owners`) is, for a warning: a card's ``where`` (not
    held in the entry: a string a card), else the place the entry names."""
    where, _, card = owner
    return card.where if card is not None and not where else where


class FaceRegistry:
    """The faces of one job, rendered once each: ``front_key(item)`` / ``back_key(item)`` give the face key, one per
    distinct face, rendering its HTML the first time into :attr:`html`; ``front(item)`` / ``back(item)`` give
    ``(html, key)``; :attr:`owners` (:class:`FaceOwners`) gives a face key's owners, the cards that print it,
    ``(where, name, card)`` each (for warnings; a card's ``where`` is ``""``: :func:`owner_where` gives it).

    ``renderer`` renders the game's templates, ``opts`` are the print settings, ``base`` the folder the faces'
    relative URLs are read from; ``max_html_chars`` bounds the characters of HTML of the distinct faces (the
    project's ``limits.face_html_total_chars``): past it :class:`~printer.problems.RenderError` is raised.
    """

    def __init__(
        self,
        renderer: Renderer,
        opts: PrintOptions,
        base: Path | None = None,
        max_html_chars: int = DEFAULT_LIMITS.face_html_total_chars,
    ) -> None:
        self.renderer = renderer
        self.opts = opts
        self.base = base or Path.cwd()
        self.html = FaceHtml()
        self.keys: dict[bytes, str] = {}  # a face's HTML (its digest: :func:`html_digest`) -> its key
        self.html_chars = 0  # characters of HTML of the distinct faces composed
        self.max_html_chars = max_html_chars
        self.owners = FaceOwners()
        self._fronts: dict[object, str] = {}  # a card's (or placeholder's) front -> its face key
        self._backs: dict[object, str] = {}
        self._given: list[Markup] = []  # HTML given with an item, known by its id(): kept, so that no other has it
        self._cache: FaceCache | None = None  # keeps each card's front HTML between builds (:meth:`use_cache`)
        self._templates: str | None = None  # the signature of the game's templates and options
        self._existing: dict[Path, bool] = {}  # files the faces' HTML names: whether each exists (this job's view)
        self._base_url = self.base.as_uri() + "/"
        self._context: str | None = None  # the face cache's context of this job's faces (:meth:`use_cache`)
        self._stats: dict[str, tuple[int, int] | None] = {}  # size and time of files face key entries name
        #: each card front's key in the face cache, when a face key entry (:class:`FaceKeyEntry`) held it
        self.cache_keys: dict[str, str] = {}
        self._idents: dict[str, str] = {}  # card fronts' face keys -> the name of the entry to keep their key under
        #: the files a card front's HTML names, by its key in the face cache (from its face key entry, or found
        #: when its key was)
        self.named_by_cache_key: dict[str, tuple[str, ...]] = {}
        #: each card's key in the face cache's HTML store (a digest of its data and of what renders it), by card id,
        #: for the cards whose front this job rendered or read with the face cache in use
        self.card_keys: dict[str, str] = {}

    def fresh(self) -> FaceRegistry:
        """A new registry on the same renderer, options and limit, holding no face (a worker's, for one batch)."""
        return FaceRegistry(self.renderer, self.opts, self.base, self.max_html_chars)

    def use_cache(self, cache: FaceCache | None, context: str | None = None) -> None:
        """Read card fronts' HTML from ``cache``'s HTML store when it holds them, and store those rendered there;
        with ``context`` (the face cache's context of this job's faces and their base URL,
        :meth:`printer.sheets.output.cached.CachedFaces.context`), also each card front's key in the face cache
        (:attr:`cache_keys`), so that a front whose card, templates, context and named files did not change is
        not read for the files it names nor hashed again (:meth:`keep_cache_key` keeps the others')."""
        self._cache = cache
        self._context = context

    def keep_cache_key(self, key: str, cache_key: str, files: Iterable[Path]) -> None:
        """Keep ``cache_key``, the face cache's key of the card front ``key`` found from its HTML, for the next
        build (a face key entry, :class:`~printer.sheets.cache.FaceKeyEntry`), with the ``files`` its HTML names
        as they are now (size and time); nothing for a face that is not a card front of this job."""
        ident = self._idents.pop(key, None)
        if ident is None or self._cache is None:
            return
        named = {str(path) for path in (*files, *referenced_files(str(self.html[key]), self._base_url))}
        stats = [(path, self._stat(path)) for path in sorted(named)]
        if all(stat is not None for _, stat in stats):
            entry = FaceKeyEntry(html_digest(self.html[key]).hex(), cache_key, tuple((p, *st) for p, st in stats if st))
            self._cache.put_ident(ident, entry)
        self.cache_keys[key] = cache_key
        self.named_by_cache_key[cache_key] = tuple(sorted(named))

    def _stat(self, path: str) -> tuple[int, int] | None:
        """``(size, modification time in ns)`` of the file ``path``, asked once per job; ``None`` when missing."""
        if path not in self._stats:
            try:
                found = os.stat(path)
                self._stats[path] = (found.st_size, found.st_mtime_ns)
            except OSError:
                self._stats[path] = None
        return self._stats[path]

    def put(self, key: str, html: str) -> None:
        """Hold ``html`` as the face ``key`` (a worker's batch: the keys are the build's)."""
        self.html[key] = Markup(html)
        self.keys[html_digest(html)] = key

    def key_of(self, html: Markup, owner: Owner, item: PrintItem | None = None, digest: bytes | None = None) -> str:
        """The face key of ``html`` (a new key the first time it is seen; ``digest``: its :func:`html_digest` when
        known), with ``owner`` added to its owners."""
        text = digest if digest is not None else html_digest(html)
        key = self.keys.get(text)
        if key is None:
            self.html_chars += len(html)
            if self.html_chars > self.max_html_chars:
                problem = over_limit(
                    "face_html_total_chars",
                    self.html_chars,
                    self.max_html_chars,
                    owner_where(owner),
                    "the HTML of the faces of this build, in characters, up to this one",
                )
                raise RenderError(problem.message, [problem])
            key = self.keys[text] = f"f{len(self.keys) + 1}"
            self.html[key] = html
        self.owners.add(key, owner, item)
        return key

    def front(self, item: PrintItem) -> tuple[Markup, str]:
        """``(html, key)`` of the item's front (:meth:`front_key`; the HTML read back from :attr:`html`)."""
        key = self.front_key(item)
        return self.html[key], key

    def back(self, item: PrintItem) -> tuple[Markup, str]:
        """``(html, key)`` of the item's back (:meth:`back_key`)."""
        key = self.back_key(item)
        return self.html[key], key

    def front_key(self, item: PrintItem) -> str:
        """The face key of the item's front, its HTML rendered and kept in :attr:`html` the first time."""
        ident: object = (  # a card's by its id alone (a string: no tuple a card)
            ("html", id(item.front_html))
            if item.front_html is not None
            else (item.card.id if item.card is not None else ("placeholder", item.name, item.reason))
        )
        known = self._fronts.get(ident)
        if known is not None:
            return known
        if item.card is not None and item.front_html is None:
            html, digest, entry, cache_key = self._rendered_front(item.card)
            key = self._fronts[ident] = self.key_of(html, front_owner(item), item, digest)
            if cache_key is not None:
                self.cache_keys[key] = cache_key
            elif entry is not None:
                self._idents.setdefault(key, entry)
            return key
        return self._remember(self._fronts, ident, self.front_html(item), front_owner(item), item.front_html, item)

    def front_html(self, item: PrintItem) -> Markup:
        """The HTML of ``item``'s front, rendered (or read from the face cache), neither keyed nor kept: the HTML given
        with the item, else its card's front, else a placeholder. Raises :class:`~printer.problems.RenderError`
        (:class:`~printer.problems.PrinterError`) for a template error; the renderer's warnings go to its
        ``problems``."""
        if item.front_html is not None:
            return item.front_html
        if item.card is not None:
            return self._rendered_front(item.card)[0]
        return self.renderer.placeholder(item.name, item.reason)

    def _remember(
        self,
        table: dict[object, str],
        ident: object,
        html: Markup,
        owner: Owner,
        given: Markup | None,
        item: PrintItem | None = None,
    ) -> str:
        """``html``'s face key, kept in ``table`` under ``ident`` (a front or a back); ``given``, the HTML an item
        came with, is kept alive while its ``id()`` is part of ``ident``; ``item``: the item whose front it is."""
        table[ident] = key = self.key_of(html, owner, item)
        if given is not None:
            self._given.append(given)
        return key

    def _rendered_front(self, card: Card) -> tuple[Markup, bytes | None, str | None, str | None]:
        """``(html, its digest or None, entry, cache key)`` of the card's front: the HTML from the face cache's HTML
        store when the card's data, the game's templates, the options and the card's art are as when it was
        rendered (the renderer's warnings come back too); ``entry`` names the face key entry of the card in this
        job's context, and ``cache_key`` is its key in the face cache when that entry holds it (else ``None``)."""
        cache = self._cache
        if cache is None:
            return self.renderer.front(card), None, None, None
        key = self.card_keys[card.id] = self._card_key(card)
        entry = None
        if self._context is not None:
            entry = hashlib.sha256(f"{key}\0{self._context}".encode()).hexdigest()
        found = cache.get_html(key)
        if found is not None:
            html, digest = Markup(found[0]), html_digest(found[0])
            kept = cache.get_ident(entry) if entry is not None else None
            if (
                kept is not None
                and kept.html == digest.hex()
                and all(self._stat(f) == (n, t) for f, n, t in kept.files)
            ):
                self.renderer.problems.extend(p for p in found[1] if p not in self.renderer.problems)
                self.named_by_cache_key[kept.face] = tuple(f for f, _, _ in kept.files)
                return html, digest, entry, kept.face
            if all(map(self._exists, referenced_files(found[0], self._base_url))):
                self.renderer.problems.extend(p for p in found[1] if p not in self.renderer.problems)
                return html, digest, entry, None
        before = len(self.renderer.problems)
        html = self.renderer.front(card)
        cache.put_html(key, str(html), self.renderer.problems[before:])
        return html, None, entry, None

    def _card_key(self, card: Card) -> str:
        """The name of the card's front HTML in the face cache's HTML store: a digest of the card's data and place,
        its art's size and time, and :meth:`signature`."""
        art = card.art_path()
        stat: tuple[int, int] | str | None = None
        if art is not None:
            try:
                stat = (art.stat().st_size, art.stat().st_mtime_ns)
            except OSError:
                stat = "missing"
        data = json.dumps(card.data, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(f"{self.signature()}\0{card.where}\0{stat}\0{data}".encode()).hexdigest()

    def signature(self) -> str:
        """A digest of what the job's HTML is rendered with besides a card's data, found once: the game's template
        folders (each file's path, size and time: :func:`printer.sheets.uptodate.signature`), the game's settings,
        the options, the card size and bleed, the language, the project's view and printer's version."""
        if self._templates is None:
            from printer import __version__
            from printer.sheets.uptodate import signature

            dirs = self.renderer.game.template_dirs
            game = self.renderer.game
            parts = [__version__, game.id, game.settings, self.renderer.bleed, self.renderer.card_size, self.opts]
            parts += [self.renderer.component, self.renderer.project]
            if self.renderer.lang is not None:  # a build in one language (the source's is in the game's settings)
                parts.append(("lang", self.renderer.lang))
            self._templates = signature(parts, [], dirs) or ""
        return self._templates

    def _exists(self, path: Path) -> bool:
        """Whether ``path`` exists, asked once per job (900 faces name the same icons)."""
        found = self._existing.get(path)
        if found is None:
            found = self._existing[path] = path.exists()
        return found

    def back_ident(self, item: PrintItem) -> tuple[str, Any]:
        if item.back_html is not None:
            return ("html", id(item.back_html))
        if item.back_card is not None:
            return ("card", item.back_card.id)
        if item.card is not None and self.renderer.double_sided(item.card):
            return ("self", item.card.id)
        return ("back", self.renderer.back_name(item.card))

    def back_key(self, item: PrintItem) -> str:
        """The face key of the item's back (a back card's front, a shared back or HTML given with the item)."""
        ident = self.back_ident(item)
        known = self._backs.get(ident)
        if known is not None:
            return known
        html, owner = self._back_face(item, ident)
        return self._remember(self._backs, ident, html, owner, item.back_html)

    def back_html(self, item: PrintItem) -> Markup:
        """The HTML of ``item``'s back (:meth:`back_key`'s face), rendered, neither keyed nor kept. Raises as
        :meth:`front_html`."""
        return self._back_face(item, self.back_ident(item))[0]

    def _back_face(self, item: PrintItem, ident: tuple[str, Any]) -> tuple[Markup, Owner]:
        """The HTML of ``item``'s back (``ident``: :meth:`back_ident`) and its owner."""
        if item.back_html is not None:
            return item.back_html, (item.name, item.name, None)
        if item.back_card is not None:
            return self.renderer.front(item.back_card), ("", item.back_card.name, item.back_card)
        if ident[0] == "self" and item.card is not None:  # a double-sided card: itself again, as its back
            return self.renderer.front(item.card, side="back"), ("", item.card.name, item.card)
        return self.renderer.back(ident[1]), (f"back {ident[1]!r}", f"back {ident[1]}", None)
