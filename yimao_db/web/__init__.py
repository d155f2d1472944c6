"""``yimao serve``: the knowledge base and its readings in a browser, through datasette.

Nothing here is imported unless ``yimao serve`` runs (datasette is the optional extra
``web``). :mod:`~yimao_db.web.site` assembles datasette's metadata from the database's own
documentation and starts the server; :mod:`~yimao_db.web.plugin` holds the datasette hooks
(pages, links, compact column descriptions, read-only connections);
:mod:`~yimao_db.web.pages` reads what the pages show, a reading's chart drawn by the
terminal chart's own layout (:func:`yimao_db.present.chart.chart_html`);
:mod:`~yimao_db.web.queries` turns ``docs/queries.md`` into canned queries.
"""
