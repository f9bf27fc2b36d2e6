package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
)

// OpenAIBaseURL is the default base URL of the OpenAI backend.
const OpenAIBaseURL = "https://api.openai.com/v1"

// OpenAI extracts entries with an OpenAI-compatible chat completions endpoint:
// OpenAI itself, or a local server such as Ollama
// (http://localhost:11434/v1), vLLM or LM Studio, which need no key.
type OpenAI struct {
	BaseURL string // up to, without, /chat/completions
	APIKey  string // optional; sent as a bearer token when set
	Model   string
	Limits  Limits
	Client  *http.Client // nil: a client with Limits.Timeout that refuses redirects
	Log     *slog.Logger // nil: discard
}

// NewOpenAI configures the backend from c with the optional key from
// OPENAI_API_KEY. The model must be configured: there is no default that
// fits every server. It returns ErrNoModel without one and an error when
// c.BaseURL is not an http(s) URL.
func NewOpenAI(c config.LLM, apiKey string, log *slog.Logger) (*OpenAI, error) {
	if strings.TrimSpace(c.Model) == "" {
		return nil, fmt.Errorf("openai: %w: set CLAUDE_MEMORY_LLM_MODEL", ErrNoModel)
	}
	base, err := baseURL(c.BaseURL, OpenAIBaseURL)
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	return &OpenAI{BaseURL: base, APIKey: strings.TrimSpace(apiKey), Model: c.Model, Limits: LimitsFrom(c), Log: log}, nil
}

// Name implements the pipeline's Extractor.
func (o *OpenAI) Name() string { return "openai" }

// Extract asks the model for entries. Its errors are those of
// Anthropic.Extract.
func (o *OpenAI) Extract(ctx context.Context, msgs []extract.Message) ([]extract.Entry, error) {
	return extractWith(ctx, "openai", o.Log, o.Limits, msgs, o.complete)
}

// Ask sends one prompt with its own system prompt and returns the model's
// text. Its errors are those of Anthropic.Ask.
func (o *OpenAI) Ask(ctx context.Context, system, prompt string) (string, error) {
	return askWith(ctx, "openai", o.Limits, system, prompt, o.complete)
}

type openaiRequest struct {
	Model          string          `json:"model"`
	MaxTokens      int             `json:"max_tokens"`
	Messages       []openaiMessage `json:"messages"`
	ResponseFormat struct {
		Type string `json:"type"`
	} `json:"response_format"`
}

type openaiMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openaiResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
}

// complete sends one request and returns the text of the first choice.
func (o *OpenAI) complete(ctx context.Context, system, text string, l Limits) (string, error) {
	c := o.Client
	if c == nil {
		c = newClient(l.Timeout)
	}
	hdr := http.Header{}
	if o.APIKey != "" {
		hdr.Set("Authorization", "Bearer "+o.APIKey)
	}
	req := openaiRequest{
		Model:     o.Model,
		MaxTokens: l.MaxOutputTok,
		Messages: []openaiMessage{
			{Role: "system", Content: system},
			{Role: "user", Content: text},
		},
	}
	// JSON mode: the server constrains the answer to one JSON object. It
	// requires the word "JSON" in the messages, which every prompt sent
	// (extraction's, Ask's callers') has.
	req.ResponseFormat.Type = "json_object"
	var resp openaiResponse
	if err := postJSON(ctx, c, o.BaseURL+"/chat/completions", hdr, o.APIKey, req, &resp); err != nil {
		return "", err
	}
	spend.Report(ctx, spend.Usage{InputTokens: resp.Usage.PromptTokens, OutputTokens: resp.Usage.CompletionTokens})
	if len(resp.Choices) == 0 || resp.Choices[0].Message.Content == nil {
		return "", errors.New("reply has no message content")
	}
	if resp.Choices[0].FinishReason == "length" {
		return "", fmt.Errorf("%w (max_tokens %d)", ErrTruncated, l.MaxOutputTok)
	}
	return *resp.Choices[0].Message.Content, nil
}
