package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// runUpgrade brings the store to this build's schema and stores what the
// hooks spooled meanwhile. The hooks start it, detached, for a store too
// large to upgrade inside their deadlines; until it is done they leave the
// store alone (see handler.openStore). Any command that writes would
// upgrade too; this one does only that.
func runUpgrade(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "upgrade", "[--wait D]")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for another running worker (the hooks start the upgrade with 0)")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	// Started by a hook, nobody reads this command's output: the log says
	// how it went.
	log, closeLog := hook.OpenLog(cfg, io.Discard)
	defer closeLog()
	log = log.With("worker", "upgrade")
	// A worker of this build upgrades the store as it opens it, so one
	// holding the lock has done it or is doing it. A hook starts an upgrade
	// at each call until the store is upgraded, and those do not wait.
	unlock, err := pipeline.Lock(ctx, cfg.DataDir, *wait)
	if errors.Is(err, pipeline.ErrLocked) {
		const busy = "another worker is running; hooks try the upgrade again while the store needs it"
		log.Info(busy)
		fmt.Fprintln(e.stdout, busy)
		return nil
	}
	if err != nil {
		log.Error("upgrade the store", "err", err)
		return err
	}
	defer unlock()
	start := time.Now()
	v, err := upgrade(ctx, e, cfg.DataDir)
	if err != nil {
		log.Error("upgrade the store", "err", err, "elapsed", time.Since(start))
		return err
	}
	log.Info("store at this build's schema", "version", v, "elapsed", time.Since(start))
	fmt.Fprintf(e.stdout, "store at schema version %d (%s)\n", v, cfg.DBPath())
	return nil
}

// upgrade opens the store, which upgrades it, and stores what the spool
// holds; it returns the store's schema version. It notes for the hooks
// whether the upgrade failed (pipeline.RecordUpgrade). Some did not: an
// interrupted one (the machine shutting down), one overtaken by a newer
// build's, and one whose store opened, whatever then went wrong with the
// spool.
func upgrade(ctx context.Context, e *env, dataDir string) (int, error) {
	db, _, err := openStore(ctx, e)
	if err != nil {
		if ctx.Err() == nil && !errors.Is(err, store.ErrNewerSchema) {
			pipeline.RecordUpgrade(dataDir, err)
		}
		return 0, err
	}
	defer db.Close()
	pipeline.RecordUpgrade(dataDir, nil)
	if err := db.Fold(ctx); err != nil {
		return 0, fmt.Errorf("store the spool: %w", err)
	}
	return db.Version(ctx)
}
