"""The console's language: ``--language``, else ``ELFBALL_LANGUAGE``, else the locale.

The locale is read as POSIX programs read it for messages: the first of ``LC_ALL``,
``LC_MESSAGES`` and ``LANG`` that is set decides; one starting with ``fr`` (``fr_FR.UTF-8``)
means French, anything else (``C.UTF-8``, ``en_GB``) English.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from service.console import DEFAULT_LANGUAGE, LANGUAGES, language_of

__all__ = ["ENV_VAR", "LOCALE_VARS", "add_language_argument", "default_language", "chosen_language"]

ENV_VAR = "ELFBALL_LANGUAGE"
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """``ELFBALL_LANGUAGE`` if set, else the messages locale's language; English by default."""
    env = os.environ if environ is None else environ
    if env.get(ENV_VAR):
        return language_of(env[ENV_VAR])
    for var in LOCALE_VARS:
        if env.get(var):
            return "fr" if env[var].lower().startswith("fr") else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def add_language_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--language", choices=LANGUAGES, default=None,
                        help=f"the language of everything printed (default: {ENV_VAR}, else the locale: "
                             "LC_ALL, LC_MESSAGES or LANG starting with fr is French, anything else English)")


def chosen_language(args: argparse.Namespace) -> str:
    """``--language`` if given, else ``default_language()``."""
    return getattr(args, "language", None) or default_language()
