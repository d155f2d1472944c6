"""Presentation: rows as tables, CSV and JSON; the chart as practitioners lay it out;
``yimao show``; the documentation rendered from the database's own description."""
