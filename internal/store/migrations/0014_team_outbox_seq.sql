-- The outbox's row ids are never reused (AUTOINCREMENT): a push reads its
-- next batch from the row after the last one in flight, and a correction
-- that replaced that last row (deleted, then inserted again) must come
-- after it, or the push skipped it until the next sync. SQLite cannot add
-- AUTOINCREMENT to a column: the table is made again, its rows kept with
-- their ids (the sequence starts past the largest).
CREATE TABLE team_outbox_seq (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	kind       TEXT NOT NULL CHECK (kind IN ('put', 'forget')),
	shared_id  TEXT NOT NULL,
	key        TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL
);
INSERT INTO team_outbox_seq (id, kind, shared_id, key, created_at)
	SELECT id, kind, shared_id, key, created_at FROM team_outbox ORDER BY id;
DROP TABLE team_outbox;
ALTER TABLE team_outbox_seq RENAME TO team_outbox;
CREATE INDEX team_outbox_shared ON team_outbox(shared_id);
