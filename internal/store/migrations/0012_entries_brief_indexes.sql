-- The session brief's indexes (entries_recent, entries_status) were added to
-- 0002_entries.sql after the first stores were written with it; those
-- stores never got them. IF NOT EXISTS: every other store has them.
CREATE INDEX IF NOT EXISTS entries_recent ON entries(project, created_at);
CREATE INDEX IF NOT EXISTS entries_status ON entries(project, status);
