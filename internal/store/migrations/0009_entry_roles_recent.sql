-- Each role row carries its entry's date, and indexes walk a role's or a
-- value's entries newest first: conflict detection looks for the newest entries that
-- give a role another value, and for a common role (a path, thousands of
-- entries) reading them all to sort them cost most of an import. The date
-- follows the entry's: SetEntryRoles copies it, the trigger keeps it.
ALTER TABLE entry_roles ADD COLUMN created_at TEXT NOT NULL DEFAULT '';
UPDATE entry_roles SET created_at = coalesce((SELECT created_at FROM entries WHERE entries.id = entry_roles.entry_id), '');
CREATE INDEX entry_roles_recent ON entry_roles(project, role, created_at, entry_id);
CREATE INDEX entry_roles_value_recent ON entry_roles(project, value, created_at, entry_id);
-- They serve the lookups the old indexes served.
DROP INDEX entry_roles_role;
DROP INDEX entry_roles_value;
CREATE TRIGGER entries_roles_date AFTER UPDATE OF created_at ON entries BEGIN
	UPDATE entry_roles SET created_at = new.created_at WHERE entry_id = new.id;
END;
