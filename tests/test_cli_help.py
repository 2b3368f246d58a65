"""Every command's --help shows its texts' square brackets: rich markup reads "[ray]" in
"pip install 'paperatlas[ray]'" as a style tag and drops it unless it is escaped (`\\[`)."""

from __future__ import annotations

import re

import typer

from paperatlas.cli import app

BRACKETED = re.compile(r"\\?\[([^\[\]\s]+)\]")  # "[ray]", or "\[ray]" escaped for rich


def commands(group, path: tuple[str, ...] = ()):
    """(path, command) for the app and every command and subcommand under it."""
    yield path, group
    if hasattr(group, "commands"):  # a group (typer's click, not necessarily `click`'s)
        for name, sub in sorted(group.commands.items()):
            if not sub.hidden:
                yield from commands(sub, (*path, name))


def help_texts(command) -> list[str]:
    texts = [command.help or ""]
    texts += [getattr(param, "help", None) or "" for param in command.params]
    return texts


def bracketed(text: str) -> list[str]:
    return [f"[{inner}]" for inner in BRACKETED.findall(text)]


def test_the_finder_sees_plain_and_escaped_brackets():
    assert bracketed("pip install 'paperatlas[ray]' or \\[torch]; [a b] is prose") == ["[ray]", "[torch]"]


def test_every_bracket_in_a_help_text_is_shown(cli):
    root = typer.main.get_command(app)
    checked = []
    for path, command in commands(root):
        wanted = [token for text in help_texts(command) for token in bracketed(text)]
        if not wanted:
            continue
        code, out, err = cli(*path, "--help", use_db=False)
        assert code == 0, err
        for token in wanted:
            assert token in out, f"`paperatlas {' '.join(path)} --help` lost {token}"
        checked.append(" ".join(path))
    # the two commands with the Ray extra in their help, at least
    assert {"embed", "enrich"} <= set(checked)
