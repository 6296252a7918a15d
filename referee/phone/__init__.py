"""The rules on the phone (issue 49): what static/rules-worker.js runs in Pyodide, in a Web Worker.

The phone runs the server's own code for a tap of the entry form: the game's form (``referee.web.games``: the
posted fields read, the button applied, the entry read by the rules once, what the template needs) and the same
templates (``templates/games/``), in the page's language from the same catalogue (the compiled ``messages.mo``).
``answer.py`` is that tap; ``i18n.py`` stands in for ``referee.web.i18n`` on the phone (no Flask, no Babel there:
the page's number and list formats come with the form, written by the server's Babel). ``bundle.py`` builds the
zip the worker imports them from (served by ``referee.web.phone_files``). Nothing here holds a rule.
"""
