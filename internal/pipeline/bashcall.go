package pipeline

import (
	"path"
	"strings"
)

// bashCall is what remember needs to know of a Bash command line: whether
// its output is what it read from the world, which files it read and
// wrote. The command is read as the observation keeps it, one line (its
// newlines are spaces), without expanding anything.
type bashCall struct {
	// reads: every command of the line is one that only reads (readOnly),
	// and nothing on the line runs or feeds it words the model chose (a
	// substitution, a heredoc, a decoder or an interpreter named anywhere).
	reads bool
	// tree: a command lists or searches a directory (ls, grep -r, rg, find,
	// git diff...), so it may print a file the model wrote without naming it.
	tree  bool
	files []string // files named as arguments of a reading command
	// writes are the paths written (>, >>, tee, -o, cp and mv targets,
	// sed -i, dd of=, touch); "*" for a path that is not literal ($F, *.md).
	writes []string
}

// readOnly are the programs whose output is what they read: files, the
// tree, git history. None can print a word given on its command line
// (grep prints matching lines of its input, not its pattern).
var readOnly = map[string]bool{"cat": true, "head": true, "tail": true, "less": true, "more": true,
	"wc": true, "nl": true, "stat": true, "file": true, "ls": true, "tree": true, "du": true, "df": true,
	"pwd": true, "cd": true, "diff": true, "cmp": true, "sort": true, "uniq": true, "cut": true,
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "find": true, "git": true}

// readOnlyGit are the git subcommands that only read.
var readOnlyGit = map[string]bool{"log": true, "show": true, "diff": true, "status": true, "blame": true,
	"ls-files": true, "grep": true, "rev-parse": true}

// printsWords are programs that print, decode or compute text given to
// them: named anywhere on the line (the observation folds the newlines that
// separated commands into spaces), the output is not the world's.
var printsWords = map[string]bool{"echo": true, "printf": true, "yes": true, "rev": true, "tr": true,
	"base64": true, "base32": true, "basenc": true, "xxd": true, "od": true, "uudecode": true, "openssl": true,
	"gzip": true, "gunzip": true, "zcat": true, "bzip2": true, "xz": true, "iconv": true,
	"sed": true, "awk": true, "gawk": true, "perl": true, "python": true, "python3": true, "ruby": true,
	"node": true, "deno": true, "bun": true, "php": true, "lua": true, "jq": true, "sh": true, "bash": true,
	"zsh": true, "dash": true, "eval": true, "exec": true, "source": true, "xargs": true, "env": true}

// findActs are find's actions that run or write something.
var findActs = map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true, "-delete": true,
	"-fprint": true, "-fprint0": true, "-fprintf": true, "-fls": true}

// parseBash reads a command line.
func parseBash(line string) bashCall {
	toks, unsafe := lexShell(line)
	c := bashCall{reads: !unsafe}
	var words []string
	end := func() {
		c.command(words)
		words = nil
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.op {
			words = append(words, t.text)
			continue
		}
		switch t.text {
		case ">", ">>", ">|", "&>", "&>>":
			if i+1 < len(toks) && !toks[i+1].op {
				i++
				c.wrote(toks[i].text)
			}
		case "<":
			if i+1 < len(toks) && !toks[i+1].op {
				i++
				c.files = append(c.files, toks[i].text)
			}
		case "<<", "<<<", "<<-", "<>":
			c.reads = false // a heredoc or here-string: the model's words as input
		case "dup": // 2>&1: no file
		default: // | || && ; & ( ) end a command
			end()
		}
	}
	end()
	return c
}

// Programs returns the base name of the program each simple command of a
// command line runs, looking past wrappers (sudo, env, nohup, timeout 5...):
// "cd /src/claude-memory-layer && make" runs cd and make.
func Programs(line string) []string {
	toks, _ := lexShell(line)
	var out []string
	start := true
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.op && strings.ContainsAny(t.text, "<>"):
			if t.text != "dup" && i+1 < len(toks) && !toks[i+1].op {
				i++ // the redirection's file
			}
		case t.op:
			start = true
		case !start:
		case strings.HasPrefix(t.text, "-") || strings.Contains(t.text, "=") || isDigits(strings.TrimRight(t.text, "smhd")):
			// an option, an assignment or a duration of a wrapper
		default:
			prog := path.Base(t.text)
			out = append(out, prog)
			start = wrappers[prog]
		}
	}
	return out
}

// wrappers run the command that follows them.
var wrappers = map[string]bool{"sudo": true, "env": true, "nohup": true, "time": true, "command": true, "exec": true,
	"xargs": true, "nice": true, "timeout": true, "stdbuf": true}

// command adds one simple command's words to c.
func (c *bashCall) command(words []string) {
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		words = words[1:] // FOO=bar cmd
	}
	if len(words) == 0 {
		return
	}
	prog := path.Base(words[0])
	args := words[1:]
	for _, w := range words {
		if printsWords[path.Base(w)] {
			c.reads = false
		}
	}
	var plain []string // arguments that are not options
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o" || a == "-O" || a == "--output":
			if i+1 < len(args) {
				i++
				c.wrote(args[i])
			}
		case strings.HasPrefix(a, "--output="):
			c.wrote(strings.TrimPrefix(a, "--output="))
		case strings.HasPrefix(a, "of=") && prog == "dd":
			c.wrote(strings.TrimPrefix(a, "of="))
		case strings.HasPrefix(a, "-"):
		default:
			plain = append(plain, a)
		}
	}
	switch prog {
	case "tee", "touch", "mkdir":
		for _, a := range plain {
			c.wrote(a)
		}
	case "cp", "mv", "install", "ln", "rsync", "scp":
		if len(plain) > 0 {
			c.wrote(plain[len(plain)-1])
		}
	case "sed", "perl":
		for _, a := range args {
			if strings.HasPrefix(a, "-i") {
				for _, p := range plain {
					c.wrote(p)
				}
				break
			}
		}
	}
	if !readOnly[prog] {
		c.reads = false
		return
	}
	switch prog {
	case "git":
		sub := gitSubcommand(args)
		if !readOnlyGit[sub] {
			c.reads = false
		}
		c.tree = true // history and the working tree the model may have changed
	case "find":
		for _, a := range args {
			if findActs[a] {
				c.reads = false
			}
		}
		c.tree = true
	case "ls", "tree", "rg", "du":
		c.tree = true
	case "grep", "egrep", "fgrep":
		pattern := true
		for _, a := range args {
			if a == "-e" || a == "-f" || strings.HasPrefix(a, "--regexp") || strings.HasPrefix(a, "--file") {
				pattern = false
			}
			if a == "--recursive" || a == "--dereference-recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR") {
				c.tree = true
			}
		}
		if pattern && len(plain) > 0 {
			plain = plain[1:]
		}
		c.files = append(c.files, plain...)
	case "cd", "pwd", "df":
	default:
		c.files = append(c.files, plain...)
	}
}

// wrote records p as written; a path that is not literal may be any.
func (c *bashCall) wrote(p string) {
	if p == "/dev/null" || p == "/dev/stdout" || p == "/dev/stderr" {
		return
	}
	if strings.ContainsAny(p, "$`*?[{~") {
		p = "*"
	}
	c.writes = append(c.writes, p)
}

// gitSubcommand is the first word of args that is not an option of git
// itself (-C dir and -c key=value take one).
func gitSubcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

type shellTok struct {
	text string
	op   bool
}

// lexShell splits a command line into words and operators as a shell
// would, without expanding anything; unsafe reports a command or process
// substitution ($(...), `...`, <(...), >(...)), which runs what the model
// wrote.
func lexShell(s string) (toks []shellTok, unsafe bool) {
	var b strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			toks = append(toks, shellTok{text: b.String()})
			b.Reset()
			inWord = false
		}
	}
	const (
		plain = iota
		single
		double
	)
	state := plain
	for i := 0; i < len(s); i++ {
		r := s[i]
		switch state {
		case single:
			if r == '\'' {
				state = plain
			} else {
				b.WriteByte(r)
			}
			continue
		case double:
			switch {
			case r == '"':
				state = plain
			case r == '`' || r == '$' && i+1 < len(s) && s[i+1] == '(':
				unsafe = true
				b.WriteByte(r)
			case r == '\\' && i+1 < len(s):
				i++
				b.WriteByte(s[i])
			default:
				b.WriteByte(r)
			}
			continue
		}
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			flush()
		case r == '\'':
			state, inWord = single, true
		case r == '"':
			state, inWord = double, true
		case r == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			inWord = true
		case r == '`' || r == '$' && i+1 < len(s) && s[i+1] == '(':
			unsafe = true
			b.WriteByte(r)
			inWord = true
		case strings.IndexByte("|&;<>()", r) >= 0:
			if (r == '<' || r == '>') && i+1 < len(s) && s[i+1] == '(' {
				unsafe = true
			}
			if inWord && isDigits(b.String()) && (r == '<' || r == '>') {
				b.Reset() // a file descriptor: 2>
				inWord = false
			}
			flush()
			op := string(r)
			for _, o := range shellOps {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			i += len(op) - 1
			if op == ">&" || op == "<&" {
				if i+1 < len(s) && (isDigits(s[i+1:i+2]) || s[i+1] == '-') {
					i++ // >&2, <&-: another descriptor, no file
					op = "dup"
				} else {
					op = "&>"
				}
			}
			toks = append(toks, shellTok{text: op, op: true})
		default:
			b.WriteByte(r)
			inWord = true
		}
	}
	flush()
	return toks, unsafe
}

// shellOps are the operators lexShell knows, longest first.
var shellOps = []string{"&>>", "<<<", "<<-", "&&", "||", ">>", ">|", "&>", "<<", "<>", ">&", "<&", "|&", ";;",
	"|", "&", ";", "<", ">", "(", ")"}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// sameFile reports whether two paths as tools name them (absolute, or
// relative to a working directory this does not know) may be one file: the
// same once cleaned, or one ending with the other; "*" is any.
func sameFile(a, b string) bool {
	if a == "*" || b == "*" {
		return true
	}
	a, b = path.Clean(a), path.Clean(b)
	return a == b || strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a)
}
