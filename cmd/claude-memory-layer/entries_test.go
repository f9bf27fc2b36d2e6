package main

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

func TestParseEntries(t *testing.T) {
	t.Parallel()
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	o, err := parseEntries(e, []string{"--stage", "verified", "--stage", "certified", "--status", "active", "--type", "decision", "--all-projects", "--limit", "5", "--json"})
	if err != nil {
		t.Fatal(err)
	}
	want := entriesOptions{stages: []string{"verified", "certified"}, statuses: []string{"active"}, types: []string{"decision"}, allProjects: true, limit: 5, json: true}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("parseEntries = %+v, want %+v", o, want)
	}
	checkUsage(t, []usageCase{
		{"defaults", []string{"entries", "--all-projects"}, exitOK},
		{"bad stage", []string{"entries", "--stage", "approved"}, exitUsage},
		{"bad status", []string{"entries", "--status", "gone"}, exitUsage},
		{"zero limit", []string{"entries", "--limit", "0"}, exitUsage},
		{"both scopes", []string{"entries", "--project", "/x", "--all-projects"}, exitUsage},
		{"stray argument", []string{"entries", "decision"}, exitUsage},
		{"verify without id", []string{"verify"}, exitUsage},
		{"verify bad id", []string{"verify", "ab12"}, exitError},
		{"verify not hex", []string{"verify", "xyz123"}, exitUsage},
		{"reject two ids", []string{"reject", "mem:ab12cd", "mem:cd34ef"}, exitUsage},
		{"verify unknown", []string{"verify", "mem:ab12cd"}, exitError},
	})
}

func TestEntries(t *testing.T) {
	t.Parallel()
	c, _ := seeded(t)
	checkGolden(t, "entries", "basic.txt", c.normalize(c.ok("entries", "--project", basicProject)))
	checkGolden(t, "entries", "decisions.json", c.normalize(c.ok("entries", "--project", basicProject, "--type", "decision", "--json")))
	if got := c.ok("entries", "--project", basicProject, "--stage", "rejected"); got != "no entries\n" {
		t.Errorf("no rejected entries: %q", got)
	}
}

// TestEntriesJSONShape checks the field names DESIGN.md fixes for entries --json.
func TestEntriesJSONShape(t *testing.T) {
	t.Parallel()
	c, _ := seeded(t)
	var got struct {
		Entries []map[string]json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal([]byte(c.ok("entries", "--all-projects", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) == 0 {
		t.Fatal("no entries")
	}
	want := "body,created,evidence,form,id,project,questions,session_id,stage,status,title,type" // DESIGN.md's fields plus form and questions (fields may be added)
	wantEv := "confidence,failure,method,quote,source_uuid,span_end,span_start"
	for _, e := range got.Entries {
		if k := keysOf(e); k != want {
			t.Fatalf("entry fields %s, want %s", k, want)
		}
		var evs []map[string]json.RawMessage
		if err := json.Unmarshal(e["evidence"], &evs); err != nil || len(evs) == 0 {
			t.Fatalf("evidence %s: %v", e["evidence"], err)
		}
		for _, v := range evs {
			if k := keysOf(v); k != wantEv {
				t.Fatalf("evidence fields %s, want %s", k, wantEv)
			}
		}
		if !strings.HasPrefix(string(e["id"]), `"mem:`) {
			t.Errorf("id %s", e["id"])
		}
	}
}

func keysOf(m map[string]json.RawMessage) string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return strings.Join(k, ",")
}

func TestVerifyReject(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	ctx := context.Background()
	cid := cidOf(t, db, "Keep /health open")
	if out := c.ok("verify", cid); !strings.Contains(out, cid+" certified (was verified)") {
		t.Errorf("verify: %q", out)
	}
	if out := c.ok("verify", cid); !strings.Contains(out, "already certified") {
		t.Errorf("verify again: %q", out)
	}
	if out := c.ok("reject", cid); !strings.Contains(out, "rejected (was certified)") {
		t.Errorf("reject: %q", out)
	}
	c.ok("reject", cid)
	e, err := db.EntryByCID(ctx, cid)
	if err != nil || e.Stage != store.StageRejected {
		t.Fatalf("stage %q, %v", e.Stage, err)
	}
	evs, _ := db.EntryEvents(ctx, e)
	var types []string
	for _, ev := range evs {
		if ev.Type == store.TypeCertified || ev.Type == store.TypeRejected {
			types = append(types, ev.Type)
		}
	}
	if got := strings.Join(types, ","); got != "entry_certified,entry_rejected" {
		t.Errorf("stage events %s, want one certification and one rejection", got)
	}
	_, errs, code := c.run("reject", "mem:abcdef")
	if code != exitError || !strings.Contains(errs, "no memory mem:abcdef") {
		t.Errorf("reject unknown: exit %d %q", code, errs)
	}
}

// TestUnknownTypeRefused: an unknown --type (a typo, a memory type given to
// history) used to select nothing and exit 0, as if there were no such
// events or memories; it is a usage error naming the types there are.
func TestUnknownTypeRefused(t *testing.T) {
	t.Parallel()
	c, _ := seeded(t)
	for _, args := range [][]string{{"history", "--type", "user_promt"}, {"entries", "--type", "decisions"}, {"history", "--type", "decision"}} {
		if _, errs, code := c.run(args...); code != exitUsage || !strings.Contains(errs, "want ") {
			t.Errorf("%v: exit %d, %q; want a usage error listing the types", args, code, errs)
		}
	}
	if out := c.ok("history", "--type", "user_prompt", "--all-projects"); !strings.Contains(out, "user_prompt") {
		t.Errorf("history --type user_prompt:\n%s", out)
	}
	if out := c.ok("entries", "--type", "decision", "--all-projects"); !strings.Contains(out, "decision") {
		t.Errorf("entries --type decision:\n%s", out)
	}
	// --version is the version command, as users try first.
	if out := c.ok("--version"); !strings.Contains(out, "claude-memory-layer ") || !strings.Contains(out, "schema") {
		t.Errorf("--version: %q", out)
	}
}

// TestUnknownCommandSuggests: a mistyped command names the one meant.
func TestUnknownCommandSuggests(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for typed, want := range map[string]string{"serach": "search", "histroy": "history", "conflict": "conflicts", "doc": "doctor"} {
		if _, errs, code := c.run(typed); code != exitUsage || !strings.Contains(errs, `did you mean "`+want+`"?`) {
			t.Errorf("%s: exit %d, %q; want a suggestion of %s", typed, code, errs, want)
		}
	}
	if _, errs, _ := c.run("zzzzzzzz"); strings.Contains(errs, "did you mean") {
		t.Errorf("a suggestion for nothing like a command: %q", errs)
	}
}

// TestUnknownFlagSuggests: a mistyped flag, or team subcommand, names the
// one meant, as a mistyped command does; before, pflag's "unknown flag:
// --limt" and team's "unknown team subcommand" said nothing more.
func TestUnknownFlagSuggests(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"entries", "--limt", "5"}, `did you mean --limit?`},
		{[]string{"search", "x", "--all-project"}, `did you mean --all-projects?`},
		{[]string{"history", "--type=user_prompt", "--sesion", "ab"}, `did you mean --session?`},
		{[]string{"team", "jion"}, `did you mean "join"?`},
	} {
		if _, errs, code := c.run(tt.args...); code != exitUsage || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, %q; want %s", tt.args, code, errs, tt.want)
		}
	}
	if _, errs, code := c.run("entries", "--zzzzzzzz"); code != exitUsage || strings.Contains(errs, "did you mean") {
		t.Errorf("a suggestion for nothing like a flag: exit %d %q", code, errs)
	}
}
