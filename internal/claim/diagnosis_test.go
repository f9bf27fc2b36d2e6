package claim

import (
	"slices"
	"testing"
)

func TestDiagnoses(t *testing.T) {
	for _, c := range []struct {
		text, cause string
		revised     bool
	}{
		{"The problem is the thumbnail cache being rebuilt on every request, so pages stall.", "the thumbnail cache being rebuilt on every request", false},
		{"Now I see it. The real problem is DNS resolution in the sidecar.", "dns resolution in the sidecar", true},
		{"**Root cause**: the cron job runs twice per hour.", "the cron job runs twice per hour", true},
		{"The actual issue here is: a stale lockfile in the worker image.", "a stale lockfile in the worker image", true},
		{"The underlying cause turned out to be clock skew between the two hosts.", "clock skew between the two hosts", true},
		{"Unbounded retries in the uploader are the real culprit? No: the uploader's unbounded retry loop is the real bottleneck.", "the uploader's unbounded retry loop", true},
		{"**Root Cause:** The \"kiln timeout\" error is caused by **an expired glaze token** in the worker.", "an expired glaze token", true},
		{"The real problem is that the nightly export was caused by a cron typo.", "a cron typo", true},
	} {
		ds := Diagnoses(c.text)
		if len(ds) == 0 || ds[len(ds)-1].Cause != c.cause || ds[len(ds)-1].Revised != c.revised {
			t.Errorf("Diagnoses(%q) = %+v; want cause %q, revised %v", c.text, ds, c.cause, c.revised)
		}
	}
	for _, text := range []string{
		"No problem, I'll rerun it.",
		"This is the real bottleneck.",
		"There is an issue with the build.",
		"The problems are listed below.",
		// An elision inside: the words on its two sides were apart.
		"Our real problem was the … glaze queue, which drains again now.",
	} {
		if ds := Diagnoses(text); len(ds) != 0 {
			t.Errorf("Diagnoses(%q) = %+v; want none", text, ds)
		}
	}
}

// A heading naming causes over a list ("## Root causes of the delay:")
// names its first item's label as the cause: a list of causes corrects
// none before it, a single cause so headed is the real one. A heading that
// names the cause itself keeps it, whatever list follows.
func TestDiagnosesOfAListedCause(t *testing.T) {
	for _, c := range []struct {
		text, cause string
		revised     bool
	}{
		{"I found the issues:\n\n## Root Causes of the 3 Second Stall:\n\n1. **Duplicate `loadTenant()` calls**: the layout and the page each call it\n2. **Sequential queries**: five run one after another", "duplicate loadtenant", false},
		{"## Root cause:\n- **Stale kiln cache key**: the key ignores the glaze id\n- the fix is below", "stale kiln cache key", true},
		{"**The real problem is CLOCK SKEW:**\n- host A: 12:00:03\n- host B: 12:00:41", "clock skew", true},
		{"**Root causes:**\n• **Stale kiln cache key** — the key ignores the glaze id", "stale kiln cache key", false},
		{"The root cause behind the stall:\n* Clock skew between the hosts, by forty seconds", "clock skew between the hosts", true},
	} {
		ds := Diagnoses(c.text)
		if len(ds) != 1 || ds[0].Cause != c.cause || ds[0].Revised != c.revised {
			t.Errorf("Diagnoses(%q) = %+v; want cause %q, revised %v", c.text, ds, c.cause, c.revised)
		}
	}
	for _, text := range []string{
		"## Root Causes of the Stall\n\n1. **Duplicate calls**: the layout calls it", // no colon: a title, not a heading over its causes
		"## Root Causes of the Stall:\nThe layout and the page each call it.",        // no list follows
		"The problems are: duplicate calls and slow queries.",                        // a list in prose
		"## Issues found:\n- **Duplicate calls**: the layout calls it",               // no cause named as such
		"## The real problem with this plan:\n- Step one: migrate the kiln table",    // the noun heads no list of causes
		"The actual reason for the rewrite:\n- Faster builds",                        // a merit
		"The reasons we chose Postgres:\n- JSONB support",                            // merits
		"## The issues I fixed:\n- Renamed the config key",                           // what was done
		"The bug report template:\n1. Steps to reproduce",                            // a form
		"## Root causes:\n**Duplicate calls**: the layout calls it",                  // bold opening a line is no bullet
		"## Root causes:\n1.\nDuplicate calls in the layout",                         // a number alone on its line
		// No short heading:
		"## Root causes of the three second stall that every tenant saw after login on the new cluster:\n- **Duplicate calls**",
	} {
		if ds := Diagnoses(text); len(ds) != 0 {
			t.Errorf("Diagnoses(%q) = %+v; want none", text, ds)
		}
	}
}

// A statement that ends right after its link names no cause: the cause must
// start inside the statement, also when nothing follows it in the text.
func TestDiagnosesWithNothingAfterTheLink(t *testing.T) {
	for _, text := range []string{
		"The root cause turned out to be",
		"The real problem turned out to be",
		"The real problem turned out to be. The logs are clean.",
		"The real problem is",
		"The actual issue was that",
		"Root cause:",
		"The root cause has been identified:",
		"**Root cause**:",
	} {
		for _, d := range Diagnoses(text) {
			t.Errorf("Diagnoses(%q) = %+v; want none", text, d)
		}
	}
}

// A cause asked about, supposed, believed before, denied or only a status
// is no finding of the real cause.
func TestDiagnosesOnlyOfFoundCauses(t *testing.T) {
	for _, text := range []string{
		"The real problem is the DNS cache in the sidecar, right?",
		"So the root cause is the cron schedule?",
		"If the real problem is the DNS cache, restarting the sidecar helps.",
		"Maybe the real issue is the lockfile in the worker image.",
		"At first I thought the real problem was the thumbnail cache being rebuilt.",
		"I assumed the root cause was clock skew between the hosts, but it was not.",
		"The real problem is not the cache, it is DNS.",
		"The actual issue is no longer the stale lockfile.",
		"The real issue is now fixed.",
		"The actual issue was resolved by restarting the worker.",
		"The root cause is unknown.",
		"The root cause is still unclear.",
		"The real problem is the same as before.",
	} {
		for _, d := range Diagnoses(text) {
			t.Errorf("Diagnoses(%q) = %+v; want none", text, d)
		}
	}
	for text, cause := range map[string]string{
		"The real issue is no retry limit on the uploader.":                "no retry limit on the uploader",
		"The real problem is now the DNS cache of the sidecar.":            "now the dns cache of the sidecar",
		"If it fails again, the real problem is the sidecar's DNS cache.":  "the sidecar's dns cache",
		"The real problem is the pool, initially sized to one connection.": "the pool",
	} {
		if ds := Diagnoses(text); len(ds) != 1 || ds[0].Cause != cause {
			t.Errorf("Diagnoses(%q) = %+v; want cause %q", text, ds, cause)
		}
	}
}

func TestRevises(t *testing.T) {
	first := Diagnoses("The problem is the thumbnail cache being rebuilt on every request.")
	same := Diagnoses("The real problem is that the thumbnail cache gets rebuilt on each request.")
	other := Diagnoses("The real problem is DNS resolution in the sidecar.")
	plain := Diagnoses("The problem is DNS resolution in the sidecar.")
	if len(first) != 1 || len(same) != 1 || len(other) != 1 || len(plain) != 1 {
		t.Fatalf("diagnoses: %v %v %v %v", first, same, other, plain)
	}
	if !Revises(first[0], other[0]) {
		t.Errorf("another cause named as the real one does not revise the first")
	}
	if Revises(first[0], same[0]) {
		t.Errorf("the same cause restated revises it: %v", same[0].Words)
	}
	if Revises(first[0], plain[0]) {
		t.Errorf("another cause not said to be the real one revises the first")
	}
	if !slices.Equal(other[0].Words, []string{"dns", "resolution", "sidecar"}) {
		t.Errorf("words %v", other[0].Words)
	}
	// The same diagnosis told again with another subject: the newer
	// statement says most of the older's words, a code span's parts
	// among them.
	old := Diagnoses("The issue is that **kiln secrets are not readable through `$vault` in the glaze step's header fields**.")
	again := Diagnoses("I can see the core issue: the kiln pipeline's `fire_batch` glaze step has a header that reads `{{ $vault.KILN_TOKEN }}`, which never resolves.")
	if len(old) != 1 || len(again) != 1 {
		t.Fatalf("diagnoses: %v %v", old, again)
	}
	if Revises(old[0], again[0]) {
		t.Errorf("the same diagnosis told again revises it: %v then %v", old[0].Said, again[0].Said)
	}
	// A revision that names the cause it drops says the older's words,
	// but names a cause the older never did.
	limit := Diagnoses("The root cause is the kiln API's rate limit on the glaze endpoint.")
	dns := Diagnoses("The real issue is the stale DNS cache in the glaze worker, not the kiln API's rate limit on the glaze endpoint.")
	if len(limit) != 1 || len(dns) == 0 || !Revises(limit[0], dns[0]) {
		t.Errorf("a revision naming the cause it drops is no revision: %+v then %+v", limit, dns)
	}
}

// A question names a cause it asks for, or a cause noun qualified as the
// one that holds; a reason for a choice, "why", a problem named, or no
// question at all asks none. The texts are made up.
func TestAsksCause(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"What caused the kiln scheduler to skip batches?", true},
		{"The glaze toggle never showed up. What turned out to be the real reason?", true},
		{"What was the root cause of the memory leak in the resizer?", true},
		{"Which dependency was the culprit in the broken build?", true},
		{"What did we finally figure out was the cause?", true},
		{"What was the reason we chose Postgres over MySQL?", false},
		{"Why did we switch the docs site to Vite?", false},
		{"Is there a problem with the nightly build?", false},
		{"The root cause was the stale lockfile.", false},
		{"What's causing the glaze toggle to disappear?", true},
		{"And what the root-cause was?", true},
		{"Does this change cause a regression in the scheduler?", false},
		{"How do I cause a panic in Go tests?", false},
		{"Can you add a `cause` field to the error type?", false},
		{"Why? The real problem is the cache.", false},
		{"See https://x.example/a?b=1, the root cause is in there.", false},
	} {
		if got := AsksCause(tt.text); got != tt.want {
			t.Errorf("AsksCause(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestAsksFailure(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"When we first type-checked the server, what error came out of the client file?", true},
		{"What broke the first production build?", true},
		{"Why did the nightly import keep failing?", true},
		{"Which test crashed the runner last week?", true},
		{"The linter rejected the new rule block. What was wrong with it?", true},
		{"What went wrong in the nightly deploy?", true},
		{"Is this the wrong approach for caching posts?", false},
		{"Fix the error in the build.", false},
		{"Can you add an `error` field to the response?", false},
		{"Where do we set the breakpoint for the scheduler?", false},
		{"How does failover work for the replica?", false},
		{"The build broke. Which version of the SDK do we pin?", false},
	} {
		if got := AsksFailure(tt.text); got != tt.want {
			t.Errorf("AsksFailure(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
