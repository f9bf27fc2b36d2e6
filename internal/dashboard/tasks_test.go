package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// The tasks page lists the open tasks with a form to close or drop each,
// carrying the CSRF token; closing needs it, and a closed task moves to
// the closed table.
func TestTasksPage(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	put := func(title string) store.Entry {
		x, _, err := f.db.PutEntry(ctx, store.Entry{Project: seedProject, SessionID: f.session, Type: "task", Title: title,
			ClaimKey: "task|" + title, Stage: store.StageVerified, Created: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	docs, schema := put("Document the flags"), put("Bump the schema version")
	code, body := f.get("/tasks?project=" + url.QueryEscape(seedProject))
	if code != http.StatusOK || !strings.Contains(body, docs.CID) || !strings.Contains(body, schema.CID) {
		t.Fatalf("GET /tasks = %d:\n%s", code, body)
	}
	if n, forms := strings.Count(body, `name="csrf" value="`+f.s.csrf+`"`), strings.Count(body, `method="post"`); n != forms || n < 2 {
		t.Errorf("%d CSRF fields in %d forms", n, forms)
	}
	target := "/task/" + docs.CID + "/close"
	if res := f.post(target, url.Values{"how": {"done"}, "csrf": {flip(f.s.csrf)}}); res.StatusCode != http.StatusForbidden {
		t.Errorf("a wrong CSRF token = %d, want 403", res.StatusCode)
	}
	if res := f.post(target, url.Values{"how": {"later"}}); res.StatusCode != http.StatusBadRequest {
		t.Errorf("how=later = %d, want 400", res.StatusCode)
	}
	if res := f.post("/task/"+f.postgres.CID+"/close", url.Values{"how": {"done"}}); res.StatusCode != http.StatusBadRequest {
		t.Errorf("closing a fact = %d, want 400", res.StatusCode)
	}
	res := f.post(target, url.Values{"how": {"done"}, "project": {seedProject}})
	if want := f.s.root + "/tasks?done=taskdone&project=" + url.QueryEscape(seedProject); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
		t.Fatalf("close = %d to %q, want 303 to %q", res.StatusCode, res.Header.Get("Location"), want)
	}
	if res := f.post("/task/"+schema.CID+"/close", url.Values{"how": {"dropped"}}); res.Header.Get("Location") != f.s.root+"/tasks?done=taskdropped" {
		t.Errorf("drop to %q", res.Header.Get("Location"))
	}
	_, body = f.get("/tasks?done=taskdone")
	open, closed, _ := strings.Cut(body, "<h2>Closed</h2>")
	if strings.Contains(open, docs.CID) || !strings.Contains(closed, docs.CID) || !strings.Contains(closed, "dropped") || !strings.Contains(body, "Task closed as done.") {
		t.Errorf("after close and drop:\n%s", body)
	}
}
