-- An entry's aligned evidence in the order recall picks the quote it shows
-- (the most confident, the first stored of equals), so EntryQuoted reads one
-- index entry and one row instead of every evidence row of a claim repeated
-- in hundreds of sessions.
CREATE INDEX evidence_best ON evidence(entry_id, confidence DESC, id) WHERE method NOT IN ('', 'none');
