package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/claude-memory-layer/claude-memory-layer/internal/export"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
)

// exportOptions are the flags of export.
type exportOptions struct {
	Project string // a directory; "" exports every project
	Format  string
	Output  string // "" is stdout
	// WithForgetKey writes the key of the store's forget rules too.
	WithForgetKey bool
}

const exportUsage = `[--project DIR] [--format jsonl] [--output FILE] [--with-forget-key --output FILE]

Exports the store as JSONL: a header line, then every event, session and entry
(with its evidence and conflicts), one per line. Without --project every
project is exported. 'import --from-export FILE' restores it.

A forget's rule (which keeps what it forgot from being written back) holds
hashes keyed with a secret of this store, left out of the export so that the
file cannot be used to test guesses of forgotten words. A store restored from
it elsewhere therefore does not honour those rules. --with-forget-key writes
the secret too: every forget holds in the restored store, and anyone who
holds the file can test guesses against its forgets. It is written to a file
(--output, mode 0600) only, and restored with import --from-export FILE
--adopt-forget-key. Keep such a file as you would the store itself.
`

func parseExportFlags(e *env, args []string) (exportOptions, error) {
	var o exportOptions
	fs := newFlags(e, "export", exportUsage)
	fs.StringVar(&o.Project, "project", "", "export only the project of `DIR` (default: all projects)")
	fs.StringVar(&o.Format, "format", "jsonl", "output format; only jsonl")
	fs.StringVar(&o.Output, "output", "", "write to `FILE` (mode 0600) instead of stdout")
	fs.BoolVar(&o.WithForgetKey, "with-forget-key", false, "also write the secret of the forget rules, so that a restore elsewhere honours every forget")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	if o.Format != "jsonl" {
		return o, usagef("--format %q: only jsonl is supported", o.Format)
	}
	if o.WithForgetKey && o.Output == "" {
		// Standard output goes to a terminal, or to a file the shell
		// made with the umask's mode: the secret goes to a file of its own.
		return o, usagef("--with-forget-key writes a secret: give --output FILE (made 0600)")
	}
	return o, nil
}

func runExport(ctx context.Context, e *env, args []string) error {
	o, err := parseExportFlags(e, args)
	if err != nil {
		return err
	}
	proj, err := optionalProject(o.Project)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	if _, err := os.Stat(cfg.DBPath()); err != nil {
		return fmt.Errorf("no memory store to export: %w", err)
	}
	// Opened as every command opens it, so that a store from an older
	// release is migrated first and exports in the current shape.
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	write := export.Write
	if o.WithForgetKey {
		write = export.WriteWithForgetKey
		fmt.Fprintln(e.stderr, "claude-memory-layer export: WARNING: the export holds the secret of this store's forget rules;"+
			" with it, anyone who reads the file can test guesses of what was forgotten. Keep it as you would memory.db.")
	}
	if o.Output == "" {
		w := bufio.NewWriterSize(e.stdout, 256<<10)
		if err := write(ctx, db, proj, e.now(), w); err != nil {
			return err
		}
		return w.Flush()
	}
	// Write next to the target and rename, so a failed export never leaves a
	// half-written file under the name; CreateTemp makes it 0600.
	f, err := os.CreateTemp(filepath.Dir(o.Output), "."+filepath.Base(o.Output)+".*.tmp")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	w := bufio.NewWriterSize(f, 256<<10)
	if err := write(ctx, db, proj, e.now(), w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := os.Rename(f.Name(), o.Output); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// runRestore is import --from-export: export.Restore from a file.
func runRestore(ctx context.Context, e *env, o importOptions) error {
	f, err := os.Open(o.FromExport)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return err
	} else if !fi.Mode().IsRegular() {
		// Read twice (the forgets first, export.Restore): a pipe can't be.
		return fmt.Errorf("%s is not a regular file: --from-export reads an export file twice, its forgets first", o.FromExport)
	}
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	s, err := export.Restore(ctx, db, f, e.stderr, export.Options{AdoptForgetKey: o.AdoptKey})
	if err != nil {
		return err
	}
	if s.ForgottenHere > 0 {
		// The export's forgets deleted what this store held: as after a
		// forget, its bytes leave the file and the backups that hold it.
		if err := compactHint(db.Compact(ctx), db.Path()); err != nil {
			return err
		}
		if _, err := db.RemoveBackups(); err != nil {
			return err
		}
	}
	if o.JSON {
		if err := writeJSON(e.stdout, s); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "restored from %s: %s read, %s added, %s skipped\n", o.FromExport,
			plural.Of(s.Events, "event"), thousands(s.Added), plural.Of(s.Duplicates, "duplicate"))
		fmt.Fprintf(e.stdout, "%s, %s (%s new), %s recorded\n", plural.Of(s.Sessions, "session"), plural.Of(s.Entries, "entry"),
			thousands(s.NewEntries), plural.Of(s.Conflicts, "conflict"))
		if s.Refused > 0 || s.ForgottenHere > 0 {
			fmt.Fprintf(e.stdout, "forgets: %s of the export left out; of what this store held, %s events and memories removed\n",
				plural.Of(s.Refused, "event"), thousands(s.ForgottenHere))
		}
		if s.RulesNotCarried > 0 {
			fmt.Fprintf(e.stdout, "%s not honoured in this store (see the warning above)\n", plural.Of(s.RulesNotCarried, "forget rule"))
		}
	}
	if s.FailedLines > 0 {
		return fmt.Errorf("%s of %s could not be restored", plural.Of(s.FailedLines, "line"), o.FromExport)
	}
	return nil
}
