//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// rssBound is the prompt hook's peak RSS bound (issue 26), in KB.
const rssBound = 20 << 10

// promptRSS fires the prompt hook of binDir once for each prompt of
// promptsFile (one a line) on its own copy of the data directory store, as
// a session in directory cwd, and prints the peak RSS of the calls: median,
// 90th percentile, the largest with its prompt, and how many passed
// rssBound. A real project's store, not a seeded one, is the point: what a
// prompt allocates depends on the messages it finds (tool output of a
// hundred kilobytes, parsed for its lines), and the seeded stores' prompts
// find short ones.
func promptRSS(binDir, tmp, store, promptsFile, cwd string) error {
	wrap, err := buildRSSWrapper(tmp)
	if err != nil {
		return err
	}
	prompts, err := readLines(promptsFile)
	if err != nil {
		return err
	}
	if len(prompts) == 0 {
		return fmt.Errorf("%s: no prompts", promptsFile)
	}
	type call struct {
		kb     int64
		prompt string
	}
	var calls []call
	for i, p := range prompts {
		d, err := os.MkdirTemp(tmp, "rss-")
		if err != nil {
			return err
		}
		if out, err := exec.Command("cp", "-a", store+"/.", d).CombinedOutput(); err != nil {
			return fmt.Errorf("copy store: %v: %s", err, out)
		}
		in, err := json.Marshal(map[string]string{"session_id": fmt.Sprintf("rss-%d", i), "prompt_id": fmt.Sprintf("p%d", i),
			"cwd": cwd, "transcript_path": "/nonexistent.jsonl", "hook_event_name": "UserPromptSubmit", "prompt": p})
		if err != nil {
			return err
		}
		env := append(os.Environ(), "CLAUDE_MEMORY_DIR="+d)
		kb, err := hookRSS(wrap, filepath.Join(binDir, "user-prompt-submit"), env, in)
		if err != nil {
			return err
		}
		calls = append(calls, call{kb, p})
		os.RemoveAll(d)
	}
	slices.SortFunc(calls, func(a, b call) int { return int(a.kb - b.kb) })
	over := 0
	for _, c := range calls {
		if c.kb > rssBound {
			over++
		}
	}
	mb := func(kb int64) string { return fmt.Sprintf("%.1f MB", float64(kb)/1024) }
	top := calls[len(calls)-1]
	fmt.Printf("Prompt hook peak RSS over %d prompts on copies of %s (each the largest of 3 runs): median %s, p90 %s, max %s (%q); over %s: %d\n",
		len(calls), store, mb(calls[len(calls)/2].kb), mb(calls[len(calls)*9/10].kb), mb(top.kb), top.prompt, mb(rssBound), over)
	return nil
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
