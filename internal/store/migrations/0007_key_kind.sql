-- The kind of each event's dedupe key (store.KeyKind): what made it. The
-- content check that keeps one copy of a message seen by a hook and in the
-- transcript matches on it instead of a LIKE pattern over keys. A virtual
-- column: computed from the key when read, so adding it rewrites no row of
-- a large store. The expression must agree with store.keyKind.
ALTER TABLE events ADD COLUMN key_kind TEXT GENERATED ALWAYS AS (
	CASE
		WHEN substr(dedupe_key, 1, 7) = 'prompt:'
			AND substr(dedupe_key, 8, length(session_id) + 1) = session_id || ':'
			AND substr(dedupe_key, 9 + length(session_id), 1) = 'h'
		THEN 'prompt_hash'
		ELSE substr(dedupe_key, 1, instr(dedupe_key, ':') - 1)
	END
) VIRTUAL;
