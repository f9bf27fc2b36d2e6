// Package config resolves the data directory and the user's settings from config.json and the environment.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// File names inside the data directory.
const (
	DBFile  = "memory.db"
	LogFile = "claude-memory-layer.log"
	// TeamFile, in the data directory, says this machine shares memories
	// with a team (internal/team writes it; the SessionEnd hook only looks
	// whether it is there, to start the worker that syncs).
	TeamFile   = "team.json"
	ConfigFile = "config.json"
)

// ErrNoHome is returned by Load, DataDir and ClaudeDir when no variable names
// the directory or the home directory (HOME; USERPROFILE on Windows).
var ErrNoHome = errors.New("no data directory: set CLAUDE_MEMORY_DIR or HOME")

// Severity orders conflict warning levels.
type Severity int

// Conflict severities, lowest first.
const (
	Low Severity = iota + 1
	Medium
	High
)

func (s Severity) String() string {
	switch s {
	case Low:
		return "LOW"
	case Medium:
		return "MEDIUM"
	case High:
		return "HIGH"
	}
	return "UNKNOWN"
}

// ParseSeverity parses LOW, MEDIUM or HIGH (any case).
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "LOW":
		return Low, nil
	case "MEDIUM":
		return Medium, nil
	case "HIGH":
		return High, nil
	}
	return 0, fmt.Errorf("severity %q: want LOW, MEDIUM or HIGH", s)
}

// Recall holds the knobs of per-prompt recall and the session brief.
type Recall struct {
	K                int      // memories injected per prompt at most
	TokenBudget      int      // approximate tokens of injected context at most
	Threshold        float64  // the relevance a prompt's best memory must reach, or nothing is injected, scaled by the prompt's kind (recall's howToBar, pastBar); 0 means recall's calibrated default (0.42)
	ConflictSeverity Severity // self-flag warnings shown from this level up
	Memories         bool     // inject memories on each prompt
	ConflictWarnings bool     // add the [CONFLICT WARNINGS] block
	CitationTrace    bool     // add the [CITATION TRACE] block
	Brief            bool     // inject a project brief at session start
	BriefTokens      int      // approximate tokens of the brief at most
	// Verification adds the [VERIFICATION CHECKLIST] block to injected
	// memories: check each claim against them, name those relied on, flag
	// conflicts. Off by default: it costs tokens on every injection.
	Verification bool
	// Clarification adds the [INTENT CLARIFICATION] block to injected
	// memories: ask one question when they leave the prompt ambiguous.
	Clarification bool
}

// Digest holds the knobs of episode digests (see pipeline.Processor.Digests).
type Digest struct {
	AfterDays int // a session whose latest message is this many days old gets a digest
}

// Config is the resolved configuration. Environment variables win over config.json.
type Config struct {
	DataDir   string
	Disabled  bool   // CLAUDE_MEMORY_DISABLE=1: hooks do nothing
	Extractor string // offline (default), claude, anthropic, openai
	LLM       LLM
	Recall    Recall
	Digest    Digest
	// Warnings lists settings that were ignored (bad config.json, bad values); the
	// configuration is still usable with defaults in their place.
	Warnings []string
	// sources maps a Key's ID to where its value came from when not the default.
	sources map[string]string
}

// LLM configures the optional LLM extraction backends.
type LLM struct {
	BaseURL        string
	Model          string
	TimeoutSeconds int // per request
	MaxInputBytes  int // transcript text sent at most
	MaxOutputTok   int // tokens requested at most
	ClaudeBin      string
	Budget         Budget
	// SelfCheck asks the extractor's model, after each answer, whether it
	// answered the prompt, is grounded in the memories shown and
	// contradicts none; the verdict is shown on the next prompt.
	SelfCheck bool
}

// Budget caps what LLM extraction spends, over the user's local day and
// calendar month; a zero cap is no cap. Dollar caps count only the cost an
// API reports (the claude CLI does; the HTTP APIs report tokens only).
type Budget struct {
	DailyTokens   int64
	MonthlyTokens int64
	DailyUSD      float64
	MonthlyUSD    float64
}

// Capped reports whether any cap is set.
func (b Budget) Capped() bool {
	return b.DailyTokens > 0 || b.MonthlyTokens > 0 || b.DailyUSD > 0 || b.MonthlyUSD > 0
}

// DBPath is the path of the SQLite store.
func (c Config) DBPath() string { return filepath.Join(c.DataDir, DBFile) }

// LogPath is the path of the diagnostics log.
func (c Config) LogPath() string { return filepath.Join(c.DataDir, LogFile) }

// Default returns the built-in settings for a data directory.
func Default(dataDir string) Config {
	return Config{
		DataDir:   dataDir,
		Extractor: "offline",
		LLM: LLM{
			TimeoutSeconds: 60,
			MaxInputBytes:  200_000,
			MaxOutputTok:   4096,
			ClaudeBin:      "claude",
		},
		Recall: Recall{
			K:                8,
			TokenBudget:      1500,
			Threshold:        0,
			ConflictSeverity: Medium,
			Memories:         true,
			ConflictWarnings: true,
			CitationTrace:    true,
			Brief:            true,
			BriefTokens:      600,
		},
		Digest: Digest{AfterDays: 30},
	}
}

// DataDir resolves the data directory: $CLAUDE_MEMORY_DIR, else
// $XDG_DATA_HOME/claude-memory-layer, else the place this OS keeps an
// application's local data: ~/.local/share on Linux and other Unix systems,
// ~/Library/Application Support on macOS, %LOCALAPPDATA% on Windows. It
// returns ErrNoHome when nothing is set.
func DataDir(getenv func(string) string) (string, error) {
	return dataDir(runtime.GOOS, getenv)
}

func dataDir(goos string, getenv func(string) string) (string, error) {
	const name = "claude-memory-layer"
	if d := getenv("CLAUDE_MEMORY_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if x := getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, name), nil
	}
	if goos == "windows" {
		if l := getenv("LOCALAPPDATA"); l != "" {
			return filepath.Join(l, name), nil
		}
	}
	h := home(goos, getenv)
	if h == "" {
		return "", ErrNoHome
	}
	switch goos {
	case "windows":
		return filepath.Join(h, "AppData", "Local", name), nil
	case "darwin", "ios":
		return filepath.Join(h, "Library", "Application Support", name), nil
	}
	return filepath.Join(h, ".local", "share", name), nil
}

// ClaudeDir is Claude Code's configuration directory, where it keeps
// settings.json, plugins and projects/: $CLAUDE_CONFIG_DIR, else .claude in the
// home directory. It returns ErrNoHome when neither is set.
func ClaudeDir(getenv func(string) string) (string, error) {
	return claudeDir(runtime.GOOS, getenv)
}

func claudeDir(goos string, getenv func(string) string) (string, error) {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d, nil
	}
	h := home(goos, getenv)
	if h == "" {
		return "", ErrNoHome
	}
	return filepath.Join(h, ".claude"), nil
}

// home is the user's home directory as Claude Code finds it: %USERPROFILE% on
// Windows, where HOME is usually unset (and, under Git Bash, not the profile),
// else $HOME.
func home(goos string, getenv func(string) string) string {
	if goos == "windows" {
		if p := getenv("USERPROFILE"); p != "" {
			return p
		}
	}
	return getenv("HOME")
}

// fileConfig is the shape of config.json. Pointers tell "absent" from zero.
type fileConfig struct {
	Extractor *string `json:"extractor"`
	LLM       struct {
		BaseURL        *string `json:"base_url"`
		Model          *string `json:"model"`
		TimeoutSeconds *int    `json:"timeout_seconds"`
		MaxInputBytes  *int    `json:"max_input_bytes"`
		MaxOutputTok   *int    `json:"max_output_tokens"`
		ClaudeBin      *string `json:"claude_bin"`
		SelfCheck      *bool   `json:"self_check"`
		Budget         struct {
			DailyTokens   *int64   `json:"daily_tokens"`
			MonthlyTokens *int64   `json:"monthly_tokens"`
			DailyUSD      *float64 `json:"daily_usd"`
			MonthlyUSD    *float64 `json:"monthly_usd"`
		} `json:"budget"`
	} `json:"llm"`
	Recall struct {
		K                *int     `json:"k"`
		TokenBudget      *int     `json:"token_budget"`
		Threshold        *float64 `json:"threshold"`
		ConflictSeverity *string  `json:"conflict_severity"`
		Memories         *bool    `json:"memories"`
		ConflictWarnings *bool    `json:"conflict_warnings"`
		CitationTrace    *bool    `json:"citation_trace"`
		Brief            *bool    `json:"brief"`
		BriefTokens      *int     `json:"brief_tokens"`
		Verification     *bool    `json:"verification_checklist"`
		Clarification    *bool    `json:"intent_clarification"`
	} `json:"recall"`
	Digest struct {
		AfterDays *int `json:"after_days"`
	} `json:"digest"`
}

// Load resolves the configuration: defaults, then DataDir/config.json, then the
// environment. Problems with individual settings are reported in Warnings and
// leave the default in place; only an unresolvable data directory is an error.
func Load(getenv func(string) string) (Config, error) {
	dir, err := DataDir(getenv)
	if err != nil {
		return Config{}, err
	}
	c := Default(dir)
	c.applyFile(filepath.Join(dir, ConfigFile))
	c.applyEnv(getenv)
	return c, nil
}

func (c *Config) warnf(format string, args ...any) {
	c.Warnings = append(c.Warnings, fmt.Sprintf(format, args...))
}

// maxConfigFile is far more than any config.json holds.
const maxConfigFile = 1 << 20

func (c *Config) applyFile(path string) {
	// Every hook reads this file before its deadline starts: a FIFO or a
	// symlink to /dev/zero here must not hang it or run it out of memory.
	b, err := regular.ReadFile(path, maxConfigFile)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err != nil {
		c.warnf("read %s: %v", path, err)
		return
	}
	var f fileConfig
	if err := json.Unmarshal(b, &f); err != nil {
		c.warnf("parse %s: %v (using defaults)", path, err)
		return
	}
	if f.Extractor != nil {
		c.Extractor = *f.Extractor
		if c.checkExtractor() {
			c.mark("extractor")
		}
	}
	c.setStr("llm.base_url", &c.LLM.BaseURL, f.LLM.BaseURL)
	c.setStr("llm.model", &c.LLM.Model, f.LLM.Model)
	c.setStr("llm.claude_bin", &c.LLM.ClaudeBin, f.LLM.ClaudeBin)
	c.setPositive("llm.timeout_seconds", &c.LLM.TimeoutSeconds, f.LLM.TimeoutSeconds)
	c.setPositive("llm.max_input_bytes", &c.LLM.MaxInputBytes, f.LLM.MaxInputBytes)
	c.setPositive("llm.max_output_tokens", &c.LLM.MaxOutputTok, f.LLM.MaxOutputTok)
	c.setBool("llm.self_check", &c.LLM.SelfCheck, f.LLM.SelfCheck)
	bud := &c.LLM.Budget
	setCap(c, "llm.budget.daily_tokens", &bud.DailyTokens, f.LLM.Budget.DailyTokens)
	setCap(c, "llm.budget.monthly_tokens", &bud.MonthlyTokens, f.LLM.Budget.MonthlyTokens)
	setCap(c, "llm.budget.daily_usd", &bud.DailyUSD, f.LLM.Budget.DailyUSD)
	setCap(c, "llm.budget.monthly_usd", &bud.MonthlyUSD, f.LLM.Budget.MonthlyUSD)
	r := &c.Recall
	c.setPositive("recall.k", &r.K, f.Recall.K)
	c.setPositive("recall.token_budget", &r.TokenBudget, f.Recall.TokenBudget)
	c.setPositive("recall.brief_tokens", &r.BriefTokens, f.Recall.BriefTokens)
	if f.Recall.Threshold != nil {
		r.Threshold = *f.Recall.Threshold
		c.mark("recall.threshold")
	}
	if f.Recall.ConflictSeverity != nil {
		c.setSeverity("recall.conflict_severity", *f.Recall.ConflictSeverity)
	}
	c.setBool("recall.memories", &r.Memories, f.Recall.Memories)
	c.setBool("recall.conflict_warnings", &r.ConflictWarnings, f.Recall.ConflictWarnings)
	c.setBool("recall.citation_trace", &r.CitationTrace, f.Recall.CitationTrace)
	c.setBool("recall.brief", &r.Brief, f.Recall.Brief)
	c.setBool("recall.verification_checklist", &r.Verification, f.Recall.Verification)
	c.setBool("recall.intent_clarification", &r.Clarification, f.Recall.Clarification)
	c.setPositive("digest.after_days", &c.Digest.AfterDays, f.Digest.AfterDays)
}

func (c *Config) applyEnv(getenv func(string) string) {
	if v := getenv("CLAUDE_MEMORY_DISABLE"); v != "" && v != "0" && !strings.EqualFold(v, "false") {
		c.Disabled = true
		c.mark("CLAUDE_MEMORY_DISABLE")
	}
	if v := getenv("CLAUDE_MEMORY_EXTRACTOR"); v != "" {
		c.Extractor = v
		if c.checkExtractor() {
			c.mark("CLAUDE_MEMORY_EXTRACTOR")
		}
	}
	for _, s := range []struct {
		name string
		dst  *string
	}{
		{"CLAUDE_MEMORY_LLM_BASE_URL", &c.LLM.BaseURL},
		{"CLAUDE_MEMORY_LLM_MODEL", &c.LLM.Model},
		{"CLAUDE_MEMORY_CLAUDE_BIN", &c.LLM.ClaudeBin},
	} {
		if v := getenv(s.name); v != "" {
			*s.dst = v
			c.mark(s.name)
		}
	}
	c.envBool(getenv, "CLAUDE_MEMORY_SELF_CHECK", &c.LLM.SelfCheck)
	r := &c.Recall
	c.envInt(getenv, "CLAUDE_MEMORY_RECALL_K", &r.K)
	c.envInt(getenv, "CLAUDE_MEMORY_TOKEN_BUDGET", &r.TokenBudget)
	c.envInt(getenv, "CLAUDE_MEMORY_BRIEF_TOKENS", &r.BriefTokens)
	if v := getenv("CLAUDE_MEMORY_THRESHOLD"); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			r.Threshold = f
			c.mark("CLAUDE_MEMORY_THRESHOLD")
		} else {
			c.warnf("CLAUDE_MEMORY_THRESHOLD=%q: not a number", v)
		}
	}
	if v := getenv("CLAUDE_MEMORY_CONFLICT_SEVERITY"); v != "" {
		c.setSeverity("CLAUDE_MEMORY_CONFLICT_SEVERITY", v)
	}
	c.envBool(getenv, "CLAUDE_MEMORY_INJECT", &r.Memories)
	c.envBool(getenv, "CLAUDE_MEMORY_CONFLICT_WARNINGS", &r.ConflictWarnings)
	c.envBool(getenv, "CLAUDE_MEMORY_CITATION_TRACE", &r.CitationTrace)
	c.envBool(getenv, "CLAUDE_MEMORY_BRIEF", &r.Brief)
	c.envBool(getenv, "CLAUDE_MEMORY_VERIFICATION_CHECKLIST", &r.Verification)
	c.envBool(getenv, "CLAUDE_MEMORY_INTENT_CLARIFICATION", &r.Clarification)
	c.envInt(getenv, "CLAUDE_MEMORY_DIGEST_AFTER_DAYS", &c.Digest.AfterDays)
}

// checkExtractor reports whether the extractor is known, and puts offline in
// the place of one that is not.
func (c *Config) checkExtractor() bool {
	switch c.Extractor {
	case "offline", "claude", "anthropic", "openai":
		return true
	}
	c.warnf("extractor %q unknown: using offline", c.Extractor)
	c.Extractor = "offline"
	return false
}

func (c *Config) setSeverity(name, v string) {
	s, err := ParseSeverity(v)
	if err != nil {
		c.warnf("%s: %v", name, err)
		return
	}
	c.Recall.ConflictSeverity = s
	c.mark(name)
}

func (c *Config) setPositive(name string, dst *int, v *int) {
	if v == nil {
		return
	}
	if *v <= 0 {
		c.warnf("%s=%d: must be positive", name, *v)
		return
	}
	*dst = *v
	c.mark(name)
}

// setCap sets a budget cap: zero (no cap) or more. NaN and infinities are
// refused too, since no spend compares with them.
func setCap[T int64 | float64](c *Config, name string, dst *T, v *T) {
	if v == nil {
		return
	}
	if f := float64(*v); f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		c.warnf("%s=%v: must be 0 (no cap) or more", name, *v)
		return
	}
	*dst = *v
	c.mark(name)
}

func (c *Config) envInt(getenv func(string) string, name string, dst *int) {
	v := getenv(name)
	if v == "" {
		return
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		c.warnf("%s=%q: want a positive integer", name, v)
		return
	}
	*dst = n
	c.mark(name)
}

func (c *Config) envBool(getenv func(string) string, name string, dst *bool) {
	v := getenv(name)
	if v == "" {
		return
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		c.warnf("%s=%q: want true or false", name, v)
		return
	}
	*dst = b
	c.mark(name)
}

func (c *Config) setStr(name string, dst *string, v *string) {
	if v != nil {
		*dst = *v
		c.mark(name)
	}
}

func (c *Config) setBool(name string, dst *bool, v *bool) {
	if v != nil {
		*dst = *v
		c.mark(name)
	}
}

// EnsureDir creates the data directory with mode 0700 if it is missing.
func EnsureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create data dir %s: %w", dir, err)
	}
	return nil
}
