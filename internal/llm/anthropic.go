package llm

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
)

// Anthropic API defaults.
const (
	AnthropicBaseURL = "https://api.anthropic.com"
	// AnthropicModel is the model used when none is configured: the id
	// Claude Code 2.1.330 resolves its "sonnet" alias to.
	AnthropicModel   = "claude-sonnet-5-5"
	anthropicVersion = "2023-06-01"
)

// Anthropic extracts entries with the Anthropic Messages API, one
// non-streaming request per session.
type Anthropic struct {
	BaseURL string // without /v1/messages
	APIKey  string
	Model   string
	Limits  Limits
	Client  *http.Client // nil: a client with Limits.Timeout that refuses redirects
	Log     *slog.Logger // nil: discard
}

// NewAnthropic configures the backend from c with the key from
// ANTHROPIC_API_KEY. It returns ErrNoAPIKey when apiKey is empty and an
// error when c.BaseURL is not an http(s) URL.
func NewAnthropic(c config.LLM, apiKey string, log *slog.Logger) (*Anthropic, error) {
	if strings.TrimSpace(apiKey) == "" {
		return nil, fmt.Errorf("anthropic: %w: set ANTHROPIC_API_KEY", ErrNoAPIKey)
	}
	base, err := baseURL(c.BaseURL, AnthropicBaseURL)
	if err != nil {
		return nil, fmt.Errorf("anthropic: %w", err)
	}
	model := c.Model
	if model == "" {
		model = AnthropicModel
	}
	return &Anthropic{BaseURL: base, APIKey: strings.TrimSpace(apiKey), Model: model, Limits: LimitsFrom(c), Log: log}, nil
}

// Name implements the pipeline's Extractor.
func (a *Anthropic) Name() string { return "anthropic" }

// Extract asks the model for entries. It returns ErrCostCap without sending
// anything when the prompt would be too large, a *StatusError for a non-2xx
// reply, context.DeadlineExceeded (wrapped) after Limits.Timeout,
// ErrTooLarge, ErrTruncated or ErrMalformed for an unusable reply, and
// ErrNoValidEntry when every entry failed validation.
func (a *Anthropic) Extract(ctx context.Context, msgs []extract.Message) ([]extract.Entry, error) {
	return extractWith(ctx, "anthropic", a.Log, a.Limits, msgs, a.complete)
}

// Ask sends one prompt with its own system prompt and returns the model's
// text. Its errors are those of Extract, less the entries' own.
func (a *Anthropic) Ask(ctx context.Context, system, prompt string) (string, error) {
	return askWith(ctx, "anthropic", a.Limits, system, prompt, a.complete)
}

type anthropicRequest struct {
	Model     string             `json:"model"`
	MaxTokens int                `json:"max_tokens"`
	System    string             `json:"system"`
	Messages  []anthropicMessage `json:"messages"`
}

type anthropicMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type anthropicResponse struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string         `json:"stop_reason"`
	Usage      anthropicUsage `json:"usage"`
}

// anthropicUsage is the Messages API's usage object, which the claude CLI's
// result envelope repeats.
type anthropicUsage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

// usage counts every input token, cached or not: each is sent and billed.
func (u anthropicUsage) usage(costUSD float64) spend.Usage {
	return spend.Usage{InputTokens: u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens,
		OutputTokens: u.OutputTokens, CostUSD: costUSD}
}

// complete sends one request and returns the text of the reply.
func (a *Anthropic) complete(ctx context.Context, system, text string, l Limits) (string, error) {
	c := a.Client
	if c == nil {
		c = newClient(l.Timeout)
	}
	hdr := http.Header{}
	hdr.Set("x-api-key", a.APIKey)
	hdr.Set("anthropic-version", anthropicVersion)
	req := anthropicRequest{
		Model:     a.Model,
		MaxTokens: l.MaxOutputTok,
		System:    system,
		Messages:  []anthropicMessage{{Role: "user", Content: text}},
	}
	var resp anthropicResponse
	if err := postJSON(ctx, c, a.BaseURL+"/v1/messages", hdr, a.APIKey, req, &resp); err != nil {
		return "", err
	}
	spend.Report(ctx, resp.Usage.usage(0))
	var b strings.Builder
	for _, c := range resp.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	if resp.StopReason == "max_tokens" {
		return "", fmt.Errorf("%w (max_tokens %d)", ErrTruncated, l.MaxOutputTok)
	}
	return b.String(), nil
}
