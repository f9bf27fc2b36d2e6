//go:build linux

package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// rssBound is the prompt hook's peak RSS bound (issue 26), in KB.
const rssBound = 20 << 10

// promptRSS fires the prompt hook of binDir for each prompt of promptsFile
// (one a line) as a session in directory cwd, three times, each on a
// fresh copy of the data directory store's database, and prints the peak
// RSS of the calls: median, 90th percentile, the largest with its prompt,
// how many passed rssBound, and how many got context (a prompt that got
// none may have stopped early, and measured little). A real project's
// store, not a seeded one, is the point: what a prompt allocates depends
// on the messages it finds (tool output of a hundred kilobytes, parsed for
// its lines), and the seeded stores' prompts find short ones.
func promptRSS(binDir, tmp, store, promptsFile, cwd string) error {
	if promptsFile == "" || cwd == "" {
		return errors.New("-rss needs -prompts and -cwd")
	}
	prompts, err := readLines(promptsFile)
	if err != nil {
		return err
	}
	if len(prompts) == 0 {
		return fmt.Errorf("%s: no prompts", promptsFile)
	}
	base, err := upgradedCopy(binDir, tmp, store)
	if err != nil {
		return err
	}
	wrap, err := buildRSSWrapper(tmp)
	if err != nil {
		return err
	}
	type call struct {
		kb     int64
		prompt string
	}
	var calls []call
	answered := 0
	for i, p := range prompts {
		in, err := json.Marshal(map[string]string{"session_id": fmt.Sprintf("rss-%d", i), "prompt_id": fmt.Sprintf("p%d", i),
			"cwd": cwd, "transcript_path": "/nonexistent.jsonl", "hook_event_name": "UserPromptSubmit", "prompt": p})
		if err != nil {
			return err
		}
		c, got := call{prompt: p}, false
		for range 3 {
			d, err := os.MkdirTemp(tmp, "rss-")
			if err != nil {
				return err
			}
			if out, err := exec.Command("cp", "-a", "--reflink=auto", base+"/.", d).CombinedOutput(); err != nil {
				return fmt.Errorf("copy store: %v: %s", err, out)
			}
			kb, out, err := rssRun(wrap, filepath.Join(binDir, "user-prompt-submit"), append(os.Environ(), "CLAUDE_MEMORY_DIR="+d), in)
			os.RemoveAll(d)
			if err != nil {
				return err
			}
			c.kb = max(c.kb, kb)
			got = got || bytes.Contains(out, []byte("additionalContext"))
		}
		calls = append(calls, c)
		if got {
			answered++
		}
	}
	slices.SortFunc(calls, func(a, b call) int { return cmp.Compare(a.kb, b.kb) })
	over := 0
	for _, c := range calls {
		if c.kb > rssBound {
			over++
		}
	}
	mb := func(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)/1024) }
	n, top := len(calls), calls[len(calls)-1]
	fmt.Printf("Prompt hook peak RSS over %d prompts on copies of %s (each the largest of 3 runs; %d got context): median %s, p90 %s, max %s (%q); over %s: %d\n",
		n, store, answered, mb(calls[n/2].kb), mb(calls[(n-1)*9/10].kb), mb(top.kb), top.prompt, mb(rssBound), over)
	return nil
}

// upgradedCopy copies the database and configuration of the data
// directory store (not its logs and backups) into a directory of tmp and
// upgrades it with binDir's build, as compare does: a prompt hook finding
// a store of an older schema starts an upgrade and recalls nothing, and a
// user's store is usually a release older than the build measured.
func upgradedCopy(binDir, tmp, store string) (string, error) {
	if _, err := os.Stat(filepath.Join(store, "memory.db")); err != nil {
		return "", fmt.Errorf("-rss: no store: %w", err)
	}
	base := filepath.Join(tmp, "rss-base")
	if err := os.Mkdir(base, 0o700); err != nil {
		return "", err
	}
	files, _ := filepath.Glob(filepath.Join(store, "memory.db*"))
	for _, f := range append(files, filepath.Join(store, "config.json")) {
		if _, err := os.Stat(f); err != nil {
			continue
		}
		if out, err := exec.Command("cp", "-a", "--reflink=auto", f, base).CombinedOutput(); err != nil {
			return "", fmt.Errorf("copy store: %v: %s", err, out)
		}
	}
	if err := upgrade(binDir, base); err != nil {
		return "", fmt.Errorf("upgrade the copy: %w", err)
	}
	return base, nil
}

// readLines is the non-blank lines of file.
func readLines(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}
