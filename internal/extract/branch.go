package extract

import "strings"

// The git branch a session created for its work is a fact of the project
// a developer asks for later ("which branch is the checkout rework on?"). It is
// read from git's own confirmation in a run's output ("Switched to a new
// branch 'x'"), not from what the assistant said it would do, and kept only
// when it survived the session: a branch merged or deleted later in the
// same session, or one of several the session created (one per agent, per
// ticket), is not where the work lives.

const newBranch = "Switched to a new branch '"

// branches adds a fact for the one branch the session created and kept.
func (x *extractor) branches() {
	found, at, off := "", -1, 0
	for i, m := range x.msgs {
		if strings.ToLower(m.Role) != "tool" || !strings.HasPrefix(m.Text, "Bash: ") {
			continue
		}
		// Git's confirmation is in the output, after the command's line: a
		// command that echoes the phrase confirms nothing. A loop that
		// creates a branch per agent prints it once per branch.
		k := strings.IndexByte(m.Text, '\n')
		for k >= 0 {
			j := strings.Index(m.Text[k:], newBranch)
			if j < 0 {
				break
			}
			k += j
			name, _, ok := strings.Cut(m.Text[k+len(newBranch):], "'")
			if ok && name != "" && !strings.ContainsAny(name, " \n\t") {
				if found != "" && found != name {
					return // several branches: none is where the work lives
				}
				if found != name || at != i {
					found, at, off = name, i, k // the first line of the newest run
				}
			}
			k += len(newBranch)
		}
	}
	if found == "" {
		return
	}
	for _, m := range x.msgs[at+1:] {
		if strings.ToLower(m.Role) != "tool" {
			continue
		}
		if cmd, _ := bashRun(m.Text); endsBranch(cmd, found) {
			return
		}
	}
	quote := newBranch + found + "'"
	c := &cand{typ: Fact, score: 1.5, seq: len(x.cands), from: at, ev: []evi{{at, off, quote}}, subject: "git branch", value: found}
	c.title = "Git branch: " + found
	c.body = "The work of this session is on the git branch `" + found + "`, which it created."
	x.cands = append(x.cands, c)
}

// endsBranch reports a command line that merges or deletes branch name.
func endsBranch(cmd, name string) bool {
	f := strings.Fields(cmd)
	for i := 0; i+2 < len(f); i++ {
		if f[i] != "git" {
			continue
		}
		// "git -C dir merge x" runs the same subcommand elsewhere.
		k := i + 1
		for k+1 < len(f) && f[k] == "-C" {
			k += 2
		}
		if k+1 >= len(f) {
			continue
		}
		sub, rest := f[k], f[k+1:]
		for j, a := range rest {
			a = strings.Trim(a, "'\";&|")
			// "git push origin :x" deletes the remote branch x.
			if sub == "push" && a == ":"+name {
				return true
			}
			if a != name {
				continue
			}
			switch {
			case sub == "merge":
				return true
			case sub == "branch" || sub == "push":
				for _, o := range rest[:j] {
					if o == "-d" || o == "-D" || o == "--delete" {
						return true
					}
				}
			}
		}
	}
	return false
}
