-- Memory entries distilled from sessions, their quoted evidence, and recorded
-- conflicts between them. All of it is derived from entry_extracted,
-- evidence_aligned and conflict_recorded events and can be rebuilt from the log.

CREATE TABLE entries (
	id                INTEGER PRIMARY KEY,
	cid               TEXT    NOT NULL UNIQUE,                 -- citation id, "mem:" + 6-8 hex chars, stable
	project           TEXT    NOT NULL,
	session_id        TEXT    NOT NULL,                        -- the session it was first extracted from
	type              TEXT    NOT NULL,                        -- decision, fact, preference, constraint, lesson, task, reference
	title             TEXT    NOT NULL,
	body              TEXT    NOT NULL DEFAULT '',
	subject           TEXT    NOT NULL DEFAULT '',             -- canonical key: what the claim is about
	claim_key         TEXT    NOT NULL,                        -- normalised subject + claim, for duplicates
	stage             TEXT    NOT NULL DEFAULT 'candidate'
	                  CHECK (stage IN ('candidate', 'verified', 'certified', 'rejected')),
	status            TEXT    NOT NULL DEFAULT 'active'
	                  CHECK (status IN ('active', 'contested', 'superseded', 'forgotten')),
	superseded_by     INTEGER REFERENCES entries(id) ON DELETE SET NULL,
	promotion_blocked TEXT    NOT NULL DEFAULT '',             -- why it is not verified
	created_at        TEXT    NOT NULL,
	last_used_at      TEXT    NOT NULL DEFAULT '',
	use_count         INTEGER NOT NULL DEFAULT 0,
	UNIQUE (project, claim_key)
);
CREATE INDEX entries_project ON entries(project, stage, status);
CREATE INDEX entries_subject ON entries(project, subject) WHERE subject <> '';
CREATE INDEX entries_session ON entries(session_id);

CREATE VIRTUAL TABLE entries_fts USING fts5(
	title, body, subject,
	content = 'entries',
	content_rowid = 'id',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
	INSERT INTO entries_fts(rowid, title, body, subject) VALUES (new.id, new.title, new.body, new.subject);
END;
CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
	INSERT INTO entries_fts(entries_fts, rowid, title, body, subject) VALUES ('delete', old.id, old.title, old.body, old.subject);
END;
CREATE TRIGGER entries_au AFTER UPDATE OF title, body, subject ON entries BEGIN
	INSERT INTO entries_fts(entries_fts, rowid, title, body, subject) VALUES ('delete', old.id, old.title, old.body, old.subject);
	INSERT INTO entries_fts(rowid, title, body, subject) VALUES (new.id, new.title, new.body, new.subject);
END;

CREATE TABLE evidence (
	id            INTEGER PRIMARY KEY,
	entry_id      INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
	event_id      INTEGER REFERENCES events(id) ON DELETE SET NULL,  -- the message the quote was found in
	session_id    TEXT    NOT NULL DEFAULT '',
	source_uuid   TEXT    NOT NULL DEFAULT '',
	message_index INTEGER NOT NULL,
	quote         TEXT    NOT NULL,
	quote_hash    TEXT    NOT NULL,
	span_start    INTEGER NOT NULL DEFAULT 0,   -- byte offsets into the stored message text (UTF-8)
	span_end      INTEGER NOT NULL DEFAULT 0,
	method        TEXT    NOT NULL DEFAULT 'none' CHECK (method IN ('exact', 'normalized', 'fuzzy', 'none')),
	confidence    REAL    NOT NULL DEFAULT 0,
	failure       TEXT    NOT NULL DEFAULT '',
	ambiguous     INTEGER NOT NULL DEFAULT 0,
	UNIQUE (entry_id, session_id, quote_hash)
);
CREATE INDEX evidence_event ON evidence(event_id);

CREATE TABLE conflicts (
	id          INTEGER PRIMARY KEY,
	older       INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
	newer       INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
	kind        TEXT    NOT NULL CHECK (kind IN ('supersedes', 'contradicts')),
	reason      TEXT    NOT NULL DEFAULT '',
	detected_at TEXT    NOT NULL,
	resolution  TEXT    NOT NULL DEFAULT '',
	UNIQUE (older, newer)
);
CREATE INDEX conflicts_newer ON conflicts(newer);
