"""Deal-entry forms, one module per game: HTML form fields ⇄ the deal input the rules read.

Each module offers ``empty``, ``from_input`` (a stored deal, to correct it), ``from_form`` (a post,
with the button pressed applied), ``to_input`` and ``view`` (what its template needs beyond the entry).
A game's plug (``referee.web.games``) names its form.
"""
