-- Rows are added to the full-text indexes when their transaction commits
-- (Tx.Commit), one INSERT ... SELECT per index, rather than by a trigger per
-- row. FTS5 writes its pending terms out as a new segment at every statement
-- that opens a statement journal, so a trigger per row made a segment per
-- row or two and then merged them again: about a fifth of a large import's
-- writer time.
-- Deleting and editing rows (forget) still go through the triggers, which is
-- correct only for rows already indexed: nothing deletes or edits a row in
-- the transaction that inserted it.
DROP TRIGGER events_ai;
DROP TRIGGER entries_ai;
