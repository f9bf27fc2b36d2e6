-- Events by type and time. The dashboard's overview (store.Stats, store.Daily)
-- counts events by type, finds the newest message and sums the few
-- memory_injected and memory_cited records; without this each of those read
-- the whole events table (20 to 25 ms each at 100k messages, 110 ms a page).
CREATE INDEX events_type ON events(type, project, ts);
