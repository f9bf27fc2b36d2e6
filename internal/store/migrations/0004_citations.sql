-- use_count counted injections until now; an injection is not a use. From
-- here on the Stop hook counts a use when an answer cites a memory it was
-- shown, and injections are counted apart. The old counts move to the
-- injection columns, and the use counts start again from zero.
ALTER TABLE entries ADD COLUMN inject_count     INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN last_injected_at TEXT    NOT NULL DEFAULT '';
UPDATE entries SET inject_count = use_count, last_injected_at = last_used_at, use_count = 0, last_used_at = '';
