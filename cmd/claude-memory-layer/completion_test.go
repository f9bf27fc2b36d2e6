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

// completionCases are command lines as the shell splits them, the last
// word the one being completed, and a word the completion must offer.
var completionCases = []struct {
	words []string
	want  string
}{
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
	complete := func(words ...string) []string {
		t.Helper()
		// As bash calls a completion function: COMP_WORDS split as it
		// splits them ("=" is a word of its own), COMP_CWORD the last.
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c",
			`source "$1" && shift && COMP_WORDS=("$@") && COMP_CWORD=$(($# - 1)) && _claude_memory_layer && printf '%s\n' "${COMPREPLY[@]}"`,
			"bash", script, "claude-memory-layer")
		cmd.Args = append(cmd.Args, words...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash completing %q: %v\n%s", words, err, out)
		}
		return strings.Fields(string(out))
	}
	cases := append(slices.Clone(completionCases), []struct {
		words []string
		want  string
	}{
		{[]string{"entries", "--type", "=", "pre"}, "preference"},
		{[]string{"entries", "--status", "="}, "contested"},
		{[]string{"install", "--mode", ""}, "settings"},
		{[]string{""}, "--version"},
	}...)
	for _, tt := range cases {
		if got := complete(tt.words...); !slices.Contains(got, tt.want) {
			t.Errorf("bash completes %q to %q, want %q among them", tt.words, got, tt.want)
		}
	}
	if got := complete("entries", "--type", "de"); len(got) != 1 {
		t.Errorf("entries --type de: %q, want decision alone", got)
	}
	if got := complete("search", "--limit", ""); len(got) != 0 {
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
	if out, err := exec.Command(fish, "--no-execute", script).CombinedOutput(); err != nil {
		t.Fatalf("the fish script does not parse: %v\n%s", err, out)
	}
	for _, tt := range completionCases {
		line := "claude-memory-layer " + strings.Join(tt.words, " ")
		out, err := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, script, line).CombinedOutput()
		if err != nil {
			t.Fatalf("fish completing %q: %v\n%s", line, err, out)
		}
		var got []string
		for _, l := range strings.Split(string(out), "\n") {
			got = append(got, strings.SplitN(l, "\t", 2)[0])
		}
		if !slices.Contains(got, tt.want) {
			t.Errorf("fish completes %q to %q, want %q among them", line, got, tt.want)
		}
	}
}

// TestCompletionZsh: the zsh script parses, and in a real zsh, with
// _describe and _arguments (the completion system's, which need a
// terminal) replaced by ones that print what they are given, it hands the
// right commands, flags and values to them.
func TestCompletionZsh(t *testing.T) {
	t.Parallel()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh is not installed: the zsh script is not checked here")
	}
	script := completionScript(t, "zsh")
	if out, err := exec.Command(zsh, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("the zsh script does not parse: %v\n%s", err, out)
	}
	for _, tt := range completionCases {
		words := append([]string{"claude-memory-layer"}, tt.words...)
		cmd := exec.Command(zsh, "-f", "-c", `compdef() { print -r -- compdef "$@" }
_describe() { print -rl -- ${(P)${@[-1]}} }
_arguments() { print -rl -- "$@" }
source $1 && shift && words=("$@") && CURRENT=$# && _claude-memory-layer`, "zsh", script)
		cmd.Args = append(cmd.Args, words...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("zsh completing %q: %v\n%s", words, err, out)
		}
		// A command is "name:summary"; a flag "--name=[usage]:name:(values)".
		var got []string
		for _, l := range strings.Split(string(out), "\n") {
			l = strings.TrimLeft(l, "*")
			got = append(got, strings.FieldsFunc(l, func(r rune) bool { return strings.ContainsRune(":=[( )", r) })...)
		}
		if !slices.Contains(got, tt.want) {
			t.Errorf("zsh offers %q for %q, want %q among them", got, words, tt.want)
		}
		if !strings.Contains(string(out), "compdef _claude-memory-layer claude-memory-layer") {
			t.Errorf("sourcing the zsh script does not register it: %s", out)
		}
	}
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
