"""Skeleton card files (`make new-card`): data/cards/<slug>.yaml and, for a review,
content/cards/<slug>.md, from brand, model, capacity, form factor, bus and markings.

Values reach the templates only through the `yaml` filter (double-quoted, escaped YAML), never
pasted as text: a brand like 'x"\\nslug: y' stays one string. The output is validated before it
is written, and existing files are never replaced.
"""

import re
from pathlib import Path

import jinja2

from .atomicfile import atomic_create_text
from ..dump import yaml_scalar
from ..identity import card_family, check_slug, make_slug, parse_capacity
from ..load import parse_card_text
from ..lookalike import name_problem
from ...errors import CardbenchError
from ...core.paths import ROOT
from ...core.titles import card_title
from ..checks.schema_findings import schema_validator
from ..checks.validate import brand_findings, check_card

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
CONTENT_DIR = ROOT / "content" / "cards"
DEFAULT_SOURCE = "cardbench collector"


class _Yaml(str):
    """Text that went through the yaml filter; the only kind the templates may print."""


def _yaml_filter(value):
    if isinstance(value, jinja2.Undefined):
        raise jinja2.UndefinedError("a template value is missing")
    return _Yaml(yaml_scalar(value))


def _only_filtered(value):
    if isinstance(value, _Yaml):
        return value
    raise TypeError("template printed a value without the yaml filter")


def _environment():
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=False,  # YAML and Markdown, not HTML: values are quoted by the yaml filter instead
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_only_filtered,
    )
    env.filters["yaml"] = _yaml_filter
    return env


def _schema_enum(*path):
    node = schema_validator().schema["properties"]
    for key in path:
        node = node[key]
    return list(node["enum"])


def form_factors():
    return _schema_enum("form_factor")


def buses():
    return _schema_enum("bus")


def marking_choices():
    return list(schema_validator().schema["properties"]["markings"]["items"]["enum"])


# --- answers ------------------------------------------------------------------------------------

def _pick(value, choices, what):
    """A choice matched without regard to case, spaces and hyphens ('uhs-i', 'UHS I', 'microsd')."""
    def squash(text):
        return re.sub(r"[\s_-]+", "", text).lower()
    for choice in choices:
        if squash(choice) == squash(value):
            return choice
    raise ValueError(f"{what} {value!r} is not one of: {', '.join(choices)}")


def _text(value, what, limit):
    value = value.strip()
    if not value:
        raise ValueError(f"{what} is empty")
    if len(value) > limit:
        raise ValueError(f"{what} is {len(value)} characters; at most {limit}")
    problem = name_problem(value)
    if problem:
        raise ValueError(f"{what} {problem}")
    return value


def parse_markings(value):
    """'U3, V30 A2' → ['U3', 'V30', 'A2'] (schema order kept as given, repeats dropped)."""
    if isinstance(value, (list, tuple)):
        items = [str(v) for v in value]
    else:
        items = [item for item in re.split(r"[\s,;]+", value or "") if item]
    choices = marking_choices()
    out = []
    for item in items:
        pick = _pick(item, choices, "marking")
        if pick not in out:
            out.append(pick)
    return out


QUESTIONS = [
    ("brand", "Brand as printed (e.g. SanDisk)"),
    ("model", "Model line (e.g. Extreme PRO)"),
    ("capacity_gb", "Capacity in GB as marketed (e.g. 256, or 1TB)"),
    ("form_factor", "Card size (microSD or SD)"),
    ("bus", "Fastest bus (Default/High Speed, UHS-I, UHS-II, UHS-III or SD Express)"),
    ("markings", "Markings printed on the card, e.g. U3 V30 A2 (Enter for none)"),
]


def normalize_answer(field, value):
    """The schema value for one answer, or ValueError saying what is wrong."""
    if field == "brand":
        return _text(str(value), "brand", 60)
    if field == "model":
        return _text(str(value), "model", 100)
    if field == "capacity_gb":
        return parse_capacity(value)
    if field == "form_factor":
        return _pick(str(value), form_factors(), "form factor")
    if field == "bus":
        return _pick(str(value), buses(), "bus")
    if field == "markings":
        return parse_markings(value)
    raise KeyError(field)


def gather_answers(given, ask=None):
    """Every answer, normalized. Missing ones are asked through ask(prompt, problem) -> str when
    given (a terminal), else reported together."""
    answers, missing = {}, []
    for field, prompt in QUESTIONS:
        value = given.get(field)
        if value is not None:
            try:
                answers[field] = normalize_answer(field, value)
            except ValueError as exc:
                raise CardbenchError(f"new-card: {exc}") from None
        elif ask is not None:
            problem = None
            while field not in answers:
                reply = ask(prompt, problem)
                try:
                    answers[field] = normalize_answer(field, reply)
                except ValueError as exc:
                    problem = str(exc)
        elif field == "markings":
            answers[field] = []
        else:
            missing.append("--" + field.replace("_", "-"))
    if missing:
        raise CardbenchError(f"new-card: missing {', '.join(missing)} (or run it in a terminal to be asked)")
    return answers


# --- the card's text -----------------------------------------------------------------------------

def card_values(answers, slug=None, source_name=DEFAULT_SOURCE):
    """Template values: the answers plus slug, family, title and source."""

    values = dict(answers)
    values["family"] = card_family(values["capacity_gb"])
    made = slug or make_slug(values["brand"], values["model"], values["capacity_gb"], values["form_factor"],
                             values["family"], values["bus"])
    values["slug"] = check_slug(made, "--slug" if slug else "made from brand and model; pass --slug",
                                error=lambda message: CardbenchError(f"new-card: {message}"))
    values["source_name"] = source_name
    values["title"] = card_title(values)
    return values


def render(template, values):
    return _environment().get_template(template).render(**values)


def create_card(answers, cards_dir, content_dir=CONTENT_DIR, review=False, slug=None, today=None):
    """Write data/cards/<slug>.yaml (and content/cards/<slug>.md with review). Returns the paths
    written. Refuses, writing nothing, when either file exists or the text does not validate."""
    values = card_values(answers, slug=slug)
    card_path = Path(cards_dir) / f"{values['slug']}.yaml"
    review_path = Path(content_dir) / f"{values['slug']}.md" if review else None
    for path in (card_path, review_path):
        if path is not None and path.exists():
            raise CardbenchError(f"new-card: {path} already exists; not replacing it")
    card_text = render("card.yaml.j2", values)
    card = parse_card_text(card_text, card_path)
    errors = [f for f in check_card(card, today=today) + brand_findings([card], Path(cards_dir).parent)
              if f.severity == "error"]
    if errors:
        raise CardbenchError("new-card: the skeleton does not validate:\n" + "\n".join(map(str, errors)))
    written = []
    try:
        atomic_create_text(card_path, card_text)
        written.append(card_path)
        if review_path is not None:
            atomic_create_text(review_path, render("review.md.j2", values))
            written.append(review_path)
    except FileExistsError as exc:
        for path in written:
            path.unlink()
        raise CardbenchError(f"new-card: {exc.filename2 or exc.filename} already exists; not replacing it") from None
    return written
