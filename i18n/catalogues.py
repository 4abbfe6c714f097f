"""Keep the catalogues in step with the source: ``python -m i18n.catalogues update|check``.

``update`` extracts every marked text (``i18n/babel.cfg`` says where) and merges it into each
language's catalogue: new texts arrive untranslated, changed ones keep their old translation
marked fuzzy (not used until a translator confirms it), removed ones go. ``check`` (part of
CI) changes nothing and fails, naming the entries, when

- a catalogue is out of step with the source (a text was added, changed or removed without
  ``update``), or its plural forms are not its language's;
- a translation's placeholders differ from its source's (only ``{n}`` may be left out of a
  plural form), or a template has a placeholder the renderer does not support;
- a command's name, description or choice breaks Discord's rules (:mod:`i18n.limits`);
- with ``--complete``: an entry is untranslated or fuzzy.

pybabel reads the same mapping, for a template to hand a translation tool:
``pybabel extract -F i18n/babel.cfg --no-default-keywords -k _ -k _n:1,2 -k _p:1c,2
-k _np:1c,2,3 -k N_ -k Nn_:1,2 -c Translators: -o parlour.pot .``
"""

from __future__ import annotations

import argparse
import io
import string
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import babel
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural
from babel.messages.pofile import write_po

from i18n import limits
from i18n.languages import ENGLISH, LANGUAGES
from i18n.translations import DOMAIN, catalogue_path, is_translated, read_catalogue, translations

ROOT = Path(__file__).resolve().parent.parent
MAPPING = Path(__file__).resolve().parent / "babel.cfg"

# The markers and their arguments, as pybabel's --keyword takes them: _("..."), _n(singular,
# plural, n), _p(context, "..."), _np(context, singular, plural, n); N_ and Nn_ in games.
KEYWORDS: dict[str, object] = {
    "_": None,
    "_n": (1, 2),
    "_p": ((1, "c"), 2),
    "_np": ((1, "c"), 2, 3),
    "N_": None,
    "Nn_": (1, 2),
}
COMMENT_TAGS = ("Translators:",)
FORMAT_SPECS = ("", "lower")  # what a placeholder may carry after its name: {what:lower}

Key = tuple[str | None, str | tuple[str, ...] | list[str]]


def extract(root: Path = ROOT) -> Catalog:
    """Every text to translate in the source under ``root``, as a template catalogue."""
    with MAPPING.open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file, str(MAPPING))
    template = Catalog(project="Parlour", domain=DOMAIN, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root),
        method_map,
        options_map,
        keywords=KEYWORDS,  # type: ignore[arg-type]  # Babel's spec types are stricter
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def entries(catalogue: Catalog) -> dict[Key, Message]:
    """A catalogue's entries (the header and obsolete ones left out) by context and id."""
    return {(m.context, m.id): m for m in catalogue if m.id}


def _po_text(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, width=100, ignore_obsolete=True, include_lineno=False)
    return out.getvalue()


def _without_dates(text: bytes) -> list[bytes]:
    return [
        line
        for line in text.splitlines()
        if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:'))
    ]


def new_catalogue(code: str) -> Catalog:
    """An empty catalogue for the language ``code``, its header and plural forms set."""
    language = next(x for x in LANGUAGES if x.code == code)
    return Catalog(
        locale=code,
        domain=DOMAIN,
        header_comment=(
            f"# Parlour's texts in {babel.Locale.parse(code).english_name}.\n"
            f"# Its words: i18n/glossary/{code}.md. How to translate: docs/translating.md.\n"
            "# Kept in step with the source by `python -m i18n.catalogues update`."
        ),
        project="Parlour",
        language_team=f"Parlour {language.name}",
        fuzzy=False,
    )


def update(template: Catalog, codes: Iterable[str]) -> list[str]:
    """Merge ``template`` into the catalogues of ``codes`` (creating missing ones); write
    only those whose entries changed. Returns the paths written."""
    written = []
    for code in codes:
        path = catalogue_path(code)
        catalogue = read_catalogue(code) if path.exists() else new_catalogue(code)
        old = path.read_bytes() if path.exists() else b""
        catalogue.update(template, update_creation_date=True)
        text = _po_text(catalogue)
        if _without_dates(text) != _without_dates(old):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text)
            written.append(str(path.relative_to(ROOT)))
    return written


def template_problems(template: Catalog) -> Iterator[str]:
    """Source texts the renderer cannot format (a stray brace, an unknown spec)."""
    for message in entries(template).values():
        for text in _forms(message.id):
            problem = _placeholder_problem(text)
            if problem:
                yield f"source {text!r} ({_where(message)}): {problem}"


def catalogue_problems(
    code: str, catalogue: Catalog, template: Catalog, *, complete: bool = False
) -> Iterator[str]:
    """What is wrong with ``catalogue``, the language ``code``'s, against the source
    ``template``."""
    plural = get_plural(code)
    if catalogue.plural_forms != plural.plural_forms:
        yield f"{code}: Plural-Forms is {catalogue.plural_forms!r}, not {plural.plural_forms!r}"
    source, ours = entries(template), entries(catalogue)
    for key in source.keys() - ours.keys():
        yield f"{code}: missing {_show(key)} ({_where(source[key])}): run update"
    for key in ours.keys() - source.keys():
        yield f"{code}: {_show(key)} is no longer in the source: run update"
    for key, message in ours.items():
        if key not in source:
            continue
        if not is_translated(message):
            if complete:
                state = "fuzzy" if message.fuzzy else "untranslated"
                yield f"{code}: {_show(key)} is {state}"
            continue
        yield from (f"{code}: {_show(key)}: {p}" for p in _translation_problems(message))


def _translation_problems(message: Message) -> Iterator[str]:
    wanted = frozenset().union(*(_names(text) for text in _forms(message.id)))
    for text in _forms(message.string or ""):
        problem = _placeholder_problem(text)
        if problem:
            yield f"translation {text!r}: {problem}"
            continue
        names = _names(text)
        optional = {"n"} if isinstance(message.id, tuple) else set()
        if not wanted - optional <= names <= wanted:
            yield (
                f"translation {text!r} has placeholders {sorted(names)}, "
                f"the source {sorted(wanted)}"
            )
        discord = limits.problem(message.context, text)
        if discord:
            yield f"translation {text!r} {discord}"


def _placeholder_problem(text: str) -> str | None:
    try:
        fields = [
            (name, spec, conversion)
            for _text, name, spec, conversion in string.Formatter().parse(text)
            if name is not None
        ]
    except ValueError as exc:
        return f"cannot be formatted ({exc}; write a brace as {{{{ or }}}})"
    for name, spec, conversion in fields:
        if not name.isidentifier():
            return f"placeholder {{{name}}} is not a plain name"
        if conversion or spec not in FORMAT_SPECS:
            return f"placeholder {{{name}}} may carry only :lower"
    return None


def _names(text: str) -> frozenset[str]:
    return frozenset(name for _text, name, _spec, _conv in string.Formatter().parse(text) if name)


def _forms(text: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(text) if isinstance(text, tuple | list) else (text,)


def _show(key: Key) -> str:
    context, msgid = key
    text = repr(msgid[0] if isinstance(msgid, tuple) else msgid)
    return f"{text} (context {context!r})" if context else text


def _where(message: Message) -> str:
    return ", ".join(sorted({filename for filename, _lineno in message.locations})) or "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m i18n.catalogues", description=__doc__)
    parser.add_argument("command", choices=("update", "check"))
    parser.add_argument(
        "--complete", action="store_true", help="check: also fail on untranslated entries"
    )
    args = parser.parse_args(argv)
    codes = [language.code for language in LANGUAGES if language is not ENGLISH]
    template = extract()
    count = len(entries(template))
    if args.command == "update":
        written = update(template, codes)
        print(f"{count} texts; updated: {', '.join(written) or 'nothing changed'}")
        return 0
    problems = list(template_problems(template))
    for code in codes:
        if not catalogue_path(code).exists():
            problems.append(f"{code}: no catalogue: run `python -m i18n.catalogues update`")
            continue
        catalogue = read_catalogue(code)
        problems.extend(catalogue_problems(code, catalogue, template, complete=args.complete))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problems in the catalogues", file=sys.stderr)
        return 1
    loads = []
    for code in codes:
        start = time.perf_counter()
        translations.__wrapped__(code)  # uncached: what a process pays on first use
        loads.append(f"{code} {1000 * (time.perf_counter() - start):.0f} ms")
    print(f"catalogues in step: {count} texts, {len(codes)} languages (load: {', '.join(loads)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
