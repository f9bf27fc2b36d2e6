package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/llm"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// extractorFor returns the configured extractor and its fallback, reading API
// keys and the claude child's environment from this process.
func extractorFor(cfg config.Config, log *slog.Logger) (pipeline.Extractor, pipeline.Extractor) {
	return buildExtractor(cfg, log, os.Getenv, os.Environ())
}

// buildExtractor returns the configured LLM backend with the offline
// extractor as its fallback, or the offline extractor alone when the
// configuration asks for it or the backend cannot be built (no API key, no
// model, no claude binary, a bad base URL); that is logged, not returned:
// extraction still works.
func buildExtractor(cfg config.Config, log *slog.Logger, getenv func(string) string, environ []string) (pipeline.Extractor, pipeline.Extractor) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Extractor == "offline" || cfg.Extractor == "" {
		return pipeline.Offline{}, nil
	}
	b, err := buildBackend(cfg, log.With("extractor", cfg.Extractor), getenv, environ)
	if err != nil {
		log.Warn("extractor not available; using offline", "extractor", cfg.Extractor, "err", err)
		return pipeline.Offline{}, nil
	}
	return b, pipeline.Offline{}
}

// backend is an LLM backend: it extracts memories and answers one prompt.
type backend interface {
	pipeline.Extractor
	Ask(ctx context.Context, system, prompt string) (string, error)
}

// buildBackend returns the configured extractor's LLM backend. It returns
// an error wrapping errNoBackend for the offline extractor or an unknown
// one, and the backend's own when it cannot be built.
func buildBackend(cfg config.Config, log *slog.Logger, getenv func(string) string, environ []string) (backend, error) {
	switch cfg.Extractor {
	case "anthropic":
		return built(llm.NewAnthropic(cfg.LLM, getenv("ANTHROPIC_API_KEY"), log))
	case "openai":
		return built(llm.NewOpenAI(cfg.LLM, getenv("OPENAI_API_KEY"), log))
	case "claude":
		return built(llm.NewClaude(cfg.LLM, environ, log))
	case "offline", "":
		return nil, fmt.Errorf("%w: the extractor is offline", errNoBackend)
	}
	return nil, fmt.Errorf("%w: unknown extractor %q", errNoBackend, cfg.Extractor)
}

// built returns a constructor's backend, or a nil interface (never a nil
// pointer in one) with its error.
func built[B backend](b B, err error) (backend, error) {
	if err != nil {
		return nil, err
	}
	return b, nil
}

// meterFor is the LLM budget of cfg on db when ext is an LLM backend with the
// offline fallback and a cap is set; nil otherwise. deferWrites is for
// import (spend.Meter.Defer).
func meterFor(cfg config.Config, db *store.DB, fallback pipeline.Extractor, log *slog.Logger, now func() time.Time, deferWrites bool) *spend.Meter {
	if fallback == nil || !cfg.LLM.Budget.Capped() {
		return nil
	}
	return &spend.Meter{DB: db, Caps: cfg.LLM.Budget, Log: log, Now: now, Defer: deferWrites}
}
