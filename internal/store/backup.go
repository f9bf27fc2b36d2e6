package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/filelock"
)

// Backups lists the copies Open made before schema upgrades
// (memory.db.v<N>.bak), and those an upgrade killed while copying left
// unfinished (memory.db.v<N>.bak.<pid>.tmp): each holds what the store
// held at the time, or part of it.
func (db *DB) Backups() ([]string, error) {
	return db.besides(backupPattern, unfinishedPattern, unfinishedJournal)
}

// The names of upgrade backups after the store's: finished, and unfinished.
const (
	backupPattern     = ".v*.bak"
	unfinishedPattern = ".v*.bak.*.tmp"
	// SQLite's rollback journal of an unfinished copy: VACUUM INTO leaves
	// it when the disk fills up.
	unfinishedJournal = ".v*.bak.*.tmp-journal"
)

// besides lists the files next to the store whose names are the store's
// followed by a name matching one of patterns. Only that end is a
// pattern: a glob of the whole path would read a '[' or '*' in the data
// directory's path as one, and so find nothing for forget to remove.
func (db *DB) besides(patterns ...string) ([]string, error) {
	dir, base := filepath.Dir(db.path), filepath.Base(db.path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list backups: %w", err)
	}
	var out []string
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), base)
		if !ok {
			continue
		}
		for _, p := range patterns {
			if m, _ := filepath.Match(p, rest); m {
				out = append(out, filepath.Join(dir, e.Name()))
				break
			}
		}
	}
	return out, nil
}

// RemoveBackups deletes the upgrade backups, which would otherwise keep
// forgotten content, and returns the paths it removed.
func (db *DB) RemoveBackups() ([]string, error) {
	paths, err := db.Backups()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return out, fmt.Errorf("remove backup: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// upgradeSuffix names the lock file upgrades take turns at (lockUpgrade).
const upgradeSuffix = "-upgrade"

// lockUpgrade waits until this process alone upgrades the store at path,
// or ctx ends; the lock dies with its holder.
func lockUpgrade(ctx context.Context, path string) (unlock func(), err error) {
	unlock, err = filelock.Acquire(ctx, path+upgradeSuffix, 20*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("upgrade lock (another process may be upgrading): %w", err)
	}
	return unlock, nil
}

// backup writes a consistent copy of the database next to it, named
// memory.db.v<N>.bak, unless one exists already, and then removes the
// copies earlier upgrades left: each is a whole store, and the newest holds
// everything they do, so keeping them all made every upgrade add the
// store's size to the data directory for good.
func (db *DB) backup(ctx context.Context, v int) error {
	// A copy an upgrade killed midway left is a whole store nothing would
	// remove but forget. The caller holds the upgrade lock, so no other
	// upgrade is writing one now.
	if cut, err := db.besides(unfinishedPattern, unfinishedJournal); err == nil {
		for _, p := range cut {
			os.Remove(p)
		}
	}
	dst := fmt.Sprintf("%s.v%d.bak", db.path, v)
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	// Created empty and 0600 first: VACUUM INTO writes into an empty file
	// as it finds it, and would create one readable by others.
	tmp := fmt.Sprintf("%s.%d.tmp", dst, os.Getpid())
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	if _, err := db.sql.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		os.Remove(tmp)
		os.Remove(tmp + "-journal")
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	db.removeBackupsBefore(v)
	return nil
}

// removeBackupsBefore removes the upgrade backups of schema versions below
// v. Failing to is no reason to stop an upgrade: the copies stay, as before.
func (db *DB) removeBackupsBefore(v int) {
	paths, err := db.Backups()
	if err != nil {
		return
	}
	for _, p := range paths {
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(p, db.path), ".v%d.bak", &n); err == nil && n < v {
			os.Remove(p)
		}
	}
}
