"""``yimao sql``: one read-only statement, lexed (lex), guarded (guard), run in its own
session (session) with a time limit and streamed (stream); :func:`yimao_db.sql.run.run`
is the entry."""
