package main

import (
	"context"
	"fmt"
	"path/filepath"
	"text/tabwriter"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
)

// configKey is one setting as `config --json` prints it.
type configKey struct {
	Key     string `json:"key"`
	Env     string `json:"env,omitempty"`
	Value   string `json:"value"`
	Default string `json:"default"`
	Source  string `json:"source"`
	Meaning string `json:"meaning"`
	Range   string `json:"range"`
}

// runConfig prints the effective configuration: every setting with its value,
// its default, where the value came from, its meaning and its range.
func runConfig(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "config", "[--json]")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("config takes no arguments")}
	}
	cfg, err := loadConfig(e) // warnings go to stderr
	if err != nil {
		return err
	}
	keys := make([]configKey, 0, len(config.Keys))
	for _, k := range config.Keys {
		keys = append(keys, configKey{Key: k.ID(), Env: k.Env, Value: k.Value(cfg), Default: k.Default(),
			Source: cfg.Source(k), Meaning: k.Meaning, Range: k.Range})
	}
	if *asJSON {
		return writeJSON(e.stdout, struct {
			DataDir  string      `json:"data_dir"`
			Keys     []configKey `json:"keys"`
			Warnings []string    `json:"warnings"`
		}{cfg.DataDir, keys, append([]string{}, cfg.Warnings...)})
	}
	fmt.Fprintf(e.stdout, "data directory: %s\nconfig file:    %s\n\n", cfg.DataDir, filepath.Join(cfg.DataDir, config.ConfigFile))
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tDEFAULT\tSOURCE\tRANGE")
	for _, k := range keys {
		src := k.Source
		if src == config.FromEnv {
			src += " (" + k.Env + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.Key, quoteEmpty(k.Value), quoteEmpty(k.Default), src, k.Range)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "\nmeanings:")
	for _, k := range keys {
		env := ""
		if k.Env != "" && k.Env != k.Key {
			env = " (" + k.Env + ")"
		}
		fmt.Fprintf(e.stdout, "  %s%s: %s\n", k.Key, env, k.Meaning)
	}
	return nil
}

func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}
