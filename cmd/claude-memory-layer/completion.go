package main

// Shell completion is generated from the commands themselves: the command
// table names them, and each command's own flag set (made by newFlags, with
// the values of a closed flag recorded by choices) names its flags, so a
// command or flag added anywhere is completed without a second list to keep.
// A CLI framework with completion (cobra) would mean rewriting every
// command around its types; the one that works on plain pflag sets
// (posener/complete) has not been kept up for years.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/pflag"
)

// completionShells are the shells completion writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

// choicesKey is the flag annotation that lists the values a flag takes.
const choicesKey = "claude-memory-layer/choices"

// choices records the values flag name takes, for shell completion; the
// command still checks them (oneOf, from the same list).
func choices(fs *pflag.FlagSet, name string, values []string) {
	if err := fs.SetAnnotation(name, choicesKey, values); err != nil {
		panic(err) // a flag that does not exist: a programming error
	}
}

// argWords are the fixed words some commands take as arguments; flag sets
// say nothing of arguments.
var argWords = map[string][]string{
	"completion": completionShells,
	"injection":  {"off", "on"},
}

// compCommand is what completion knows of one command or team subcommand.
type compCommand struct {
	name, summary string
	flags         []compFlag
	words         []string      // fixed arguments
	subs          []compCommand // subcommands (team's)
}

// compFlag is one flag of a command.
type compFlag struct {
	name, usage string
	value       bool // takes a value
	repeat      bool // may be given more than once
	choices     []string
}

func runCompletion(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "completion", "bash|zsh|fish\n\nLoad it in bash with: source <(claude-memory-layer completion bash)\n"+
		"zsh (after compinit): source <(claude-memory-layer completion zsh)\n"+
		"fish: claude-memory-layer completion fish | source")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want one shell: %s", strings.Join(completionShells, ", "))
	}
	cmds, err := completionCommands(ctx, e)
	if err != nil {
		return err
	}
	switch fs.Arg(0) {
	case "bash":
		return bashCompletion(e.stdout, cmds)
	case "zsh":
		return zshCompletion(e.stdout, cmds)
	case "fish":
		return fishCompletion(e.stdout, cmds)
	}
	return usagef("no completion for %q; want %s", fs.Arg(0), strings.Join(completionShells, ", "))
}

// completionCommands lists the commands with their flags, in name order.
// Each command is run with --help, which every command answers before it
// acts, and gives up the flag sets it made.
func completionCommands(ctx context.Context, e *env) ([]compCommand, error) {
	table := commands()
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []compCommand
	for _, n := range names {
		c := compCommand{name: n, summary: table[n].summary, words: argWords[n]}
		if n == "team" {
			subs := teamCommands()
			for _, s := range sortedKeys(subs) {
				f, err := commandFlags(ctx, e, "team "+s, subs[s])
				if err != nil {
					return nil, err
				}
				c.subs = append(c.subs, compCommand{name: s, flags: f})
				c.words = append(c.words, s)
			}
			c.flags = []compFlag{helpFlag}
		} else {
			f, err := commandFlags(ctx, e, n, table[n].run)
			if err != nil {
				return nil, err
			}
			c.flags = f
		}
		out = append(out, c)
	}
	return out, nil
}

var helpFlag = compFlag{name: "help", usage: "show the command's flags"}

// commandFlags runs a command with --help on an env that only records the
// flag sets it makes, and returns their flags (and --help), in name order.
func commandFlags(ctx context.Context, e *env, name string, run func(context.Context, *env, []string) error) ([]compFlag, error) {
	var sets []*pflag.FlagSet
	ce := *e
	ce.stdin, ce.stdout, ce.stderr = strings.NewReader(""), io.Discard, io.Discard
	ce.onFlags = func(fs *pflag.FlagSet) { sets = append(sets, fs) }
	if err := run(ctx, &ce, []string{"--help"}); err != nil && !errors.Is(err, pflag.ErrHelp) {
		return nil, fmt.Errorf("%s --help: %w", name, err)
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("%s --help made no flag set", name)
	}
	flags := []compFlag{helpFlag}
	for _, fs := range sets {
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Deprecated != "" {
				return
			}
			typ := f.Value.Type()
			flags = append(flags, compFlag{name: f.Name, usage: f.Usage, value: f.NoOptDefVal == "",
				repeat: strings.HasSuffix(typ, "Slice") || strings.HasSuffix(typ, "Array"), choices: f.Annotations[choicesKey]})
		})
	}
	sort.Slice(flags, func(i, j int) bool { return flags[i].name < flags[j].name })
	return flags, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// bashCompletion writes the bash script: a function that finds the command
// (and team subcommand) among the words typed, then offers its flags, a
// closed flag's values, or its fixed arguments; anything else (a flag's
// open value, a path) falls back to bash's default, file names.
func bashCompletion(w io.Writer, cmds []compCommand) error {
	var b strings.Builder
	b.WriteString(`# bash completion for claude-memory-layer, generated from its commands by
# 'claude-memory-layer completion bash'. Load it with:
#   source <(claude-memory-layer completion bash)
_claude_memory_layer() {
	COMPREPLY=()
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}
	# --flag=value: bash splits the word at "=".
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		prev=${COMP_WORDS[COMP_CWORD-2]}
	fi
	local cmd= i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-* | =) continue ;;
		esac
		if [[ -z $cmd ]]; then
			cmd=${COMP_WORDS[i]}
			case $cmd in
`)
	var withSubs []string
	for _, c := range cmds {
		if len(c.subs) > 0 {
			withSubs = append(withSubs, c.name)
		}
	}
	if len(withSubs) > 0 {
		fmt.Fprintf(&b, "\t\t\t%s) ;;\n", strings.Join(withSubs, " | "))
	}
	b.WriteString(`			*) break ;;
			esac
		else
			cmd+=" ${COMP_WORDS[i]}"
			break
		fi
	done
	local words=
	case $cmd in
	"")
`)
	top := []string{"--help", "--version"}
	for _, c := range cmds {
		top = append(top, c.name)
	}
	fmt.Fprintf(&b, "\t\twords=%s ;;\n", shQuote(strings.Join(top, " ")))
	var bashCase func(prefix string, c compCommand)
	bashCase = func(prefix string, c compCommand) {
		name := strings.TrimSpace(prefix + " " + c.name)
		fmt.Fprintf(&b, "\t%s)\n\t\tcase $prev in\n", shQuote(name))
		var open, all []string
		for _, f := range c.flags {
			all = append(all, "--"+f.name)
			switch {
			case len(f.choices) > 0:
				fmt.Fprintf(&b, "\t\t--%s) words=%s ;;\n", f.name, shQuote(strings.Join(f.choices, " ")))
			case f.value:
				open = append(open, "--"+f.name)
			}
		}
		if len(open) > 0 {
			fmt.Fprintf(&b, "\t\t%s) return ;; # an open value: bash's default\n", strings.Join(open, " | "))
		}
		fmt.Fprintf(&b, "\t\t*) words=%s ;;\n\t\tesac ;;\n", shQuote(strings.Join(append(all, c.words...), " ")))
		for _, s := range c.subs {
			bashCase(name, s)
		}
	}
	for _, c := range cmds {
		bashCase("", c)
	}
	b.WriteString(`	esac
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _claude_memory_layer claude-memory-layer
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// zshCompletion writes the zsh script: _describe for the commands and
// _arguments for each command's flags, values and arguments.
func zshCompletion(w io.Writer, cmds []compCommand) error {
	var b strings.Builder
	b.WriteString(`#compdef claude-memory-layer
# zsh completion for claude-memory-layer, generated from its commands by
# 'claude-memory-layer completion zsh'. Load it after compinit with
#   source <(claude-memory-layer completion zsh)
# or save it as _claude-memory-layer in a directory on $fpath.
_claude-memory-layer() {
	local -a cmds
	cmds=(
`)
	for _, c := range cmds {
		fmt.Fprintf(&b, "\t\t%s\n", shQuote(c.name+":"+strings.ReplaceAll(c.summary, ":", `\:`)))
	}
	b.WriteString(`	)
	if ((CURRENT == 2)); then
		_describe -t commands command cmds
		return
	fi
	local cmd=$words[2]
	shift words
	((CURRENT--))
	case $cmd in
`)
	for _, c := range cmds {
		if len(c.subs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\t%s)\n\t\tif ((CURRENT == 2)); then\n\t\t\tlocal -a subs\n\t\t\tsubs=(%s)\n", shQuote(c.name), shWords(c.words))
		fmt.Fprintf(&b, "\t\t\t_describe -t commands %s subs\n\t\t\treturn\n\t\tfi\n", shQuote(c.name+" command"))
		b.WriteString("\t\tcmd+=\" $words[2]\"\n\t\tshift words\n\t\t((CURRENT--)) ;;\n")
	}
	b.WriteString("\tesac\n\tcase $cmd in\n")
	var zshCase func(prefix string, c compCommand)
	zshCase = func(prefix string, c compCommand) {
		name := strings.TrimSpace(prefix + " " + c.name)
		fmt.Fprintf(&b, "\t%s)\n\t\t_arguments", shQuote(name))
		for _, f := range c.flags {
			spec := "--" + f.name
			if f.repeat {
				spec = "*" + spec
			}
			if f.name == "help" {
				spec = "(- *)" + spec
			}
			if f.value {
				spec += "="
			}
			spec += "[" + zshEscape(f.usage) + "]"
			switch {
			case len(f.choices) > 0:
				spec += ":" + f.name + ":(" + strings.Join(f.choices, " ") + ")"
			case f.value:
				spec += ":" + f.name + ":_files"
			}
			fmt.Fprintf(&b, " \\\n\t\t\t%s", shQuote(spec))
		}
		if len(c.words) > 0 && len(c.subs) == 0 {
			fmt.Fprintf(&b, " \\\n\t\t\t%s", shQuote("1:argument:("+strings.Join(c.words, " ")+")"))
		} else {
			fmt.Fprintf(&b, " \\\n\t\t\t%s", shQuote("*:argument:_files"))
		}
		b.WriteString(" ;;\n")
		for _, s := range c.subs {
			zshCase(name, s)
		}
	}
	for _, c := range cmds {
		zshCase("", c)
	}
	b.WriteString(`	esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
	_claude-memory-layer "$@"
else
	compdef _claude-memory-layer claude-memory-layer
fi
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// shQuote quotes s as one bash or zsh word.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func shWords(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = shQuote(w)
	}
	return strings.Join(q, " ")
}

// zshEscape escapes what _arguments reads in an option's description.
func zshEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`, "\n", " ").Replace(s)
}

// fishCompletion writes the fish script: one complete line per command,
// flag and fixed argument, each under the condition that its command was
// typed.
func fishCompletion(w io.Writer, cmds []compCommand) error {
	var b strings.Builder
	b.WriteString(`# fish completion for claude-memory-layer, generated from its commands by
# 'claude-memory-layer completion fish'. Load it with
#   claude-memory-layer completion fish | source
# or save it as ~/.config/fish/completions/claude-memory-layer.fish.
set -l prog claude-memory-layer
complete -c $prog -n __fish_use_subcommand -f -l help -d 'show the commands'
complete -c $prog -n __fish_use_subcommand -f -l version -d 'print the version'
`)
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c $prog -n __fish_use_subcommand -f -a %s -d %s\n", fishQuote(c.name), fishQuote(c.summary))
	}
	var fishFlags func(cond string, c compCommand)
	fishFlags = func(cond string, c compCommand) {
		for _, f := range c.flags {
			fmt.Fprintf(&b, "complete -c $prog -n %s -l %s", fishQuote(cond), f.name)
			switch {
			case len(f.choices) > 0:
				fmt.Fprintf(&b, " -x -a %s", fishQuote(strings.Join(f.choices, " ")))
			case f.value:
				b.WriteString(" -r -F")
			}
			fmt.Fprintf(&b, " -d %s\n", fishQuote(f.usage))
		}
		if len(c.words) > 0 {
			wcond := cond
			if len(c.subs) > 0 {
				wcond += "; and not __fish_seen_subcommand_from " + strings.Join(c.words, " ")
			}
			fmt.Fprintf(&b, "complete -c $prog -n %s -f -a %s\n", fishQuote(wcond), fishQuote(strings.Join(c.words, " ")))
		}
		for _, s := range c.subs {
			fishFlags(cond+"; and __fish_seen_subcommand_from "+s.name, s)
		}
	}
	for _, c := range cmds {
		fishFlags("__fish_seen_subcommand_from "+c.name, c)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fishQuote quotes s as one fish word.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`, "\n", " ").Replace(s) + "'"
}
