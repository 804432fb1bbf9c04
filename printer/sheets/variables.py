"""The variables each kind of card template gets: the source of the documentation's template-variables page.

:func:`markdown` writes ``docs/template-variables.md``; a test renders each
kind of template and checks that the variables printer passes are exactly
the ones listed here, so the page cannot drift from the code.
"""

from __future__ import annotations

#: what every kind of template gets as ``project`` (printer.sheets.render.project_view)
PROJECT = (
    "The project (`project.version`: printer.toml's `[project] version`, as text, `none` when not set; "
    "`project.build_date`: the build's date, ISO `YYYY-MM-DD`, from `SOURCE_DATE_EPOCH` when set, else today, UTC): "
    "print a version stamp with `{{ project.version }} · {{ project.build_date }}`."
)

#: template kind -> (the files it is read from, {variable: meaning})
TEMPLATE_VARIABLES: dict[str, tuple[str, dict[str, str]]] = {
    "Card front": (
        "`card-<type>.html.j2` (the card's type, lower-case, spaces as `-`), else `card.html.j2`",
        {
            "card": "The card's fields as a dict (`card.title`, `card.cost`, `card['cost.gold']` is not a thing: "
            "nested fields are dicts, `card.cost.gold`). `copies` is always there (default 1). A field a card may "
            "lack is read with `card.get('field')`: templates run with strict undefined variables, so "
            "`card.field` on a card without it is an error at `printer validate`.",
            "name": "The full card name a player writes in a decklist: the title, plus ` • <variant>` for a card "
            "of a game whose versions of a title are different cards (such as ` • Veteran 2`).",
            "text": "The card's `text` field as HTML: card-text markup (`**bold**`, `*italic*`, line breaks, "
            "`{icon}`) already converted; print it with `{{ text }}`. Empty when the card has none.",
            "flavor": "The card's `flavor` field as HTML, like `text`.",
            "type_class": "The card's type as a CSS class name: lower-case, spaces as `-` (`Place of Power` -> "
            "`place-of-power`).",
            "art_url": "The URL of the card's art, prepared for the card's size with bleed; `none` when the card "
            "has no `art` or the file is missing (print a placeholder then).",
            "art_for": "A function `art_for(width_mm, height_mm, fit='cover')`: the art's URL prepared for a box of "
            "that size in mm (resampled to 300 dpi; `fit` is `cover` or `contain`), or `none`.",
            "art_missing": "The art file's name when the card names art that cannot be read (missing or broken), "
            "else `none`: show it on the placeholder.",
            "game": "The game (`game.id`, `game.name`, `game.card_size`, `game.settings`: its `printer.toml` table).",
            "component": "`none` for a card; for a component that is not a card (docs/components.md) its `name`, "
            "`kind` (token, tile, board), `shape` and trim `width` and `height` in mm.",
            "side": "`front`; `back` when a double-sided card (printer.toml `double_sided`) prints itself again as "
            "its back, so the template can tell its two sides apart (a frame colour).",
            "project": PROJECT,
            "lang": "The language of the build: `ja` for `printer build --lang ja`, else the game's source language "
            "(the first of `[games.<id>] languages`, default `en`). With `--lang`, the face's root element also "
            'carries `lang="ja"` (docs/translations.md).',
        },
    ),
    "Card back": (
        "`back.html.j2`",
        {
            "back": "The back's name: the card's `back` field, else the `backs` entry of `printer.toml` for the "
            "card's `back_field` value, else `default`; `placeholder` for an empty slot.",
            "game": "The game, as for the front.",
            "component": "As for the front.",
            "project": "The project, as for the front.",
            "lang": "As for the front.",
        },
    ),
    "Placeholder": (
        "`placeholder.html.j2` (printer's own; a game may replace it)",
        {
            "name": "The name of the card that could not be found (a decklist line no card matches).",
            "reason": "Why it is a placeholder, printed small on the card.",
            "game": "The game, as for the front.",
            "project": "The project, as for the front.",
            "lang": "As for the front.",
        },
    ),
}

#: functions every card template can call
GLOBALS: dict[str, str] = {
    "icon_url": "`icon_url(name)`: the URL of `icons/<name>.svg` on the game's template path, or `none`.",
}

#: filters every card template can use
FILTERS: dict[str, str] = {
    "markup": "`{{ card.ability|markup }}`: any field's text through card-text markup, as `text` is (problems "
    "reported at the field).",
    "spaceless": "`{% filter spaceless %}...{% endfilter %}`: removes the white space between two tags when one of "
    "them is a block-level tag (`div`, `p`, `header`, `li`...).",
}

#: CSS custom properties set on every face
CSS_VARIABLES: dict[str, str] = {
    "--bleed": "The bleed in mm (`0mm` when none): art that runs into the bleed uses it, or the `bleed` class.",
    "--safe": "The safe area's inset in mm: text stays inside it (the `safe` class is a box exactly on it).",
    "--trim-width": "The card's trim width.",
    "--trim-height": "The card's trim height.",
}


def markdown() -> str:
    """The template-variables page (Markdown)."""
    lines = [
        "# Template variables",
        "",
        "<!-- Generated from printer/sheets/variables.py by `python -m printer.sheets.variables`: edit that file. -->",
        "",
        "Card templates are Jinja2 files in `templates/<game>/` (your project's first, then printer's bundled ones).",
        "They run sandboxed, with autoescaping and **strict undefined variables**: a name a template uses that",
        "printer does not pass is an error at `printer validate`, located at the template's line.",
        "",
    ]
    for kind, (files, variables) in TEMPLATE_VARIABLES.items():
        lines += [f"## {kind}", "", f"Read from {files}.", "", "| variable | what it is |", "| --- | --- |"]
        lines += [f"| `{name}` | {meaning} |" for name, meaning in variables.items()]
        lines.append("")
    lines += ["## Functions and filters", "", "| name | what it does |", "| --- | --- |"]
    lines += [f"| `{name}` | {meaning} |" for name, meaning in {**GLOBALS, **FILTERS}.items()]
    lines += ["", "## CSS variables", "", "Set on every face, for `card.css`:", ""]
    lines += ["| variable | what it is |", "| --- | --- |"]
    lines += [f"| `{name}` | {meaning} |" for name, meaning in CSS_VARIABLES.items()]
    lines += [
        "",
        "See [print production](print-production.md#writing-templates-for-print-the-template-contract) for the "
        "template contract (bleed, safe area, text fit).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    sys.stdout.write(markdown())
