"""The digest as one self-contained HTML page: inline CSS, the map as a data: URI, no
script and no external asset, so it opens offline and prints cleanly. Rendered with
Jinja2 autoescaping: every title, name, label and number is text, never markup."""

from __future__ import annotations

import base64

from paperatlas.report.digest_data import MAX_CODE, DigestData
from paperatlas.report.links import safe_url
from paperatlas.report.strings import group_label, narrowing_line

TEMPLATE = r"""<!DOCTYPE html>
<html lang="{{ 'zh-CN' if lang == 'zh' else 'en' }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>{{ title }}</title>
<style>
  :root { --ink: #1d232b; --muted: #5f6b7a; --line: #e3e7ec; --accent: #2b6cb0; }
  * { box-sizing: border-box; }
  body { font: 15px/1.5 -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC",
         "PingFang SC", "Microsoft YaHei", sans-serif; color: var(--ink); margin: 0; background: #f6f7f9; }
  main { max-width: 980px; margin: 0 auto; padding: 28px 32px 48px; background: #fff; }
  h1 { font-size: 26px; margin: 0 0 4px; }
  h2 { font-size: 19px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
  h3 { font-size: 15px; margin: 18px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
  .meta { color: var(--muted); margin: 0 0 18px; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px; margin: 12px 0; }
  .card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
  .card b { display: block; font-size: 22px; }
  .card span { color: var(--muted); font-size: 13px; }
  table.areas { border-collapse: collapse; width: 100%; font-size: 14px; }
  table.areas td { padding: 3px 6px; border-bottom: 1px solid var(--line); vertical-align: middle; }
  table.areas td.n { text-align: right; width: 4em; font-variant-numeric: tabular-nums; }
  .bar { height: 9px; background: var(--accent); border-radius: 3px; min-width: 2px; }
  td.barcell { width: 30%; }
  .kinds span { display: inline-block; margin: 2px 10px 2px 0; }
  ul.papers { list-style: none; padding: 0; margin: 6px 0; }
  ul.papers li { padding: 5px 0; border-bottom: 1px solid var(--line); }
  .name { font-weight: 600; }
  .kind { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 9px; background: #eef2f7; color: #34495e; margin-left: 4px; }
  .num { font-size: 13px; color: #276749; margin-left: 4px; font-variant-numeric: tabular-nums; }
  .links a { font-size: 13px; margin-left: 6px; color: var(--accent); }
  .topic-head { display: flex; align-items: baseline; gap: 10px; }
  .dot { width: 12px; height: 12px; border-radius: 50%; display: inline-block; flex: none; }
  .count { color: var(--muted); font-weight: normal; font-size: 15px; }
  .also, .note { color: var(--muted); font-size: 13px; margin: 0 0 4px; }
  .note { background: #fff8e6; border-left: 3px solid #d69e2e; padding: 6px 10px; }
  figure { margin: 10px 0; }
  figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
  figcaption { color: var(--muted); font-size: 13px; }
  nav ol { columns: 2; font-size: 14px; padding-left: 22px; }
  a { color: var(--accent); text-decoration: none; }
  @media print {
    body { background: #fff; font-size: 11pt; }
    main { max-width: none; padding: 0; }
    h2 { break-after: avoid; page-break-after: avoid; }
    ul.papers li, .card, figure { break-inside: avoid; page-break-inside: avoid; }
    figure { page-break-before: auto; }
    nav { display: none; }
    .links a { color: var(--ink); }
    .links a[href]::after { content: " (" attr(href) ")"; font-size: 8pt; color: var(--muted); word-break: break-all; }
    @page { margin: 16mm 14mm; }
  }
</style>
</head>
<body>
<main>
<h1>{{ title }}</h1>
<p class="meta">{{ words.generated.format(date=data.date) }} · {{ scope_word }} · {{ data.papers|length }} {{ words.papers }} · {{ data.groups|length }} {{ words.topics }}</p>
{% if narrowing %}<p class="meta narrowing">{{ narrowing }}</p>{% endif %}
{% if not data.papers %}
<p>{{ words.no_papers }}</p>
{% else %}
{% if words.gloss_note %}<p class="note">{{ words.gloss_note }}</p>{% endif %}
<section>
<h2>{{ words.overview }}</h2>
<div class="cards">
  <div class="card"><b>{{ data.papers|length }}</b><span>{{ words.papers }}</span></div>
  <div class="card"><b>{{ data.groups|length }}</b><span>{{ words.topics }}</span></div>
  <div class="card"><b>{{ data.with_code|length }}</b><span>{{ words.with_code }}</span></div>
  <div class="card"><b>{{ data.papers|selectattr('name')|list|length }}</b><span>{{ words.named_count }}</span></div>
</div>
<h3>{{ words.by_area }}</h3>
<table class="areas">
{% for area, count in data.by_area %}
  <tr><td>{{ area or words.unknown_area }}</td><td class="n">{{ count }}</td>
      <td class="barcell"><div class="bar" style="width: {{ (100 * count / max_area)|round(1) }}%"></div></td></tr>
{% endfor %}
</table>
{% if data.by_kind|selectattr(0)|list %}
<h3>{{ words.by_kind }}</h3>
<p class="kinds">{% for kind, count in data.by_kind %}<span><span class="kind">{{ words.kinds.get(kind, kind) }}</span> {{ count }}</span>{% endfor %}</p>
{% endif %}
<h3>{{ words.named }}</h3>
{% if data.named %}<ul class="papers">{% for p in data.named %}{{ paper(p) }}{% endfor %}</ul>{% else %}<p>{{ words.none }}</p>{% endif %}
<h3>{{ words.with_code }} ({{ data.with_code|length }})</h3>
{% if data.with_code %}<ul class="papers">{% for p in data.with_code[:max_code] %}{{ paper(p) }}{% endfor %}
{% if data.with_code|length > max_code %}<li class="also">{{ words.more_code.format(n=data.with_code|length - max_code) }}</li>{% endif %}</ul>
{% else %}<p>{{ words.none }}</p>{% endif %}
</section>
{% if map_uri %}
<section>
<h2>{{ words.map }}</h2>
<figure><img src="{{ map_uri }}" alt="{{ words.map_alt }}">
{% if data.map_field %}<figcaption>{{ words.map_field.format(field=data.map_field) }}</figcaption>{% elif data.map_scope %}<figcaption>{{ words.map_note.format(scope=(words.all if data.map_scope == '*' else data.map_scope)) }}</figcaption>{% endif %}</figure>
</section>
{% endif %}
<nav><ol>{% for g in data.groups %}<li><a href="#topic-{{ loop.index }}">{{ label(g) }}</a> ({{ g.size }})</li>{% endfor %}</ol></nav>
{% if data.grouping == 'areas' %}<p class="note">{{ words.by_area_fallback.format(why=data.fallback_reason or '-') }}</p>{% endif %}
{% for g in data.groups %}
<section id="topic-{{ loop.index }}">
<h2 class="topic-head"><span class="dot" style="background: {{ g.colour or '#999' }}"></span>{{ loop.index }}. {{ label(g) }} <span class="count">{{ g.size }} {{ words.papers }}{% if g.other %}; {{ words.label_other.format(n=g.other) }}{% endif %}</span></h2>
{% if g.also %}<p class="also">{{ words.also }}: {{ g.also|join(' · ') }}</p>{% endif %}
<ul class="papers">{% for p in g.papers %}{{ paper(p) }}{% endfor %}</ul>
</section>
{% endfor %}
{% endif %}
</main>
</body>
</html>
"""

PAPER = r"""<li>{% if p.name_apart %}<span class="name">{{ p.name_apart }}</span>: {% endif %}{{ p.title }}
{%- if p.kind %} <span class="kind">{{ words.kinds.get(p.kind, p.kind) }}</span>{% endif %}
{%- if p.number %} <span class="num">{{ p.number }}</span>{% endif %}
<span class="links">{% if safe_url(p.url) %}<a href="{{ safe_url(p.url) }}">{{ words.link }}</a>{% endif %}
{%- if safe_url(p.code_url) %}<a href="{{ safe_url(p.code_url) }}">{{ words.code }}</a>{% endif %}</span></li>
"""


def _environment():
    from jinja2 import Environment

    return Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)


def render_html(data: DigestData, words: dict, lang: str = "en") -> str:
    from markupsafe import Markup

    env = _environment()
    paper_template = env.from_string(PAPER)

    def paper(p):
        return Markup(paper_template.render(p=p, words=words, safe_url=safe_url))

    def label(group):
        return group_label(group.label, words)

    scope_word = words[data.scope] if data.scope != "all" else words["all"]
    title = f"{words['digest']}: {data.heading}" if data.heading else words["digest"]
    map_uri = "data:image/png;base64," + base64.b64encode(data.map_png).decode() if data.map_png else None
    return env.from_string(TEMPLATE).render(
        data=data,
        words=words,
        lang=lang,
        title=title,
        scope_word=scope_word,
        paper=paper,
        label=label,
        map_uri=map_uri,
        max_area=max([c for _, c in data.by_area] or [1]),
        max_code=MAX_CODE,
        narrowing=narrowing_line(data.narrowed_by, words),
    )
