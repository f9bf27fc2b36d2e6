// Package handler implements the memory layer's response to each Claude Code hook event.
package handler

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/citation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/claudemd"
	"github.com/claude-memory-layer/claude-memory-layer/internal/cmdargs"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/glossary"
	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/ingest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pause"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
	"github.com/claude-memory-layer/claude-memory-layer/internal/selfcheck"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Budgets are the internal deadlines of each hook, well under the timeouts in
// hooks/hooks.json, so that a slow disk or a locked database costs a memory and
// never a stalled prompt.
const (
	PromptBudget = 1 * time.Second         // UserPromptSubmit blocks the prompt
	StartBudget  = 2 * time.Second         // SessionStart blocks the session's start
	AsyncBudget  = 10 * time.Second        // PostToolUse, Stop: registered async
	EndBudget    = 1200 * time.Millisecond // SessionEnd: Claude Code allows all SessionEnd hooks 1.5 s
)

// EndGC is SessionEnd's GOGC (hook.Options.GC). Ingesting and extracting a
// 1,000-message session allocates about 24 MB and keeps a few: at the
// default 100 the collector ran 9 or 10 times (GODEBUG=gctrace=1), at 400
// once, and the hook took 5-7 % less CPU for 6 MB more peak memory
// (docs/bench.md); 800 and off gained nothing more.
const EndGC = 400

// PromptGC is UserPromptSubmit's GOGC. A prompt's recall allocates a few MB
// and keeps about one: at the default 100 the collector started once, near
// the end (GODEBUG=gctrace=1 at 10k and 100k messages), its mark phase
// sharing the hook's one P; at 400 it does not start, for no more peak
// memory (15 MB either way, /usr/bin/time). A larger prompt or store still
// collects, at four times the live heap.
const PromptGC = 400

// PromptMemory is UserPromptSubmit's soft memory limit (hook.Options.Memory).
// On a real project's store a prompt can allocate 15 MB, little of it
// kept: at PromptGC the heap grew to all of it before a first collection,
// and the hook's peak RSS reached 23.5 MB (6 of 452 prompts of the fresh
// sets, on their projects' stores, over the 20 MB). With the
// limit the largest was 19.7 MB in one run, 20.1 MB in another (one
// prompt at the bound), and the median stayed 15 MB; on the
// bench's stores, where prompts allocate less, the limit is never
// reached and the CPU is the same (docs/bench.md, ./scripts/bench.sh
// -rss for a store of one's own). At 11 MiB no prompt passed 20 MB, but
// the one allocating 15 MB collected 45 times, 21 % of its CPU (13 times,
// 8 %, at 12 MiB): the runtime's own memory is 4 MB of the limit.
const PromptMemory = 12 << 20

var errNoSession = errors.New("hook input has no session_id")

// session opens the store and makes sure the event's session is registered.
func session(ctx context.Context, env *hook.Env, ev *hook.Event) (*store.DB, store.Session, error) {
	if ev.SessionID == "" {
		return nil, store.Session{}, errNoSession
	}
	// SessionEnd's close is the one that checkpoints: it ends a session's
	// writes, and its budget has room for it (see store.Options.KeepWAL).
	db, err := openStore(ctx, env, ev.Name != "SessionEnd")
	if err != nil {
		return nil, store.Session{}, err
	}
	s, ok := lookup(ctx, env, db, ev)
	if !ok {
		if s, err = register(ctx, db, s); err != nil {
			db.Close()
			return nil, store.Session{}, err
		}
	}
	return db, s, nil
}

// lookup reads the event's session. Most events come for a session already
// registered with these fields: then ok is true and the write lock is left to
// others. Otherwise it returns the session to register.
func lookup(ctx context.Context, env *hook.Env, db *store.DB, ev *hook.Event) (s store.Session, ok bool) {
	s = hookSession(env, ev)
	if have, err := db.Read().Session(ctx, s.ID); err == nil && have.Project != "" && have.Cwd != "" &&
		(s.TranscriptPath == "" || have.TranscriptPath == s.TranscriptPath) {
		return have, true
	}
	// A new session is filed, and recalls, under the spelling of its
	// project the store holds (a Windows path in another case); on error,
	// as the hook spelled it.
	if p, err := db.Read().RecordedProject(ctx, s.Project); err != nil {
		env.Log.Warn("recorded project", "err", err)
	} else {
		s.Project = p
	}
	return s, false
}

// hookSession is the session an event comes from, as its input describes it.
func hookSession(env *hook.Env, ev *hook.Event) store.Session {
	return store.Session{
		ID:             ev.SessionID,
		Project:        project.Identify(ev.Cwd),
		Cwd:            ev.Cwd,
		TranscriptPath: absPath(ev.TranscriptPath),
		Source:         ev.Get("source").String(),
		StartedAt:      env.Now(),
	}
}

// register records the session (or its new fields) and returns it as stored.
func register(ctx context.Context, db *store.DB, s store.Session) (store.Session, error) {
	var got store.Session
	err := db.Update(ctx, func(tx *store.Tx) error {
		var err error
		got, err = ingest.Register(ctx, tx, s)
		return err
	})
	return got, err
}

// upgradeUpTo is the largest store a hook upgrades to a new schema itself:
// an upgrade copies the store and can rebuild an index, 0.8 s at 200 MB
// here, so a hook with a store ten times that would run out of its budget
// at every call and never finish the upgrade. 64 MB takes about 0.25 s.
const upgradeUpTo = 64 << 20

// openStore opens the store with a lock wait that ends before the hook's
// deadline; with keepWAL, closing it leaves the WAL to the next process.
// A store too large to upgrade in a hook (upgradeUpTo) is left to
// `claude-memory-layer upgrade`, started here; until it is done the
// error wraps store.ErrOldSchema and the hooks do without the store.
func openStore(ctx context.Context, env *hook.Env, keepWAL bool) (*store.DB, error) {
	busy := time.Until(env.Deadline) - 150*time.Millisecond
	busy = min(max(busy, 50*time.Millisecond), 5*time.Second)
	db, err := store.Open(ctx, env.Config.DBPath(), store.Options{BusyTimeout: busy, KeepWAL: keepWAL, UpgradeUpTo: upgradeUpTo})
	if errors.Is(err, store.ErrOldSchema) {
		if serr := pipeline.SpawnUpgrade(env.Config.DataDir, workerEnv(env)); serr != nil {
			env.Log.Error("start the upgrade", "err", serr)
		}
		return nil, fmt.Errorf("store upgrading in the background: %w", err)
	}
	if err != nil {
		return nil, err
	}
	db.Now = env.Now
	return db, nil
}

// workerEnv is the environment of a worker a hook starts: the hook's, with
// the data directory it resolved.
func workerEnv(env *hook.Env) []string {
	return append(os.Environ(), "CLAUDE_MEMORY_DIR="+env.Config.DataDir)
}

// absPath resolves a relative transcript path against the working directory:
// hooks run in the session's cwd.
func absPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func recorder(db *store.DB, env *hook.Env) *capture.Recorder {
	return &capture.Recorder{DB: db, Log: env.Log}
}

func ids(s store.Session) capture.Session { return capture.Session{ID: s.ID, Project: s.Project} }

// SessionStart registers the session and replies with a brief of recent work
// in this project (nothing for a new project). Like the prompt hook it only
// reads the database: the session and its start mark go to the spool.
func SessionStart(ctx context.Context, env *hook.Env, ev *hook.Event) (hook.Reply, error) {
	if ev.SessionID == "" {
		return hook.Reply{}, errNoSession
	}
	db, err := openStore(ctx, env, true)
	if errors.Is(err, store.ErrOldSchema) {
		// No brief while a large store upgrades; the start mark waits in the
		// spool, and the upgrade registers the session as it stores it.
		// Without a spool (Windows) the session's first Stop after the
		// upgrade registers it, or SessionEnd's worker.
		if !store.SpoolSupported {
			return hook.Reply{}, err
		}
		s := hookSession(env, ev)
		if serr := store.Spool(ctx, env.Config.DBPath(), s, capture.MarkEvent(ids(s), store.TypeSessionStarted, ev.Raw, env.Now(), startData(ev, ""))); serr != nil {
			err = errors.Join(err, serr)
		}
		return hook.Reply{}, err
	}
	if err != nil {
		return hook.Reply{}, err
	}
	defer db.Close()
	s, registered := lookup(ctx, env, db, ev)
	var brief string
	if env.Config.Recall.Brief {
		var notices []string
		if n, err := spend.Notice(ctx, db, s.ID, env.Now()); err != nil {
			env.Log.Warn("LLM budget notice", "err", err)
		} else if n != "" {
			notices = append(notices, n)
		}
		if brief, err = recall.BriefWith(ctx, db, env.Config.Recall, s.Project, s.ID, notices); err != nil {
			return hook.Reply{}, fmt.Errorf("brief: %w", err)
		}
	}
	if err := record(ctx, env, db, s, registered, capture.MarkEvent(ids(s), store.TypeSessionStarted, ev.Raw, env.Now(), startData(ev, brief))); err != nil {
		return hook.Reply{}, err
	}
	recoverUnstored(ctx, env, db, s)
	return hook.Reply{AdditionalContext: brief}, nil
}

// startData is what a session's start mark records. The memories the brief
// shows are recorded with the start, so that the citation check can tell an
// answer citing one of them from one citing an id it never saw.
func startData(ev *hook.Event, brief string) map[string]any {
	data := map[string]any{"source": ev.Get("source").String(), "model": ev.Get("model").String(), "cwd": ev.Cwd}
	if shown := citation.IDs(brief); len(shown) > 0 {
		data["memories"] = shown
	}
	return data
}

// spoolWait bounds a hook's wait for the spool's lock, so that its write
// transaction, should it need one, still has the rest of the budget.
const spoolWait = 100 * time.Millisecond

// record stores evs, events of session s, without the write lock where it
// can: they go to the spool (store.Spool) in one append, and the next write
// transaction folds them in, the turn's Stop at the latest; the fold
// registers the session if it is new. Where the spool cannot take them
// (Windows, full, a directory in its way) one write transaction stores them
// and registers the session unless registered. A memory_injected record is
// stored as MarkInjected does, and may fail without costing the others.
func record(ctx context.Context, env *hook.Env, db *store.DB, s store.Session, registered bool, evs ...store.Event) error {
	if len(evs) > 0 && store.SpoolSupported {
		// A folder holds the spool's lock for a rename. One that stopped
		// there (a suspended import) must leave the write below its time.
		sctx, cancel := context.WithTimeout(ctx, spoolWait)
		err := store.Spool(sctx, env.Config.DBPath(), s, evs...)
		cancel()
		if err == nil {
			return nil
		}
		env.Log.Warn("spool; storing directly", "err", err)
	}
	if len(evs) == 0 && registered {
		return nil
	}
	return db.Update(ctx, func(tx *store.Tx) error {
		if !registered {
			got, err := ingest.Register(ctx, tx, s)
			if err != nil {
				return fmt.Errorf("register session: %w", err)
			}
			for i := range evs {
				evs[i].Project = got.Project
			}
		}
		for _, ev := range evs {
			if ev.Type != store.TypeMemoryInjected {
				if _, err := tx.Append(ctx, ev); err != nil {
					return err
				}
				continue
			}
			if err := tx.Savepoint(ctx, func() error { return tx.MarkInjected(ctx, ev) }); err != nil {
				env.Log.Error("record injection", "err", err)
			}
		}
		return nil
	})
}

// UserPromptSubmit replies with what earlier sessions of this project
// recorded that is relevant to the prompt, and stores the prompt. With
// llm.self_check on, the reply's systemMessage shows the user the last
// answer's verdict once it is ready, once.
//
// The prompt path only reads the database: WAL readers never wait for a
// writer, so while another session holds the write lock the prompt still
// gets its memories. The prompt and the record of what was injected go to
// the spool (record). Should the write that replaces it fail, the prompt
// comes back with the transcript at Stop or SessionEnd.
//
// A prompt in another language than English is also searched by the
// English glosses of its words from dict (the hook's main gives the
// dictionaries beside its binary, glosses.Beside); nil translates nothing.
func UserPromptSubmit(dict *glosses.Dict) hook.Handler {
	return func(ctx context.Context, env *hook.Env, ev *hook.Event) (hook.Reply, error) {
		return userPromptSubmit(ctx, env, ev, dict)
	}
}

func userPromptSubmit(ctx context.Context, env *hook.Env, ev *hook.Event, dict *glosses.Dict) (hook.Reply, error) {
	if ev.SessionID == "" {
		return hook.Reply{}, errNoSession
	}
	prompt := ev.Get("prompt").String()
	// First, before anything that can wait on a lock: Claude Code runs the
	// command's shell block as soon as this hook returns.
	if args, ok := cmdargs.Arguments(prompt); ok {
		if err := cmdargs.Save(env.Config.DataDir, ev.SessionID, args); err != nil {
			env.Log.Error("save command arguments", "err", err)
		}
	}
	// /memory-layer:memory-off and memory-on switch this session's
	// injection: the command's own prompt reaches this hook first.
	if off, ok := pause.Command(prompt); ok {
		if err := pause.Set(env.Config.DataDir, ev.SessionID, off); err != nil {
			env.Log.Error("switch injection", "off", off, "err", err)
		}
	}
	db, err := openStore(ctx, env, true)
	if err != nil {
		return hook.Reply{}, err
	}
	defer db.Close()
	s, registered := lookup(ctx, env, db, ev)
	// Recall (when the gate opens) and the recorder look in the spool for
	// this session's events: the files are read once for both.
	spool := db.SessionSpool(s.ID, store.TypeSessionStarted, store.TypeMemoryInjected, store.TypeToolObservation, store.TypeUserPrompt)
	var inj recall.Injection
	if env.Config.Recall.Memories && !pause.Paused(env.Config.DataDir, ev.SessionID) {
		inj, err = recall.Compose(ctx, db, env.Config.Recall, recall.Request{Project: s.Project, SessionID: s.ID, PromptID: ev.PromptID,
			Prompt: prompt, Now: env.Now(), InContext: func() string {
				home, _ := os.UserHomeDir()
				return claudemd.Read(ev.Cwd, home)
			}, Terms: glossaryTerms(env, s.Project, prompt), Glosses: dict, Spool: spool})
		if err != nil {
			env.Log.Error("recall", "err", err)
		}
		if err := dict.Err(); err != nil {
			env.Log.Warn("prompt in another language searched by its own words only", "err", err)
		}
	}
	reply := hook.Reply{AdditionalContext: inj.Text}
	rec := recorder(db, env)
	rec.Spool = spool
	p, stored, err := rec.PromptEvent(ctx, ids(s), ev.PromptID, prompt, env.Now())
	if err != nil {
		env.Log.Error("store prompt", "err", err)
		return reply, nil
	}
	var evs []store.Event
	if stored {
		evs = append(evs, p)
	}
	if e, ok := inj.Event(); ok {
		evs = append(evs, e)
	}
	// The last answer's self-check, shown once: only when the record that
	// it was shown is stored with the prompt.
	var checked string
	if env.Config.LLM.SelfCheck {
		line, shown, ok, err := selfcheck.Pending(ctx, db, s.ID, env.Now())
		if err != nil {
			env.Log.Warn("read the self-check", "err", err)
		} else if ok {
			checked = line
			evs = append(evs, shown)
		}
	}
	if err := record(ctx, env, db, s, registered, evs...); err != nil {
		env.Log.Error("store prompt", "err", err)
		return reply, nil
	}
	reply.SystemMessage = checked
	return reply, nil
}

// glossaryTerms returns the terms of the project's glossary that prompt
// uses. The file is read again for each prompt (a hook lives for one), so
// an edit counts from the next prompt; a project without one costs a stat.
func glossaryTerms(env *hook.Env, project, prompt string) []glossary.Term {
	path := glossary.Path(env.Config.DataDir, project)
	if path == "" {
		return nil
	}
	terms, err := glossary.Match(path, prompt)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		env.Log.Warn("glossary", "err", err)
	}
	return terms
}

// PostToolUse stores a compact observation of a tool call; it also handles
// PostToolUseFailure, whose input carries error instead of tool_response.
// It spools the observation (store.Spool) rather than open the database:
// the next write transaction, the turn's Stop at the latest, stores it.
func PostToolUse(ctx context.Context, env *hook.Env, ev *hook.Event) (hook.Reply, error) {
	if ev.SessionID == "" {
		return hook.Reply{}, errNoSession
	}
	if ev.Get("agent_id").String() != "" && !observation.BySubagentKept(ev.Get("tool_name").String()) {
		return hook.Reply{}, nil // a sub-agent's exploration: its report is kept
	}
	failed := ev.Name == "PostToolUseFailure"
	resp := ev.Get("tool_response")
	out := observation.ResponseText(resp)
	if failed {
		out = ev.Get("error").String()
	}
	o := observation.Build(ev.Get("tool_name").String(), ev.Get("tool_input"), out, failed || observation.ResponseFailed(resp))
	o.Memories = citation.IDs(out)
	s := hookSession(env, ev)
	tool, ok := capture.ToolEvent(ids(s), ev.PromptID, ev.Get("tool_use_id").String(), o, env.Now())
	if !ok {
		return hook.Reply{}, nil
	}
	if store.SpoolSupported {
		err := store.Spool(ctx, env.Config.DBPath(), s, tool)
		if err == nil {
			return hook.Reply{}, nil
		}
		env.Log.Warn("spool the tool call; storing it directly", "err", err)
	}
	// The event built above, not a new one: without a tool_use_id its key
	// hashes its time, and a spool write that failed late may have landed.
	db, s, err := session(ctx, env, ev)
	if err != nil {
		return hook.Reply{}, err
	}
	defer db.Close()
	tool.Project = s.Project
	return hook.Reply{}, db.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.Append(ctx, tool)
		return err
	})
}

// Stop stores the turn's final answer from last_assistant_message (the
// transcript may not hold it yet), ingests the transcript's new rows and
// checks the answer's citations: memories it cites that the turn showed it
// are counted as used, others are flagged in a memory_cited event and the
// log. With llm.self_check on it starts the answer's self-check in the
// background (startSelfCheck). It never replies: on Stop any output would
// keep Claude working.
func Stop(ctx context.Context, env *hook.Env, ev *hook.Event) (hook.Reply, error) {
	db, s, err := session(ctx, env, ev)
	if err != nil {
		return hook.Reply{}, err
	}
	defer db.Close()
	rec := recorder(db, env)
	// Transcript first: if the final answer is already there, its row (with its
	// uuid) is stored and the Stop copy below is recognised as the same answer.
	// The reserve keeps time to store last_assistant_message below after a
	// transcript too large to store whole.
	if _, err := ingestSteps(ctx, env, rec, &s, false, endReserve); err != nil {
		env.Log.Error("ingest transcript", "err", err)
	}
	msg := ev.Get("last_assistant_message").String()
	if msg == "" {
		return hook.Reply{}, nil
	}
	if _, err := rec.StopAnswer(ctx, ids(s), ev.PromptID, msg, env.Now()); err != nil {
		return hook.Reply{}, err
	}
	if env.Config.LLM.SelfCheck {
		startSelfCheck(env, s.ID, ev.PromptID)
	}
	check, err := citation.Record(ctx, db, citation.Turn{SessionID: s.ID, Project: s.Project, PromptID: ev.PromptID, Answer: msg, Now: env.Now()})
	if err != nil {
		return hook.Reply{}, fmt.Errorf("check citations: %w", err)
	}
	if check.Flagged() {
		env.Log.Warn("answer cites memories it was not shown", "session", s.ID, "prompt_id", ev.PromptID,
			"not_shown", check.Unshown, "shown_earlier_in_session", check.Earlier, "unknown", check.Unknown, "shown", check.Shown)
	}
	return hook.Reply{}, nil
}

// startSelfCheck hands the answer's self-check to a detached worker, which
// asks the LLM (a hook never touches the network) and stores the verdict
// for the next prompt. Without an LLM extractor it says so, once.
func startSelfCheck(env *hook.Env, sessionID, promptID string) {
	if env.Config.Extractor == "offline" {
		selfcheck.Unavailable(env.Config.DataDir, env.Log, "the extractor is offline: set extractor to claude, anthropic or openai")
		return
	}
	if err := pipeline.SpawnSelfCheck(sessionID, promptID, workerEnv(env)); err != nil {
		env.Log.Error("start the self-check", "err", err)
	}
}

// SessionEnd ingests the rest of the transcript and records the session's end;
// PreCompact does the same without ending the session. Neither replies: PreCompact
// stdout would become compaction instructions.
func SessionEnd(ctx context.Context, env *hook.Env, ev *hook.Event) (hook.Reply, error) {
	ending := ev.Name != "PreCompact"
	db, s, err := session(ctx, env, ev)
	if errors.Is(err, store.ErrOldSchema) {
		// The worker does what this hook would, once the upgrade openStore
		// started is done (it waits for the worker lock): it is told the
		// session as this hook sees it, for no hook may have registered it.
		s := hookSession(env, ev)
		args := []string{"--transcript", s.TranscriptPath, "--cwd", s.Cwd}
		if ending {
			args = append(args, pipeline.EndedArgs(ev.Get("reason").String(), env.Now())...)
		}
		if serr := pipeline.Spawn(ev.SessionID, workerEnv(env), args...); serr != nil {
			err = errors.Join(err, serr)
		}
		return hook.Reply{}, err
	}
	if err != nil {
		return hook.Reply{}, err
	}
	defer db.Close()
	rec := recorder(db, env)
	var rest bool
	if ending && unstoredBytes(s) > handOver {
		// Far more than a hook can store: the end mark and the worker come
		// first, so that a machine too busy to store a single step in the
		// budget still loses nothing. The worker stores it all.
		rest = true
	} else if rest, err = ingestSteps(ctx, env, rec, &s, ending, endReserve); err != nil {
		env.Log.Error("ingest transcript", "err", err)
	}
	if ending {
		if err := pause.Set(env.Config.DataDir, ev.SessionID, false); err != nil {
			env.Log.Error("resume injection", "err", err)
		}
		reason, at := ev.Get("reason").String(), env.Now()
		if err := rec.End(ctx, ids(s), reason, ev.Raw, at); err != nil {
			// Out of time, or refused by a busy store: the worker records
			// the end, stores the rest and distils the session, as it does
			// for a store being upgraded. Without it the session would
			// wait for a resume that may never come.
			env.Log.Warn("end of session not recorded; handing it to the worker", "err", err)
			if serr := pipeline.Spawn(s.ID, workerEnv(env), pipeline.EndedArgs(reason, at)...); serr != nil {
				err = errors.Join(err, serr)
			}
			return hook.Reply{}, err
		}
	}
	if rest {
		// The worker ingests the rest of the transcript before it extracts.
		env.Log.Warn("transcript not fully stored in the hook's budget; handing the rest to the worker", "offset", s.Offset)
		return hook.Reply{}, pipeline.Spawn(s.ID, workerEnv(env))
	}
	return hook.Reply{}, distil(ctx, env, db, s.ID)
}

// recentSessions is how many of a project's latest sessions SessionStart
// looks at for a transcript left partly unstored.
const recentSessions = 5

// recoverUnstored starts the worker for one recent ended session of the
// project whose transcript holds complete lines past its stored offset: its
// SessionEnd ran out of budget and the worker it started died (a reboot, a
// kill). Without this nothing would ever store the rest. A transcript still
// being written, or whose last line is partial, is left alone.
func recoverUnstored(ctx context.Context, env *hook.Env, db *store.DB, current store.Session) {
	ss, err := db.Sessions(ctx, current.Project, recentSessions)
	if err != nil {
		env.Log.Warn("look for unstored transcripts", "err", err)
		return
	}
	for _, s := range ss {
		if s.ID == current.ID || s.EndedAt.IsZero() || s.TranscriptPath == "" {
			continue
		}
		if !unstored(s, env.Now()) {
			continue
		}
		env.Log.Warn("transcript of an ended session not fully stored; starting the worker", "session", s.ID, "offset", s.Offset)
		if err := pipeline.Spawn(s.ID, workerEnv(env)); err != nil {
			env.Log.Error("start worker", "session", s.ID, "err", err)
		}
		return // one at a time: the worker lock would queue the rest anyway
	}
}

// quietFor is how long a transcript must have been left unwritten before
// SessionStart takes its session for over: a resumed session writes to it.
const quietFor = 10 * time.Minute

// unstored reports whether a session's transcript, unwritten for quietFor,
// ends in a complete line past the session's stored offset.
func unstored(s store.Session, now time.Time) bool {
	f, err := regular.Open(s.TranscriptPath)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() <= s.Offset || fi.ModTime().After(now.Add(-quietFor)) {
		return false
	}
	last := make([]byte, 1)
	_, err = f.ReadAt(last, fi.Size()-1)
	return err == nil && last[0] == '\n'
}

// handOver is how many unstored transcript bytes SessionEnd leaves to the
// worker without trying: about a second of storing on an idle machine, more
// than its budget on a busy one.
const handOver = 4 * ingestStep

// unstoredBytes is how much of the session's transcript is past its stored
// offset (0 when it cannot be read: ingesting then reports why).
func unstoredBytes(s store.Session) int64 {
	fi, err := os.Stat(s.TranscriptPath)
	if err != nil || s.TranscriptPath == "" {
		return 0
	}
	return fi.Size() - s.Offset
}

// ingestStep is how many transcript bytes one ingest step reads and stores:
// about 150 ms of work, so that a hook sees its deadline coming.
const ingestStep = 2 << 20

// endReserve is the time Stop and SessionEnd keep after ingesting: for the
// final answer, the end mark and handing over to the worker.
const endReserve = 200 * time.Millisecond

// ingestSteps stores the session's new transcript rows a step at a time and
// stops before a step would run past the hook's deadline less reserve. It
// reports whether rows were left. A transcript of any size thus loses
// nothing: what one hook cannot store in its budget, the next hook or the
// worker picks up from the stored offset.
//
// A step that overruns (the machine is busy) is cut at the deadline by its
// context and rolls back whole; the offset stays before it.
func ingestSteps(ctx context.Context, env *hook.Env, rec *capture.Recorder, s *store.Session, final bool, reserve time.Duration) (rest bool, err error) {
	ctx, cancel := context.WithDeadline(ctx, env.Deadline.Add(-reserve))
	defer cancel()
	return rec.IngestSteps(ctx, s, final, ingestStep, func(slowest time.Duration) bool {
		return time.Until(env.Deadline)-reserve > 2*slowest
	})
}

// digestsDue starts the digest worker when a session is due a digest or
// the full-text indexes hold many segments (pipeline.MergeWanted): the
// worker would have built the digest and merged the indexes after its
// session, but the hook processed this one itself. The store is asked for
// digests at most once a while (see pipeline.DigestsWanted): a session is
// due only days after it ended. The segments are two rows' read.
func digestsDue(ctx context.Context, env *hook.Env, db *store.DB) {
	now := env.Now()
	start := false
	if pipeline.DigestsWanted(env.Config.DataDir, now) {
		due, err := db.Read().DigestsDue(ctx, "", pipeline.DigestsBefore(now, env.Config.Digest.AfterDays), 1)
		switch {
		case err != nil:
			env.Log.Error("sessions due a digest", "err", err)
		case len(due) == 0:
			pipeline.RecordDigests(env.Config.DataDir, pipeline.DigestResult{}, 1, now)
		default:
			start = true
		}
	}
	if !start {
		want, err := pipeline.MergeWanted(ctx, db, env.Config.DataDir)
		if err != nil {
			env.Log.Error("full-text segments", "err", err)
		}
		start = want
	}
	if start {
		if err := pipeline.SpawnDigests(workerEnv(env)); err != nil {
			env.Log.Error("start the digest worker", "err", err)
		}
	}
}

// distil runs extraction and alignment for the session: in the hook when the
// offline extractor can finish inside the budget, else in a detached worker.
func distil(ctx context.Context, env *hook.Env, db *store.DB, sessionID string) error {
	if env.Config.Extractor == "offline" {
		n, err := db.Read().CountSessionMessages(ctx, sessionID)
		if err != nil {
			return err
		}
		if n <= pipeline.InProcessLimit {
			// Leave time to hand over to the worker if this runs out of it.
			pctx, cancel := context.WithDeadline(ctx, env.Deadline.Add(-250*time.Millisecond))
			defer cancel()
			p := &pipeline.Processor{DB: db, Extractor: pipeline.Offline{}, Log: env.Log, Now: env.Now}
			res, err := p.Process(pctx, sessionID)
			if err == nil {
				env.Log.Debug("processed", "messages", res.Messages, "verified", res.Verified, "candidates", res.Candidates)
				digestsDue(ctx, env, db)
				// The worker would have synced; without one, start the sync.
				if _, err := os.Stat(filepath.Join(env.Config.DataDir, config.TeamFile)); err == nil {
					if err := pipeline.SpawnTeamSync(workerEnv(env)); err != nil {
						env.Log.Error("start the team sync", "err", err)
					}
				}
				return nil
			}
			if pctx.Err() == nil {
				return fmt.Errorf("process session: %w", err)
			}
			env.Log.Warn("session too slow to process in the hook; handing over to the worker", "messages", n)
		}
	}
	return pipeline.Spawn(sessionID, workerEnv(env))
}
