"""Plumbing every domain package shares: answers and refusals (``reply``), languages
(``i18n``), the server-only check (``checks``), option transformers and autocomplete
(``transformers``, ``autocomplete``), rule options, the panel-press protocols and metrics.
Nothing here knows a command.
"""
