-- The full-text index's own term counts, read by recall to weigh a prompt's
-- words by how rare they are in the store (a word every message has says
-- nothing about relevance). An fts5vocab table stores nothing of its own: it
-- reads events_fts's index, so it needs no triggers and forget leaves nothing
-- behind in it.
CREATE VIRTUAL TABLE events_vocab USING fts5vocab(events_fts, 'row');
