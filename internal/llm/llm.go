// Package llm asks a language model for memory entries with quote-only evidence.
//
// Three backends implement the pipeline's Extractor: [Claude] runs the user's
// own Claude Code login headless (`claude -p`), [Anthropic] calls the
// Messages API and [OpenAI] calls an OpenAI-compatible chat completions
// endpoint (OpenAI, Ollama, vLLM, LM Studio). All of them send the same
// prompt (see prompt.go) and read the reply with the same strict [Parse].
//
// The model's output is untrusted input. It is size-capped, parsed strictly
// and validated entry by entry; an entry's evidence is a verbatim quote and a
// message index, never an offset, because the pipeline aligns every quote
// itself. Every failure (no key, cost cap, timeout, HTTP error, unparseable
// output) is returned as an error so that the pipeline can fall back to the
// offline extractor.
package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
)

// Errors callers and tests branch on.
var (
	// ErrNoAPIKey is returned by NewAnthropic when no API key is given.
	ErrNoAPIKey = errors.New("no API key")
	// ErrNoModel is returned by NewOpenAI when no model is configured.
	ErrNoModel = errors.New("no model configured")
	// ErrCostCap is returned by Extract when the prompt would be larger than
	// the configured input allows; nothing is sent.
	ErrCostCap = errors.New("prompt over the cost cap")
	// ErrTooLarge is returned when a reply (HTTP body, CLI output or the
	// model's text) is larger than its size cap.
	ErrTooLarge = errors.New("reply over the size cap")
	// ErrMalformed is returned by Parse when the output is not one JSON
	// object of the entries schema.
	ErrMalformed = errors.New("model output is not the entries JSON")
	// ErrNoValidEntry is returned by Extract when the model returned entries
	// but every one of them failed validation.
	ErrNoValidEntry = errors.New("model returned no valid entry")
	// ErrTruncated is returned by Extract when the model stopped at its
	// output token limit, so its JSON is cut off.
	ErrTruncated = errors.New("model output truncated at the token limit")
)

// Defaults for limits the configuration leaves at zero.
const (
	DefaultTimeout       = 60 * time.Second
	DefaultMaxInputBytes = 200_000
	DefaultMaxOutputTok  = 4096
)

// Size caps on what comes back. A model's answer is JSON text of at most 60
// small entries, far below maxOutputBytes; the transport caps leave room for
// the envelope around it and for JSON escaping (\uXXXX is 6 bytes a rune).
const (
	maxOutputBytes   = 1 << 20 // the model's text, before parsing
	maxResponseBytes = 8 << 20 // an HTTP body or the CLI's stdout
	maxExcerpt       = 200     // runes of a body or stderr quoted in an error
)

// Limits caps one extraction request.
type Limits struct {
	// Timeout bounds the whole request: connecting, the model's answer and,
	// for the claude CLI, its own retries.
	Timeout time.Duration
	// MaxInputBytes bounds the prompt sent (instructions plus messages). The
	// cost cap refuses a prompt whose estimated tokens (bytes/3) exceed
	// MaxInputBytes/3.
	MaxInputBytes int
	// MaxOutputTok is the max_tokens requested.
	MaxOutputTok int
}

// LimitsFrom reads the limits of c, using the defaults for unset values.
func LimitsFrom(c config.LLM) Limits {
	l := Limits{
		Timeout:       time.Duration(c.TimeoutSeconds) * time.Second,
		MaxInputBytes: c.MaxInputBytes,
		MaxOutputTok:  c.MaxOutputTok,
	}
	return l.withDefaults()
}

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxInputBytes <= 0 {
		l.MaxInputBytes = DefaultMaxInputBytes
	}
	if l.MaxOutputTok <= 0 {
		l.MaxOutputTok = DefaultMaxOutputTok
	}
	return l
}

// completer sends one system prompt and prompt to a backend's model and
// returns its text.
type completer func(ctx context.Context, system, prompt string, l Limits) (string, error)

// askWith is the one-prompt call every backend shares: nothing is sent when
// the prompt is over the input limit (ErrCostCap), the answer is asked for
// under the timeout, and it is returned as the model gave it, within
// maxOutputBytes. Errors carry the backend's name.
func askWith(ctx context.Context, name string, lim Limits, system, prompt string, complete completer) (string, error) {
	l := lim.withDefaults()
	if n := len(system) + len(prompt); n > l.MaxInputBytes {
		return "", fmt.Errorf("%s: %w: %d bytes, max input %d", name, ErrCostCap, n, l.MaxInputBytes)
	}
	ctx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	text, err := complete(ctx, system, prompt, l)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	if len(text) > maxOutputBytes {
		return "", fmt.Errorf("%s: %w: %d bytes", name, ErrTooLarge, len(text))
	}
	return text, nil
}

// extractWith is the extraction every backend shares: build the prompt within the
// limits (nothing is sent when it would be too large), ask the model through
// complete under the timeout, and parse its text. Errors carry the backend's
// name.
func extractWith(ctx context.Context, name string, log *slog.Logger, lim Limits, msgs []extract.Message,
	complete completer) ([]extract.Entry, error) {
	l := lim.withDefaults()
	p, err := prepare(msgs, l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if p.n == 0 {
		return nil, nil // nothing to extract from
	}
	ctx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	text, err := complete(ctx, systemPrompt, p.text, l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	entries, err := finish(log, text, p, msgs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return entries, nil
}

// finish parses a model's text into entries and screens them with the
// offline extractor's noise rules (extract.Screen), so that every backend
// keeps the same kinds of memory. It turns "entries given, none valid" into
// ErrNoValidEntry, so that the pipeline falls back instead of storing
// nothing, and logs how many entries were dropped; entries dropped as noise
// are valid, so a reply of only noise is an empty answer, not a failure.
func finish(log *slog.Logger, out string, p prompt, msgs []extract.Message) ([]extract.Entry, error) {
	r, err := Parse(out, p.shown)
	if err != nil {
		return nil, err
	}
	if r.Dropped > 0 {
		logger(log).Info("dropped invalid entries from the model's output", "kept", len(r.Entries), "dropped", r.Dropped)
	}
	if len(r.Entries) == 0 && r.Dropped > 0 {
		return nil, fmt.Errorf("%w (%d dropped)", ErrNoValidEntry, r.Dropped)
	}
	kept, noise := extract.Screen(msgs, r.Entries)
	if noise > 0 {
		logger(log).Info("dropped entries the noise rules reject", "kept", len(kept), "dropped", noise)
	}
	// The plan's open steps come from the tool calls' structure, as offline.
	return extract.WithPlan(kept, msgs), nil
}

func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}

// excerpt shortens untrusted text for an error message: at most maxExcerpt
// runes, white space collapsed, control characters dropped, and every
// occurrence of secret (an API key) replaced.
func excerpt(s, secret string) string {
	if secret != "" {
		s = strings.ReplaceAll(s, secret, "<redacted>")
	}
	var b strings.Builder
	n, space := 0, false
	for _, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || (r >= 0x7f && r < 0xa0) {
			continue
		}
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			space = b.Len() > 0
			continue
		}
		if n >= maxExcerpt {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
