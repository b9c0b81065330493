-- Terms shorter than the trigram index's three characters are looked up
-- through it (search_short.go): by the indexed trigrams that start with
-- them, listed from the index's sorted terms by this fts5vocab table, and
-- by the last one or two characters of each text part, which no trigram
-- starts with. lower() and substr() are SQLite's (ASCII case, characters
-- not bytes), as the LIKE filters that check every candidate.
CREATE VIRTUAL TABLE message_text_vocab USING fts5vocab(message_text_fts, 'row');

CREATE INDEX message_parts_tail2 ON message_parts(lower(substr(text, -2))) WHERE kind = 'text';
CREATE INDEX message_parts_tail1 ON message_parts(lower(substr(text, -1))) WHERE kind = 'text';
