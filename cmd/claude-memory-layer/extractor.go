package main

import (
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
	var (
		ext pipeline.Extractor
		err error
	)
	blog := log.With("extractor", cfg.Extractor)
	switch cfg.Extractor {
	case "offline", "":
		return pipeline.Offline{}, nil
	case "anthropic":
		var a *llm.Anthropic
		if a, err = llm.NewAnthropic(cfg.LLM, getenv("ANTHROPIC_API_KEY"), blog); err == nil {
			ext = a
		}
	case "openai":
		var o *llm.OpenAI
		if o, err = llm.NewOpenAI(cfg.LLM, getenv("OPENAI_API_KEY"), blog); err == nil {
			ext = o
		}
	case "claude":
		var c *llm.Claude
		if c, err = llm.NewClaude(cfg.LLM, environ, blog); err == nil {
			ext = c
		}
	default:
		err = fmt.Errorf("%w: unknown extractor %q", errNoBackend, cfg.Extractor)
	}
	if err != nil {
		log.Warn("extractor not available; using offline", "extractor", cfg.Extractor, "err", err)
		return pipeline.Offline{}, nil
	}
	return ext, pipeline.Offline{}
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
