package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glossary"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
)

type glossaryOptions struct {
	init     bool // "glossary init": create the file when missing
	project  string
	pathOnly bool
	json     bool
}

func parseGlossary(e *env, args []string) (glossaryOptions, error) {
	var o glossaryOptions
	fs := newFlags(e, "glossary", "[init] [--project DIR] [--path] [--json]")
	fs.StringVar(&o.project, "project", "", "the project's glossary (default: the current directory's)")
	fs.BoolVar(&o.pathOnly, "path", false, "print the file's path only")
	fs.BoolVar(&o.json, "json", false, "print the path, whether the file exists, its terms and problems as JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() == 0:
	case fs.NArg() == 1 && fs.Arg(0) == "init":
		o.init = true
	default:
		return o, usagef("glossary: want no argument or init, not %q", strings.Join(fs.Args(), " "))
	}
	if o.pathOnly && o.json {
		return o, usagef("--path and --json exclude each other")
	}
	return o, nil
}

// glossaryReport is glossary's --json output.
type glossaryReport struct {
	Project   string         `json:"project"`
	Path      string         `json:"path"`
	Exists    bool           `json:"exists"`
	Created   bool           `json:"created,omitempty"`
	Truncated bool           `json:"truncated,omitempty"`
	Terms     []glossaryTerm `json:"terms"`
	Notes     []string       `json:"notes"`
}

type glossaryTerm struct {
	Name       string   `json:"name"`
	Aliases    []string `json:"aliases,omitempty"`
	Definition string   `json:"definition"`
	Line       int      `json:"line"`
}

// runGlossary prints where the project's glossary is and what it defines
// (/memory-layer:memory-glossary runs "glossary init"); init creates it,
// with an example in a comment, when it is missing. What it prints of the
// terms is filtered as the prompt hook filters what it injects.
func runGlossary(ctx context.Context, e *env, args []string) error {
	o, err := parseGlossary(e, args)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	proj, err := projectFlag(o.project)
	if err != nil {
		return err
	}
	if err := recordedFlag(ctx, e, &proj); err != nil {
		return err
	}
	r := glossaryReport{Project: proj, Path: glossary.Path(cfg.DataDir, proj), Terms: []glossaryTerm{}, Notes: []string{}}
	if o.init {
		if r.Created, err = glossary.Init(r.Path); err != nil {
			return err
		}
	}
	if o.pathOnly {
		fmt.Fprintln(e.stdout, r.Path)
		return nil
	}
	g, err := glossary.Load(r.Path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	default:
		r.Exists, r.Truncated, r.Notes = true, g.Truncated, append(r.Notes, g.Notes...)
		for _, t := range g.Terms {
			r.Terms = append(r.Terms, glossaryTerm{Name: t.Name, Aliases: t.Aliases, Definition: t.Definition, Line: t.Line})
		}
	}
	if o.json {
		return writeJSON(e.stdout, r)
	}
	w := e.stdout
	switch {
	case !r.Exists:
		fmt.Fprintf(w, "No glossary for %s yet. `claude-memory-layer glossary init` creates it at:\n%s\n", proj, r.Path)
		return nil
	case r.Created:
		fmt.Fprintf(w, "Created the glossary of %s, with an example in a comment:\n%s\n", proj, r.Path)
	default:
		fmt.Fprintf(w, "Glossary of %s:\n%s\n", proj, r.Path)
	}
	fmt.Fprintln(w, "Write a term as a heading (## Term) with its definition below it, or as a line \"- **Term**: definition\"; a prompt that uses it (any case, singular or plural) is shown its definition.")
	if len(r.Terms) == 0 {
		fmt.Fprintln(w, "\nIt defines no term yet.")
	} else {
		fmt.Fprintf(w, "\n%s:\n", plural.Of(len(r.Terms), "term"))
		for _, t := range r.Terms {
			name := t.Name
			if len(t.Aliases) > 0 {
				name += " (also " + strings.Join(t.Aliases, ", ") + ")"
			}
			def := strings.Join(strings.Fields(t.Definition), " ")
			if len(def) > 100 {
				def = strings.ToValidUTF8(def[:100], "") + "…"
			}
			fmt.Fprintf(w, "- %s: %s\n", name, def)
		}
	}
	if r.Truncated {
		fmt.Fprintf(w, "\nThe file is over %d KB: only its first %d KB are read.\n", glossary.MaxFile>>10, glossary.MaxFile>>10)
	}
	if len(r.Notes) > 0 {
		fmt.Fprintln(w, "\nTo fix:")
		for _, n := range r.Notes {
			fmt.Fprintln(w, "- "+n)
		}
	}
	return nil
}
