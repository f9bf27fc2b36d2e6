-- What an entry's claims decide: each (role, value) pair ("test runner",
-- "vitest"; see internal/claim). Conflict detection finds the earlier
-- entries that give one of a new entry's roles another value, or that hold
-- the value it replaces, through these indexes instead of reading every
-- entry of the project. Derived from the entry's text, so it is rebuilt from
-- the entry events with the entries. Entries stored before this migration,
-- or by a path that does not parse them, have roles_parsed = 0 and get their
-- rows the next time a session of their project is processed.
CREATE TABLE entry_roles (
	entry_id INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
	project  TEXT    NOT NULL,
	role     TEXT    NOT NULL,
	value    TEXT    NOT NULL,
	PRIMARY KEY (entry_id, role, value)
) WITHOUT ROWID;
CREATE INDEX entry_roles_role ON entry_roles(project, role, value);
CREATE INDEX entry_roles_value ON entry_roles(project, value);
ALTER TABLE entries ADD COLUMN roles_parsed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX entries_roles_unparsed ON entries(project) WHERE roles_parsed = 0;
