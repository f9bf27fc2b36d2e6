-- The short questions a memory answers ("Which package manager does the
-- project use?"), one a line: built from its role and subject, or asked of
-- an LLM extractor. They are indexed with the memory, so a prompt that asks
-- the question in its own words finds the memory that answers it.
ALTER TABLE entries ADD COLUMN questions TEXT NOT NULL DEFAULT '';

-- An FTS5 table cannot gain a column: the index is made again with it, and
-- filled from the entries (a memory stored before has no questions yet;
-- reextract derives them).
DROP TRIGGER IF EXISTS entries_ad;
DROP TRIGGER IF EXISTS entries_au;
DROP TABLE entries_fts;
CREATE VIRTUAL TABLE entries_fts USING fts5(
	title, body, subject, questions,
	content = 'entries',
	content_rowid = 'id',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Rows are indexed when their transaction commits (0003); deletes and
-- edits go through these triggers, only for a row already indexed: a
-- memory said twice in one transaction (reextract writes every session of
-- a project in one) gains the second one's questions before it is indexed.
CREATE TRIGGER entries_ad AFTER DELETE ON entries
WHEN EXISTS (SELECT 1 FROM entries_fts_docsize WHERE id = old.id) BEGIN
	INSERT INTO entries_fts(entries_fts, rowid, title, body, subject, questions) VALUES ('delete', old.id, old.title, old.body, old.subject, old.questions);
END;
CREATE TRIGGER entries_au AFTER UPDATE OF title, body, subject, questions ON entries
WHEN EXISTS (SELECT 1 FROM entries_fts_docsize WHERE id = old.id) BEGIN
	INSERT INTO entries_fts(entries_fts, rowid, title, body, subject, questions) VALUES ('delete', old.id, old.title, old.body, old.subject, old.questions);
	INSERT INTO entries_fts(rowid, title, body, subject, questions) VALUES (new.id, new.title, new.body, new.subject, new.questions);
END;
INSERT INTO entries_fts(entries_fts) VALUES ('rebuild');
