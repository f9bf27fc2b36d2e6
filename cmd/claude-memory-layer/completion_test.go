package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// completionScript writes the CLI's completion script for shell to a file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "completion."+shell)
	if err := os.WriteFile(path, []byte(newCLI(t).ok("completion", shell)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// completionCase is a command line as the shell splits it, the last word
// the one being completed, and a word the completion must offer.
type completionCase struct {
	words []string
	want  string
}

var completionCases = []completionCase{
	{[]string{"sea"}, "search"},
	{[]string{"entries", "--ty"}, "--type"},
	{[]string{"entries", "--type", "de"}, "decision"},
	{[]string{"history", "--type", "user_"}, "user_prompt"},
	{[]string{"search", "--project", "/x", "--ki"}, "--kind"},
	{[]string{"team", "jo"}, "join"},
	{[]string{"team", "join", "--u"}, "--url"},
	{[]string{"completion", "f"}, "fish"},
	{[]string{"unin"}, "uninstall"},
}

// offers checks that complete, the words a shell offers for a command
// line, holds each case's word.
func offers(t *testing.T, shell string, cases []completionCase, complete func(words []string) []string) {
	t.Helper()
	for _, tt := range cases {
		if got := complete(tt.words); !slices.Contains(got, tt.want) {
			t.Errorf("%s offers %q for %q, want %q among them", shell, got, tt.words, tt.want)
		}
	}
}

// shellOutput runs a shell and returns its output; an error fails the test.
func shellOutput(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%q: %v\n%s", cmd.Args, err, out)
	}
	return string(out)
}

// TestCompletionBash: the bash script, loaded in a real bash, completes a
// command prefix, a command's flag, a closed flag's values (memory types
// for entries --type, event types for history --type, --type=VALUE too)
// and team's subcommands and their flags; an open value is left to bash's
// file names. Before, there was no completion command.
func TestCompletionBash(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on PATH")
	}
	script := completionScript(t, "bash")
	complete := func(words []string) []string {
		// As bash calls a completion function: COMP_WORDS split as it
		// splits them ("=" is a word of its own), COMP_CWORD the last.
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c",
			`source "$1" && shift && COMP_WORDS=("$@") && COMP_CWORD=$(($# - 1)) && _claude_memory_layer && printf '%s\n' "${COMPREPLY[@]}"`,
			"bash", script, "claude-memory-layer")
		cmd.Args = append(cmd.Args, words...)
		return strings.Fields(shellOutput(t, cmd))
	}
	offers(t, "bash", append(slices.Clone(completionCases),
		completionCase{[]string{"entries", "--type", "=", "pre"}, "preference"},
		completionCase{[]string{"entries", "--status", "="}, "contested"},
		completionCase{[]string{"install", "--mode", ""}, "settings"},
		completionCase{[]string{""}, "--version"},
	), complete)
	if got := complete([]string{"entries", "--type", "de"}); len(got) != 1 {
		t.Errorf("entries --type de: %q, want decision alone", got)
	}
	if got := complete([]string{"search", "--limit", ""}); len(got) != 0 {
		t.Errorf("an open value offers %q, want nothing (bash's default: file names)", got)
	}
}

// TestCompletionFish: the fish script parses and, loaded in a real fish,
// completes as the bash one does (fish's own complete -C).
func TestCompletionFish(t *testing.T) {
	t.Parallel()
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("fish is not installed: the fish script is not checked here")
	}
	script := completionScript(t, "fish")
	shellOutput(t, exec.Command(fish, "--no-execute", script))
	offers(t, "fish", completionCases, func(words []string) []string {
		line := "claude-memory-layer " + strings.Join(words, " ")
		var got []string // a completion, a tab, its description
		for _, l := range strings.Split(shellOutput(t, exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, script, line)), "\n") {
			got = append(got, strings.SplitN(l, "\t", 2)[0])
		}
		return got
	})
}

// TestCompletionZsh: the zsh script parses, and in a real zsh, with
// _describe and _arguments (the completion system's, which need a
// terminal) replaced by ones that print what they are given, it hands the
// right commands, flags and values to them; sourced, it registers itself.
func TestCompletionZsh(t *testing.T) {
	t.Parallel()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh is not installed: the zsh script is not checked here")
	}
	script := completionScript(t, "zsh")
	shellOutput(t, exec.Command(zsh, "-n", script))
	const stubs = `compdef() { print -r -- compdef "$@" }
_describe() { print -rl -- ${(P)${@[-1]}} }
_arguments() { print -rl -- "$@" }
`
	if out := shellOutput(t, exec.Command(zsh, "-f", "-c", stubs+`source $1`, "zsh", script)); !strings.Contains(out, "compdef _claude-memory-layer claude-memory-layer") {
		t.Errorf("sourcing the zsh script does not register it: %s", out)
	}
	offers(t, "zsh", completionCases, func(words []string) []string {
		cmd := exec.Command(zsh, "-f", "-c", stubs+`source $1 && shift && words=("$@") && CURRENT=$# && _claude-memory-layer`, "zsh", script, "claude-memory-layer")
		cmd.Args = append(cmd.Args, words...)
		// A command is "name:summary"; a flag "--name=[usage]:name:(values)".
		var got []string
		for _, l := range strings.Split(shellOutput(t, cmd), "\n") {
			l = strings.TrimLeft(l, "*")
			got = append(got, strings.FieldsFunc(l, func(r rune) bool { return strings.ContainsRune(":=[( )", r) })...)
		}
		return got
	})
}

// TestCompletionFlagsFromCommands: completion learns each command's flags
// by running it with --help, so every command must answer --help with a
// flag set and touch nothing: not the data directory, not stdout.
func TestCompletionFlagsFromCommands(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	out := c.ok("completion", "bash")
	for name := range commands() {
		if !strings.Contains(out, "'"+name+"')") {
			t.Errorf("the bash script has no case for %s", name)
		}
	}
	if left, _ := os.ReadDir(c.dir); len(left) != 0 {
		t.Errorf("running the commands with --help left %v in the data directory", left)
	}
	if _, errs, code := c.run("completion", "tcsh"); code != exitUsage || !strings.Contains(errs, "bash, zsh, fish") {
		t.Errorf("completion tcsh: exit %d %q", code, errs)
	}
}
