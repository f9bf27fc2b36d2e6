package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Key describes one setting: the one list that `claude-memory-layer config`
// prints, README's settings table is generated from (TestREADMEKeys keeps
// them equal), and Load names a setting's source by.
type Key struct {
	Name    string // path in config.json ("recall.k"); "" for an environment-only setting
	Env     string // environment variable that overrides it; "" if none
	Meaning string
	Range   string
	value   func(Config) string
}

// Value is the key's value in c, as config.json would spell it.
func (k Key) Value(c Config) string { return k.value(c) }

// Default is the key's built-in value.
func (k Key) Default() string { return k.value(Default("")) }

// ID names the key: its config.json path, else its environment variable.
func (k Key) ID() string {
	if k.Name != "" {
		return k.Name
	}
	return k.Env
}

// Sources of a value.
const (
	FromDefault = "default"
	FromFile    = ConfigFile
	FromEnv     = "environment"
)

// Source says where c's value of k came from: FromDefault, FromFile or FromEnv.
func (c Config) Source(k Key) string {
	if s, ok := c.sources[k.ID()]; ok {
		return s
	}
	return FromDefault
}

// Keys lists every setting, in config.json's order.
var Keys = []Key{
	{"", "CLAUDE_MEMORY_DISABLE", "every hook does nothing", "unset, 0 or false: off; any other value: on",
		func(c Config) string { return strconv.FormatBool(c.Disabled) }},
	{"extractor", "CLAUDE_MEMORY_EXTRACTOR", "how memories are distilled at session end: offline (no network), or an LLM through the claude CLI, the Anthropic API or an OpenAI-compatible API", "offline, claude, anthropic, openai",
		func(c Config) string { return c.Extractor }},
	{"llm.base_url", "CLAUDE_MEMORY_LLM_BASE_URL", "API address for the anthropic and openai extractors; empty: the provider's own", "a URL or empty",
		func(c Config) string { return c.LLM.BaseURL }},
	{"llm.model", "CLAUDE_MEMORY_LLM_MODEL", "model the LLM extractors ask for; empty: the backend's default", "a model name or empty",
		func(c Config) string { return c.LLM.Model }},
	{"llm.timeout_seconds", "", "seconds one LLM extraction request may take", "1 or more",
		func(c Config) string { return strconv.Itoa(c.LLM.TimeoutSeconds) }},
	{"llm.max_input_bytes", "", "transcript text sent to the LLM per session at most, in bytes", "1 or more",
		func(c Config) string { return strconv.Itoa(c.LLM.MaxInputBytes) }},
	{"llm.max_output_tokens", "", "tokens the LLM may answer with at most", "1 or more",
		func(c Config) string { return strconv.Itoa(c.LLM.MaxOutputTok) }},
	{"llm.claude_bin", "CLAUDE_MEMORY_CLAUDE_BIN", "the claude CLI the claude extractor runs", "a command name or path",
		func(c Config) string { return c.LLM.ClaudeBin }},
	{"llm.self_check", "CLAUDE_MEMORY_SELF_CHECK", "after each answer, in the background, one call to the extractor's LLM (within llm.budget) judges whether it answered, is grounded in the memories shown and contradicts none; the verdict is one line on the next prompt. Needs an LLM extractor", "true or false",
		func(c Config) string { return strconv.FormatBool(c.LLM.SelfCheck) }},
	{"llm.budget.daily_tokens", "", "LLM extraction tokens (input plus output, cached input included) of all projects per local calendar day", "0 (no cap) or more",
		func(c Config) string { return strconv.FormatInt(c.LLM.Budget.DailyTokens, 10) }},
	{"llm.budget.monthly_tokens", "", "the same per local calendar month", "0 (no cap) or more",
		func(c Config) string { return strconv.FormatInt(c.LLM.Budget.MonthlyTokens, 10) }},
	{"llm.budget.daily_usd", "", "LLM extraction dollars per local day, counted from the cost the API reports (only the claude CLI does)", "0 (no cap) or more",
		func(c Config) string { return formatFloat(c.LLM.Budget.DailyUSD) }},
	{"llm.budget.monthly_usd", "", "the same per local month", "0 (no cap) or more",
		func(c Config) string { return formatFloat(c.LLM.Budget.MonthlyUSD) }},
	{"recall.k", "CLAUDE_MEMORY_RECALL_K", "memories and messages injected per prompt at most", "1 or more",
		func(c Config) string { return strconv.Itoa(c.Recall.K) }},
	{"recall.token_budget", "CLAUDE_MEMORY_TOKEN_BUDGET", "approximate tokens injected per prompt at most", "1 or more",
		func(c Config) string { return strconv.Itoa(c.Recall.TokenBudget) }},
	{"recall.threshold", "CLAUDE_MEMORY_THRESHOLD", "relevance a prompt's best match must reach or nothing is injected (raised for a how-to question, a request, or a prompt about what the project never discussed; 0.7 of it for a question about what the project did); higher injects less", "0 (recall's calibrated default, 0.42) or more",
		func(c Config) string { return formatFloat(c.Recall.Threshold) }},
	{"recall.conflict_severity", "CLAUDE_MEMORY_CONFLICT_SEVERITY", "conflict warnings are shown from this severity up", "LOW, MEDIUM, HIGH",
		func(c Config) string { return c.Recall.ConflictSeverity.String() }},
	{"recall.memories", "CLAUDE_MEMORY_INJECT", "inject memories and messages on each prompt", "true or false",
		func(c Config) string { return strconv.FormatBool(c.Recall.Memories) }},
	{"recall.conflict_warnings", "CLAUDE_MEMORY_CONFLICT_WARNINGS", "add the [CONFLICT WARNINGS] block", "true or false",
		func(c Config) string { return strconv.FormatBool(c.Recall.ConflictWarnings) }},
	{"recall.citation_trace", "CLAUDE_MEMORY_CITATION_TRACE", "add the [CITATION TRACE] block", "true or false",
		func(c Config) string { return strconv.FormatBool(c.Recall.CitationTrace) }},
	{"recall.brief", "CLAUDE_MEMORY_BRIEF", "inject a brief of recent work at session start", "true or false",
		func(c Config) string { return strconv.FormatBool(c.Recall.Brief) }},
	{"recall.brief_tokens", "CLAUDE_MEMORY_BRIEF_TOKENS", "approximate tokens of the session brief at most", "1 or more",
		func(c Config) string { return strconv.Itoa(c.Recall.BriefTokens) }},
	{"recall.verification_checklist", "CLAUDE_MEMORY_VERIFICATION_CHECKLIST", "add the [VERIFICATION CHECKLIST] block to injected memories: check each claim against them, name those relied on, flag conflicts (about 116 tokens)", "true or false",
		func(c Config) string { return strconv.FormatBool(c.Recall.Verification) }},
	{"recall.intent_clarification", "CLAUDE_MEMORY_INTENT_CLARIFICATION", "add the [INTENT CLARIFICATION] block to injected memories: ask one question when they leave the prompt ambiguous (about 64 tokens)", "true or false",
		func(c Config) string { return strconv.FormatBool(c.Recall.Clarification) }},
	{"digest.after_days", "CLAUDE_MEMORY_DIGEST_AFTER_DAYS", "a session whose latest message is this many days old gets a digest (what it did, decided and left open, each line quoted), which recall shows in place of its turns", "1 or more",
		func(c Config) string { return strconv.Itoa(c.Digest.AfterDays) }},
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// mark records that the setting named name (a config.json path or an
// environment variable) took its value from there.
func (c *Config) mark(name string) {
	for _, k := range Keys {
		var src string
		switch name {
		case k.Name:
			src = FromFile
		case k.Env:
			src = FromEnv
		default:
			continue
		}
		if c.sources == nil {
			c.sources = map[string]string{}
		}
		c.sources[k.ID()] = src
		return
	}
	panic("config: no key " + name) // a setter named a key Keys lacks
}

// MarkdownTable renders Keys as README's settings table.
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| config.json key | environment variable | meaning | default | range |\n|---|---|---|---|---|\n")
	code := func(s string) string {
		if s == "" {
			return ""
		}
		return "`" + s + "`"
	}
	for _, k := range Keys {
		d := k.Default()
		if d == "" {
			d = "empty"
		} else {
			d = code(d)
		}
		name := code(k.Name)
		if name == "" {
			name = "(environment only)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", name, code(k.Env), k.Meaning, d, k.Range)
	}
	return b.String()
}
