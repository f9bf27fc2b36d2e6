package extract

import (
	"strings"
	"testing"
)

// TestOfflineDropsChecksAndStatesOfTheMoment: how to check the change just
// made ("Test the fix: …") and how something stands right now ("the
// release name is confirmed") are not kept; where a service runs is.
func TestOfflineDropsChecksAndStatesOfTheMoment(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "the sync job crashes on start, fix it"},
		{Index: 1, Role: "assistant", Text: "I fixed the import path in tools/sync.py.\n\n" +
			"- Test the fix: uv run tools/sync.py --dry-run\n" +
			"- Sync API: http://localhost:8123 (FastAPI)"},
		{Index: 2, Role: "user", Text: "which release name did we settle on?"},
		{Index: 3, Role: "assistant", Text: "The release name v2.4-sync is confirmed."},
		{Index: 4, Role: "user", Text: "thanks"},
	}
	got := Offline(msgs)
	checkEntries(t, "moment", msgs, got)
	all := dump(got)
	for _, gone := range []string{"Test the fix", "v2.4-sync is confirmed"} {
		if strings.Contains(all, gone) {
			t.Errorf("%q kept: %s", gone, all)
		}
	}
	if !strings.Contains(all, "localhost:8123") {
		t.Errorf("the API's address is not kept: %s", all)
	}
}

// TestStateOfTheMoment: a state that ends its clause ("is active", "is
// now running again") is how a thing stood when it was said; where and how
// a thing runs ("is running as a systemd unit", "up to 100 requests") is
// kept.
func TestStateOfTheMoment(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"The release branch feature/sync-v2 is active.", true},
		{"The worker is now running again.", true},
		{"The ledger name is confirmed.", true},
		{"The sync job is working fine now", true},
		{"Your SYNC_TOKEN is correct and working", true},
		{"The API is running on localhost:8123.", false}, // where it runs
		{"Docs are served at https://docs.example.test.", false},
		{"The worker retries three times with backoff.", false},
		{"Billing runs in the eu-west region by default.", false},
		{"The sync worker is running as a systemd unit on the build host (deploy/sync.service).", false},
		{"Redis is running in Docker via compose.yaml.", false},
		{"The export limit is up to 500 rows per request.", false},
		{"Thumbnails are down-scaled to 480p before storage.", false},
	} {
		t.Run(tt.body, func(t *testing.T) {
			if got := stateOfTheMoment(tt.body); got != tt.want {
				t.Errorf("stateOfTheMoment(%q) = %v, want %v", tt.body, got, tt.want)
			}
		})
	}
}

// TestNextStepAfterAClause: an instruction placed after the step in hand
// ("After the change, run: …", "Once done, we'll …", "after a rebuild—then
// stage 2") is the turn's order of work; a fact that opens with "after",
// and a standing rule with a condition ("After editing any .proto file,
// run …", "Once a migration is merged, run …"), are not.
func TestNextStepAfterAClause(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"After changes, run with: make sync-dry", true},
		{"Once done, we'll check the ledger page on localhost:8123.", true},
		{"after a rebuild—then stage 2 (importer, then the exporter).", true},
		{"After the fix, restart the worker with make restart.", true},
		{"Then test: make sync-dry", true},
		{"After 30 days, archived invoices move to cold storage.", false},
		{"Once a day the sync job exports the ledger to s3://ledger-export.", false},
		{"After editing any .thrift file, run `make idl` to regenerate the stubs.", false},
		{"After changing the ledger schema, run make gen.", false},
		{"Once a migration is merged, run `make db-check` in CI.", false},
		{"After this change, always run make lint before pushing.", false},
	} {
		t.Run(tt.body, func(t *testing.T) {
			if got := nextStep(tt.body); got != tt.want {
				t.Errorf("nextStep(%q) = %v, want %v", tt.body, got, tt.want)
			}
		})
	}
}

// TestMomentFactCheckLabel: a label that tells the user to check the
// change ("Test the fix: …") marks a check of the moment; a compound noun
// that opens with the same word ("Refresh token TTL", "Test database")
// labels a lasting fact.
func TestMomentFactCheckLabel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"Test: make sync-dry", true},
		{"Verify: curl localhost:8123/health", true},
		{"Test the fix: uv run tools/sync.py --dry-run", true},
		{"Verify it: open the ledger page", true},
		{"Try it locally: npm run dev", true},
		{"Visit localhost:8123: the ledger page lists the synced rows", true},
		{"Refresh token TTL: 30 days", false},
		{"Test database: postgres://localhost:5433/app_test", false},
		{"Check interval: every 5 minutes", false},
		{"Test command: make test", false},
		{"Confirm email template: templates/confirm.html", false},
	} {
		t.Run(tt.body, func(t *testing.T) {
			if got := momentFact(tt.body); got != tt.want {
				t.Errorf("momentFact(%q) = %v, want %v", tt.body, got, tt.want)
			}
		})
	}
}
