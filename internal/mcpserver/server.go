// Package mcpserver lets Claude search and read its memory, and save to it, as Model Context Protocol tools.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server's name: Claude Code calls its tools
// mcp__plugin_memory-layer_memory__<tool>.
const Name = "memory"

// instructions tell the model, once per session, what the tools are for.
const instructions = `Project memory of earlier Claude Code sessions: prompts, answers, tool calls and the memories distilled from them (decisions, facts, preferences, ...), each memory backed by a verbatim quote.
Work from little to much: search returns one line per hit; timeline shows what happened around one; get gives full memories or messages with their evidence. Memories are cited as [mem:…], captured messages as #N.
remember saves a memory only with a quote copied verbatim from this session; conflicts lists memories that disagree; tasks lists what earlier sessions left to do.
An answer that relies on memories ends with "Memories used: [mem:…] …".`

// Server answers the memory tools for one project.
type Server struct {
	Config  config.Config
	Project string // the cwd's project, as the hooks identify it
	// SessionID is the session Claude Code started the server for
	// (CLAUDE_CODE_SESSION_ID), which remember quotes first; "" for none.
	// After /clear the session goes on under another id, so remember also
	// tries the session of the project's newest prompt.
	SessionID string
	Now       func() time.Time
	Log       *slog.Logger

	mu       sync.Mutex
	db       *store.DB   // the read connection, kept between calls
	file     os.FileInfo // the store file it was opened on
	recorded string      // Project as the store files it, where that is another spelling (resolve)
}

// New builds the MCP server with the memory tools.
func (s *Server) New(version string) *mcp.Server {
	if s.Now == nil {
		s.Now = time.Now
	}
	if s.Log == nil {
		s.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: Name, Version: version}, &mcp.ServerOptions{Instructions: instructions})
	mcp.AddTool(srv, &mcp.Tool{Name: "search", Description: searchDoc, Annotations: readOnly("Search memory")}, s.search)
	mcp.AddTool(srv, &mcp.Tool{Name: "timeline", Description: timelineDoc, Annotations: readOnly("Memory timeline")}, s.timeline)
	mcp.AddTool(srv, &mcp.Tool{Name: "get", Description: getDoc, Annotations: readOnly("Get memories")}, s.get)
	mcp.AddTool(srv, &mcp.Tool{Name: "remember", Description: rememberDoc, Annotations: &mcp.ToolAnnotations{Title: "Remember",
		DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}}, s.remember)
	mcp.AddTool(srv, &mcp.Tool{Name: "conflicts", Description: conflictsDoc, Annotations: readOnly("Memory conflicts")}, s.conflicts)
	mcp.AddTool(srv, &mcp.Tool{Name: "tasks", Description: tasksDoc, Annotations: readOnly("Open tasks")}, s.tasks)
	return srv
}

func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: ptr(false)}
}

func ptr[T any](v T) *T { return &v }

// Run serves the tools over t until the client goes away.
func (s *Server) Run(ctx context.Context, version string, t mcp.Transport) error {
	defer s.Close()
	return s.New(version).Run(ctx, t)
}

// Close closes the read connection kept between calls.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil {
		return nil
	}
	err := s.db.Close()
	s.db, s.file = nil, nil
	return err
}

// errNoStore reads as an empty memory: nothing has been captured yet.
var errNoStore = errors.New("no memory stored yet: nothing has been captured in any session")

// read returns the read connection, opening it on first use. It is kept
// between calls (opening costs a few milliseconds a search), and opened
// again when the file is no longer the one it was opened on: forget
// --yes compacts the store and uninstall --purge removes it.
func (s *Server) read(ctx context.Context) (*store.DB, error) {
	path := s.Config.DBPath()
	fi, statErr := os.Stat(path)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db != nil && statErr == nil && os.SameFile(fi, s.file) {
		s.resolve(ctx, s.db)
		return s.db, nil
	}
	if s.db != nil {
		s.db.Close()
		s.db, s.file = nil, nil
	}
	if errors.Is(statErr, os.ErrNotExist) {
		return nil, errNoStore
	}
	db, err := store.Open(ctx, path, store.Options{ReadOnly: true, BusyTimeout: 2 * time.Second})
	if errors.Is(err, store.ErrOldSchema) {
		// An older build's store: a write open upgrades it, whatever its size
		// (a tool call has no hook's deadline), or waits for the process that
		// is upgrading it.
		if db, err = s.write(ctx); err == nil {
			db.Close()
			db, err = store.Open(ctx, path, store.Options{ReadOnly: true, BusyTimeout: 2 * time.Second})
		}
	}
	if errors.Is(err, store.ErrNoSchema) {
		return nil, errNoStore
	}
	if err != nil {
		return nil, err
	}
	db.Now = s.Now
	s.db, s.file = db, fi
	s.resolve(ctx, db)
	return db, nil
}

// resolve sets recorded, with mu held, to the spelling of Project the store
// files it under where that is another (a Windows drive letter in the
// other case, store.Tx.RecordedProject): the hooks file the project so,
// and the tools read the same. Until one is found it asks again each
// call, one indexed lookup: the project's first session may come later.
func (s *Server) resolve(ctx context.Context, db *store.DB) {
	if s.recorded != "" {
		return
	}
	if p, err := db.Read().RecordedProject(ctx, s.Project); err == nil && p != s.Project {
		s.recorded = p
	}
}

// write opens the store for remember, creating it if need be.
func (s *Server) write(ctx context.Context) (*store.DB, error) {
	if err := os.MkdirAll(s.Config.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	db, err := store.Open(ctx, s.Config.DBPath(), store.Options{BusyTimeout: 5 * time.Second})
	if err != nil {
		return nil, err
	}
	db.Now = s.Now
	return db, nil
}

// scope is the project a read tool looks in: "" for every project.
func (s *Server) scope(all bool) string {
	if all {
		return ""
	}
	return s.project()
}

// project is the server's project as the store files it, once the store
// was read; Project before.
func (s *Server) project() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.recorded != "" {
		return s.recorded
	}
	return s.Project
}
