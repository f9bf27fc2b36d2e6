package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

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
	if err := recordedFlag(ctx, e, &proj); err != nil {
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
	in, err := os.Open(o.FromExport)
	if err != nil {
		return err
	}
	defer in.Close()
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	f, err := seekableExport(in, filepath.Dir(db.Path()))
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := export.Restore(ctx, db, f, e.stderr, export.Options{AdoptForgetKey: o.AdoptKey})
	if err != nil {
		return err
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
		if s.Refused > 0 {
			fmt.Fprintf(e.stdout, "%s left out: a forget removed what they hold\n", plural.Of(s.Refused, "event"))
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

// seekable is an export open for a restore, which reads it more than once
// (its forgets first, export.Restore).
type seekable struct {
	*os.File
	temp string // a pipe's copy, removed on Close; "": the caller's file, closed by it
}

// seekableExport is f, an export, to be read more than once: a regular
// file as it is, anything else (a pipe, /dev/stdin, <(zcat backup.gz))
// copied first to a temporary file in dir (the store's) that only its
// owner can read, as the export holds the store's words.
func seekableExport(f *os.File, dir string) (*seekable, error) {
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case fi.Mode().IsRegular():
		return &seekable{File: f}, nil
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory, not an export", f.Name())
	}
	// The header first: a wrong stream piped in says so before it is
	// copied whole next to the store.
	br := bufio.NewReader(f)
	head, err := br.ReadSlice('\n')
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	if err := export.CheckHeader(bytes.TrimRight(head, "\r\n")); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	tmp, err := os.CreateTemp(dir, ".restore-*.jsonl") // 0600
	if err != nil {
		return nil, fmt.Errorf("copy %s: %w", f.Name(), err)
	}
	s := &seekable{File: tmp, temp: tmp.Name()}
	if runtime.GOOS != "windows" {
		// Gone from the directory at once, so a restore killed midway
		// leaves no copy of the export behind; the open file stays
		// readable. (Windows cannot remove an open file: Close does.)
		os.Remove(tmp.Name())
	}
	if _, err := io.Copy(tmp, io.MultiReader(bytes.NewReader(head), br)); err != nil {
		s.Close()
		return nil, fmt.Errorf("copy %s: %w", f.Name(), err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		s.Close()
		return nil, fmt.Errorf("copy %s: %w", f.Name(), err)
	}
	return s, nil
}

func (s *seekable) Close() error {
	if s.temp == "" {
		return nil
	}
	err := s.File.Close()
	os.Remove(s.temp)
	return err
}
