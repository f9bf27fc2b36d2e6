-- The append-only event log, the sessions it came from, and a full-text index over event text.

CREATE TABLE events (
	id           INTEGER PRIMARY KEY,
	ts           TEXT    NOT NULL,             -- when it happened, UTC, fixed-width RFC 3339
	type         TEXT    NOT NULL,             -- user_prompt, agent_response, tool_observation, session_started, ...
	session_id   TEXT    NOT NULL DEFAULT '',
	project      TEXT    NOT NULL DEFAULT '',
	source_uuid  TEXT    NOT NULL DEFAULT '',  -- the transcript row's uuid, when there is one
	text         TEXT    NOT NULL DEFAULT '',  -- privacy-filtered searchable text
	payload      TEXT    NOT NULL DEFAULT '{}',
	dedupe_key   TEXT    NOT NULL UNIQUE,      -- makes every write idempotent
	content_hash TEXT    NOT NULL DEFAULT '',  -- sha256 of whitespace-folded text
	checksum     TEXT    NOT NULL              -- sha256 of the canonical event
);
CREATE INDEX events_session ON events(session_id, id);
CREATE INDEX events_project ON events(project, type, id);
CREATE INDEX events_content ON events(session_id, content_hash) WHERE content_hash <> '';
CREATE INDEX events_source ON events(source_uuid) WHERE source_uuid <> '';

-- External-content FTS5 index over events.text, kept in sync by triggers. The
-- update trigger exists only for forget's redaction: events are never edited otherwise.
CREATE VIRTUAL TABLE events_fts USING fts5(
	text,
	content = 'events',
	content_rowid = 'id',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER events_ai AFTER INSERT ON events BEGIN
	INSERT INTO events_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER events_ad AFTER DELETE ON events BEGIN
	INSERT INTO events_fts(events_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER events_au AFTER UPDATE OF text ON events BEGIN
	INSERT INTO events_fts(events_fts, rowid, text) VALUES ('delete', old.id, old.text);
	INSERT INTO events_fts(rowid, text) VALUES (new.id, new.text);
END;

CREATE TABLE sessions (
	id              TEXT PRIMARY KEY,
	project         TEXT    NOT NULL DEFAULT '',
	cwd             TEXT    NOT NULL DEFAULT '',
	transcript_path TEXT    NOT NULL DEFAULT '',
	source          TEXT    NOT NULL DEFAULT '',  -- startup, resume, clear, compact, fork, import
	started_at      TEXT    NOT NULL,
	ended_at        TEXT    NOT NULL DEFAULT '',
	end_reason      TEXT    NOT NULL DEFAULT '',
	ingest_offset   INTEGER NOT NULL DEFAULT 0,   -- transcript bytes already ingested
	summary         TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX sessions_project ON sessions(project, started_at);
