-- Team memory (see internal/team): memories shared with a team on a
-- PostgreSQL server, and teammates' memories pulled from it.
--
-- author is '' for one's own memories and the PostgreSQL role of the
-- teammate who shared it for a pulled one; shared_id is the memory's id on
-- the server ('' for one never shared).
ALTER TABLE entries ADD COLUMN author TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN shared_id TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX entries_shared ON entries(shared_id) WHERE shared_id <> '';

-- The changes waiting to be pushed. A row names the memory, never its text:
-- push reads the memory as it is then, so a memory forgotten before it
-- was pushed leaves nothing here but the forget. key is the change's
-- idempotency key on the server: a push retried after a commit whose
-- answer was lost applies nothing twice. A row is deleted only after the
-- server's transaction that applied it committed.
CREATE TABLE team_outbox (
	id         INTEGER PRIMARY KEY,
	kind       TEXT NOT NULL CHECK (kind IN ('put', 'forget')),
	shared_id  TEXT NOT NULL,
	key        TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL
);
CREATE INDEX team_outbox_shared ON team_outbox(shared_id);

-- Sync state: the pull cursor (the server's change sequence), the last
-- sync, the last error and the backoff.
CREATE TABLE team_state (
	k TEXT PRIMARY KEY,
	v TEXT NOT NULL
) WITHOUT ROWID;
