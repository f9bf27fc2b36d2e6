-- A project's entries of one type, newest first, without reading the others:
-- the session brief lists the open tasks, and with no index on type SQLite
-- walked entries_recent over every entry of the project to find them (2,259
-- rows, 242 pages of the 10k bench store's, for no task at all).
CREATE INDEX IF NOT EXISTS entries_type ON entries(project, type, created_at);
