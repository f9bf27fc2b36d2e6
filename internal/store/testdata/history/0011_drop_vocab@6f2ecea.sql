-- Recall now counts a word with the index's own MATCH (store.TermDocs): the
-- same stemming as the search that follows, and for a common word only the
-- newest events. Nothing reads events_vocab any more, and every connection
-- parsed it with the schema.
DROP TABLE events_vocab;
