package dashboard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// BenchmarkPages renders each page against a store of 100k messages (10k
// memories, 2k sessions), through the whole handler with its checks. The
// target is 50 ms a page:
//
//	go test -run '^$' -bench Pages -benchtime 20x ./internal/dashboard/
func BenchmarkPages(b *testing.B) {
	start := time.Now()
	sd := seed(b, b.TempDir(), 100_000)
	b.Logf("seeded 100k messages in %s", time.Since(start).Round(time.Second))
	db, err := store.Open(context.Background(), sd.path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s, err := New(db, testAddr, Options{})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	for _, p := range []struct{ name, path string }{
		{"overview", "/"},
		{"memories", "/memories"},
		{"memories-filtered", "/memories?type=fact&stage=verified&status=active"},
		{"memories-pinned", "/memories?pinned=1"},
		{"search", "/memories?q=checkout+total+cents"},
		{"memory", "/memory/" + sd.secret.CID},
		{"forget-preview", "/memory/" + sd.secret.CID + "/forget"},
		{"message", "/message/" + store.EventCID(sd.quoted)},
		{"sessions", "/sessions"},
		{"session", "/session/sess-0100"},
		{"conflicts", "/conflicts"},
		{"overview-project", "/?project=" + seedProject},
	} {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodGet, s.root+p.path, nil)
				r.Host = testAddr
				r.AddCookie(&http.Cookie{Name: s.cookie, Value: s.Token()})
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("%s = %d: %s", p.path, w.Code, w.Body.String()[:min(300, w.Body.Len())])
				}
			}
		})
	}
}
