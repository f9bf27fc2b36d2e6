package dashboard

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

const testAddr = "127.0.0.1:7777"

type fixture struct {
	t  *testing.T
	s  *Server
	db *store.DB
	seeded
}

// newFixture seeds a small store and serves it, as if at testAddr.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	sd := seed(t, dir, 300)
	db, err := store.Open(context.Background(), sd.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	s, err := New(db, testAddr, Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, s: s, db: db, seeded: sd}
}

// req is one request to the fixture's handler; mutate adjusts it before it is sent.
func (f *fixture) req(method, target string, form url.Values, mutate ...func(*http.Request)) *http.Response {
	f.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r := httptest.NewRequest(method, f.s.root+target, body)
	r.Host = testAddr
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if method == http.MethodPost {
		r.Header.Set("Origin", "http://"+testAddr)
	}
	r.AddCookie(&http.Cookie{Name: f.s.cookie, Value: f.s.Token()})
	for _, m := range mutate {
		m(r)
	}
	w := httptest.NewRecorder()
	f.s.Handler().ServeHTTP(w, r)
	return w.Result()
}

func (f *fixture) get(target string, mutate ...func(*http.Request)) (int, string) {
	f.t.Helper()
	res := f.req(http.MethodGet, target, nil, mutate...)
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// post sends a form with the CSRF token the pages carry.
func (f *fixture) post(target string, form url.Values, mutate ...func(*http.Request)) *http.Response {
	f.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", f.s.csrf)
	}
	return f.req(http.MethodPost, target, form, mutate...)
}

// flip changes the first character of a hex token.
func flip(tok string) string {
	if tok[0] == '0' {
		return "1" + tok[1:]
	}
	return "0" + tok[1:]
}

func noCookie(r *http.Request) { r.Header.Del("Cookie") }

func (f *fixture) entry(id int64) store.Entry {
	f.t.Helper()
	x, err := f.db.Read().EntryByID(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return x
}

// pages are every page of the seeded store, with a text each must show.
func (f *fixture) pages() map[string]string {
	return map[string]string{
		"/":                                           "Memories over time",
		"/memories":                                   f.secret.CID,
		"/memories?q=vault+key":                       f.secret.CID,
		"/memories?type=fact&stage=verified":          f.postgres.CID,
		"/memories?status=contested":                  f.mysql.CID,
		"/memories?pinned=1":                          f.pinned.CID,
		"/memory/" + f.secret.CID:                     "<mark>" + secretWords + "</mark>",
		"/memory/" + f.secret.CID + "/forget":         "Forget for good",
		"/message/" + store.EventCID(f.quoted):        "ops/vault.md",
		"/message/" + strconv.FormatInt(f.quoted, 10): f.secret.CID,
		"/sessions":                                   f.session,
		"/session/" + f.session:                       "How is the vault key handled",
		"/conflicts":                                  "Orders live in MySQL 8",
		"/?project=" + url.QueryEscape(seedProject):   "Injections and real uses",
	}
}

// Every page answers 200 with its content for a request with the token.
func TestPages(t *testing.T) {
	f := newFixture(t)
	for target, want := range f.pages() {
		code, body := f.get(target)
		if code != http.StatusOK {
			t.Errorf("GET %s = %d: %s", target, code, body)
			continue
		}
		if !strings.Contains(body, want) {
			t.Errorf("GET %s lacks %q", target, want)
		}
	}
	code, body := f.get("/static/style.css", noCookie)
	if code != http.StatusOK || !strings.Contains(body, "mark {") {
		t.Errorf("GET /static/style.css = %d", code)
	}
	if code, _ := f.get("/static/"); code != http.StatusNotFound {
		t.Errorf("GET /static/ = %d, want 404 (no listing)", code)
	}
	// The memory page shows the quote's neighbours and its injection history.
	_, body = f.get("/memory/" + f.secret.CID)
	for _, want := range []string{"How is the vault key handled", "Keys are rotated by a cron job", "injected into a prompt", "cited by an answer"} {
		if !strings.Contains(body, want) {
			t.Errorf("memory page lacks %q", want)
		}
	}
}

func TestNotFound(t *testing.T) {
	f := newFixture(t)
	for _, target := range []string{"/memory/mem:ffffff", "/memory/not-an-id", "/memory/mem:ffffff/forget", "/message/mem:tzzzzzz",
		"/message/999999", "/message/nonsense", "/session/no-such-session", "/nope", "/memories/x"} {
		if code, _ := f.get(target); code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, code)
		}
	}
	if code, _ := f.get("/memories?type=opinion"); code != http.StatusBadRequest {
		t.Errorf("unknown type = %d, want 400", code)
	}
	if res := f.post("/memory/mem:ffffff/stage", url.Values{"stage": {"certified"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("POST to a missing memory = %d, want 404", res.StatusCode)
	}
}

// Without the token nothing is served, not even for reading, and nothing
// changes; the token in the URL becomes a cookie and leaves the URL.
func TestToken(t *testing.T) {
	f := newFixture(t)
	for target := range f.pages() {
		code, body := f.get(target, noCookie)
		if code != http.StatusUnauthorized {
			t.Errorf("GET %s without the token = %d, want 401", target, code)
		}
		if strings.Contains(body, "vault") || strings.Contains(body, f.secret.CID) {
			t.Errorf("GET %s without the token shows stored content", target)
		}
	}
	wrong := func(r *http.Request) { r.Header.Set("Cookie", f.s.cookie+"=0123") }
	if code, _ := f.get("/", wrong); code != http.StatusUnauthorized {
		t.Errorf("wrong cookie = %d, want 401", code)
	}
	if code, _ := f.get("/?token=0123", noCookie); code != http.StatusUnauthorized {
		t.Errorf("wrong token in the URL = %d, want 401", code)
	}
	res := f.req(http.MethodGet, "/memories?type=fact&token="+f.s.Token(), nil, noCookie)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("token in the URL = %d, want 303", res.StatusCode)
	}
	if loc := res.Header.Get("Location"); loc != f.s.root+"/memories?type=fact" {
		t.Errorf("redirect to %q, want the URL without its token", loc)
	}
	var c *http.Cookie
	for _, x := range res.Cookies() {
		if x.Name == f.s.cookie {
			c = x
		}
	}
	if c == nil || c.Value != f.s.Token() || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Errorf("cookie %+v, want the token, HttpOnly, SameSite=Strict", c)
	}
	// A change without the token is refused and changes nothing.
	for _, target := range []string{"/memory/" + f.secret.CID + "/stage", "/memory/" + f.secret.CID + "/forget"} {
		if res := f.post(target, url.Values{"stage": {"rejected"}}, noCookie); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("POST %s without the token = %d, want 401", target, res.StatusCode)
		}
	}
	if x := f.entry(f.secret.ID); x.Stage != store.StageVerified {
		t.Errorf("stage %s after refused changes", x.Stage)
	}
}

// A page addressed to another host name (a DNS-rebinding attack) or sent
// from another origin is refused; no answer allows CORS.
func TestHostAndOrigin(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct {
		name   string
		method string
		mutate func(*http.Request)
		want   int
	}{
		{"rebound host", "GET", func(r *http.Request) { r.Host = "attacker.example:7777" }, http.StatusMisdirectedRequest},
		{"other port", "GET", func(r *http.Request) { r.Host = "127.0.0.1:8888" }, http.StatusMisdirectedRequest},
		{"no port", "GET", func(r *http.Request) { r.Host = "127.0.0.1" }, http.StatusMisdirectedRequest},
		{"localhost", "GET", func(r *http.Request) { r.Host = "localhost:7777" }, http.StatusOK},
		{"foreign origin", "GET", func(r *http.Request) { r.Header.Set("Origin", "http://attacker.example") }, http.StatusForbidden},
		{"cross-site fetch", "GET", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, http.StatusForbidden},
		{"same-origin fetch", "GET", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "same-origin") }, http.StatusOK},
		{"foreign origin post", "POST", func(r *http.Request) { r.Header.Set("Origin", "http://attacker.example") }, http.StatusForbidden},
		{"null origin post", "POST", func(r *http.Request) { r.Header.Set("Origin", "null") }, http.StatusForbidden},
		{"post without origin", "POST", func(r *http.Request) { r.Header.Del("Origin") }, http.StatusForbidden},
		{"same-site post", "POST", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "same-site") }, http.StatusForbidden},
		{"options", "OPTIONS", func(r *http.Request) { r.Header.Set("Access-Control-Request-Method", "POST") }, http.StatusMethodNotAllowed},
		{"put", "PUT", nil, http.StatusMethodNotAllowed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var res *http.Response
			m := []func(*http.Request){}
			if tt.mutate != nil {
				m = append(m, tt.mutate)
			}
			switch tt.method {
			case "GET":
				res = f.req("GET", "/memory/"+f.secret.CID, nil, m...)
			case "POST":
				res = f.post("/memory/"+f.secret.CID+"/stage", url.Values{"stage": {"rejected"}}, m...)
			default:
				res = f.req(tt.method, "/memory/"+f.secret.CID+"/stage", nil, m...)
			}
			if res.StatusCode != tt.want {
				t.Errorf("%s = %d, want %d", tt.name, res.StatusCode, tt.want)
			}
			for k := range res.Header {
				if strings.HasPrefix(k, "Access-Control-") {
					t.Errorf("CORS header %s sent", k)
				}
			}
		})
	}
	if x := f.entry(f.secret.ID); x.Stage != store.StageVerified {
		t.Errorf("stage %s after refused posts", x.Stage)
	}
	res := f.req("GET", "/", nil)
	for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q", csp)
	}
}

// Every change needs the CSRF token the pages carry.
func TestCSRF(t *testing.T) {
	f := newFixture(t)
	target := "/memory/" + f.secret.CID + "/stage"
	for name, form := range map[string]url.Values{
		"none":  {"stage": {"rejected"}, "csrf": nil},
		"wrong": {"stage": {"rejected"}, "csrf": {flip(f.s.csrf)}},
		"token": {"stage": {"rejected"}, "csrf": {f.s.Token()}},
	} {
		if res := f.post(target, form); res.StatusCode != http.StatusForbidden {
			t.Errorf("%s CSRF token = %d, want 403", name, res.StatusCode)
		}
	}
	if x := f.entry(f.secret.ID); x.Stage != store.StageVerified {
		t.Fatalf("stage %s after refused posts", x.Stage)
	}
	// The token is in every form of the memory page.
	_, body := f.get("/memory/" + f.secret.CID)
	if n, forms := strings.Count(body, `name="csrf" value="`+f.s.csrf+`"`), strings.Count(body, `method="post"`); n != forms || n == 0 {
		t.Errorf("%d CSRF fields in %d forms", n, forms)
	}
	if res := f.post(target, url.Values{"stage": {"rejected"}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("with the token = %d, want 303", res.StatusCode)
	}
	if x := f.entry(f.secret.ID); x.Stage != store.StageRejected {
		t.Errorf("stage %s, want rejected", x.Stage)
	}
}

// The memory page's actions do what the CLI's commands do.
func TestActions(t *testing.T) {
	f := newFixture(t)
	m := "/memory/" + f.postgres.CID
	seeOther := func(res *http.Response, wantLoc string) {
		t.Helper()
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != f.s.root+wantLoc {
			t.Fatalf("= %d to %q, want 303 to %q", res.StatusCode, res.Header.Get("Location"), f.s.root+wantLoc)
		}
	}
	seeOther(f.post(m+"/stage", url.Values{"stage": {"certified"}}), m+"?done=certified")
	if x := f.entry(f.postgres.ID); x.Stage != store.StageCertified {
		t.Errorf("after verify: %s", x.Stage)
	}
	seeOther(f.post(m+"/stage", url.Values{"stage": {"certified"}}), m+"?done=unchanged")
	if _, body := f.get(m + "?done=certified"); !strings.Contains(body, "the memory is certified") {
		t.Error("no flash after verify")
	}
	if res := f.post(m+"/stage", url.Values{"stage": {"verified"}}); res.StatusCode != http.StatusBadRequest {
		t.Errorf("stage verified = %d, want 400", res.StatusCode)
	}
	seeOther(f.post(m+"/pin", url.Values{"pin": {"1"}}), m+"?done=pinned")
	if p, _ := f.db.Pinned(context.Background(), seedProject); !p[f.postgres.CID] {
		t.Error("not pinned")
	}
	seeOther(f.post(m+"/pin", url.Values{"pin": {"0"}}), m+"?done=unpinned")
	seeOther(f.post(m+"/edit", url.Values{"title": {"Orders live in  Postgres 16.2"}, "body": {"Since March."}, "type": {"decision"}}), m+"?done=edited")
	if x := f.entry(f.postgres.ID); x.Title != "Orders live in Postgres 16.2" || x.Body != "Since March." || x.Type != "decision" {
		t.Errorf("after edit: %q %q %q", x.Title, x.Body, x.Type)
	}
	if res := f.post(m+"/edit", url.Values{"type": {"opinion"}}); res.StatusCode != http.StatusBadRequest {
		t.Errorf("edit to a bad type = %d, want 400", res.StatusCode)
	}
	if res := f.post(m+"/supersede", url.Values{"by": {f.postgres.CID}}); res.StatusCode != http.StatusBadRequest {
		t.Errorf("self-supersede = %d, want 400", res.StatusCode)
	}
	if res := f.post(m+"/supersede", url.Values{"by": {"mem:ffffff"}}); res.StatusCode != http.StatusBadRequest {
		t.Errorf("supersede by a missing memory = %d, want 400", res.StatusCode)
	}
	p := "/memory/" + f.pinned.CID
	seeOther(f.post(p+"/supersede", url.Values{"by": {strings.TrimPrefix(f.secret.CID, "mem:")}}), p+"?done=superseded")
	if x := f.entry(f.pinned.ID); x.Status != store.StatusSuperseded || x.SupersededBy != f.secret.ID {
		t.Errorf("after supersede: %s by %d", x.Status, x.SupersededBy)
	}
	// The corrections are on the memory's page.
	if _, body := f.get(m); !strings.Contains(body, store.TypeEdited) || !strings.Contains(body, store.TypeCertified) {
		t.Error("the memory page does not list its corrections")
	}
}

// The conflicts page resolves a contradiction once.
func TestResolveConflict(t *testing.T) {
	f := newFixture(t)
	target := "/conflict/" + strconv.FormatInt(f.conflictID, 10) + "/resolve"
	if res := f.post(target, url.Values{"choice": {"flip-a-coin"}}); res.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown choice = %d, want 400", res.StatusCode)
	}
	if res := f.post("/conflict/999/resolve", url.Values{"choice": {"keep-both"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("missing conflict = %d, want 404", res.StatusCode)
	}
	res := f.post(target, url.Values{"choice": {"supersede-older"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != f.s.root+"/conflicts?done=resolved" {
		t.Fatalf("resolve = %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if x := f.entry(f.postgres.ID); x.Status != store.StatusSuperseded || x.SupersededBy != f.mysql.ID {
		t.Errorf("older: %s by %d", x.Status, x.SupersededBy)
	}
	if x := f.entry(f.mysql.ID); x.Status != store.StatusActive {
		t.Errorf("newer: %s", x.Status)
	}
	if _, body := f.get("/conflicts"); !strings.Contains(body, "No open conflicts") {
		t.Error("the conflict is still listed")
	}
	if res := f.post(target, url.Values{"choice": {"keep-both"}}); res.StatusCode != http.StatusConflict {
		t.Errorf("resolving again = %d, want 409", res.StatusCode)
	}
}

// Forget shows the preview first, then deletes the memory from every page
// and from every byte of the store.
func TestForget(t *testing.T) {
	f := newFixture(t)
	m := "/memory/" + f.secret.CID
	code, body := f.get(m + "/forget")
	if code != http.StatusOK {
		t.Fatalf("preview = %d", code)
	}
	for _, want := range []string{"Preview: nothing has been changed yet", "1 entry", "1 message redacted", f.secret.CID,
		"claude-memory-layer forget " + f.secret.CID + " --yes"} {
		if !strings.Contains(body, want) {
			t.Errorf("preview lacks %q", want)
		}
	}
	if code, _ := f.get(m); code != http.StatusOK {
		t.Fatalf("the preview changed something: memory page = %d", code)
	}
	if !holds(t, f.path, "zanzibar") {
		t.Fatal("the seeded store does not hold the words to forget: the test would prove nothing")
	}
	res := f.post(m+"/forget", nil)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != f.s.root+"/memories?done=forgotten" {
		t.Fatalf("forget = %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if code, _ := f.get(m); code != http.StatusNotFound {
		t.Errorf("the memory page after forget = %d, want 404", code)
	}
	for target := range f.pages() {
		if strings.Contains(target, f.secret.CID) || strings.Contains(target, strconv.FormatInt(f.quoted, 10)) || strings.Contains(target, store.EventCID(f.quoted)) {
			continue
		}
		_, body := f.get(target)
		if strings.Contains(body, f.secret.CID) || strings.Contains(body, "zanzibar") {
			t.Errorf("%s still shows the forgotten memory", target)
		}
	}
	if _, body := f.get("/message/" + store.EventCID(f.quoted)); strings.Contains(body, "zanzibar") || !strings.Contains(body, store.Redacted) {
		t.Error("the quoted message was not redacted")
	}
	if _, body := f.get("/memories?q=zanzibar"); strings.Contains(body, "zanzibar-7 rotates") {
		t.Error("search still finds the forgotten words")
	}
	assertGone(t, f.path, "zanzibar")
}

// holds reports whether word is in the bytes of the store or its WAL.
func holds(t *testing.T, path, word string) bool {
	t.Helper()
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(word)) {
			return true
		}
	}
	return false
}

// assertGone fails if word is in the bytes of the store or its WAL.
func assertGone(t *testing.T, path, word string) {
	t.Helper()
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(word)) {
			t.Errorf("%s still holds %q", filepath.Base(p), word)
		}
	}
}

func TestMark(t *testing.T) {
	text := "alpha beta gamma délta epsilon"
	start := strings.Index(text, "gamma")
	for _, tt := range []struct {
		start, end, width int
		want              marked
	}{
		{start, start + 5, 100, marked{"alpha beta ", "gamma", " délta epsilon", true}},
		{start, start + 5, 4, marked{"…eta ", "gamma", " dé…", true}},
		{0, 999, 10, marked{Before: "alpha beta gamma dé…"}},
		{5, 5, 10, marked{Before: "alpha beta gamma dé…"}},
	} {
		if got := mark(text, tt.start, tt.end, tt.width); got != tt.want {
			t.Errorf("mark(%d, %d, %d) = %+v, want %+v", tt.start, tt.end, tt.width, got, tt.want)
		}
	}
}

// bins groups a long history into at most maxBins bars, summing the days of each.
func TestBins(t *testing.T) {
	days := []store.Day{{Date: "2026-01-01", Memories: 2}, {Date: "2026-01-02", Memories: 3}, {Date: "2026-12-31", Memories: 5}}
	bs := bins(days, func(d store.Day) []int { return []int{d.Memories} })
	if len(bs) > maxBins || len(bs) < maxBins/2 {
		t.Fatalf("%d bins", len(bs))
	}
	total := 0
	for _, b := range bs {
		for _, v := range b.values {
			total += v
		}
	}
	if total != 10 || bs[0].values[0] != 5 || bs[0].label != "2026-01-01" {
		t.Errorf("total %d, first %+v", total, bs[0])
	}
	if svg := string(memoriesChart(days)); !strings.HasPrefix(svg, "<svg") || strings.Count(svg, "<rect") != len(bs) {
		t.Errorf("chart: %.200s", svg)
	}
	if got := string(usageChart(nil)); !strings.Contains(got, "Nothing recorded yet") {
		t.Errorf("empty chart: %s", got)
	}
}

// Run listens on the loopback address only, prints the address with its
// token, and stops when its context ends.
func TestRun(t *testing.T) {
	sd := seed(t, t.TempDir(), 30)
	db, err := store.Open(context.Background(), sd.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	out := &lineWriter{lines: make(chan string, 4)}
	done := make(chan error, 1)
	go func() { done <- Run(ctx, db, RunOptions{NoOpen: true, Out: out}) }()
	line := <-out.lines
	u, err := url.Parse(strings.TrimPrefix(strings.Fields(line)[1], ""))
	if ip := net.ParseIP(u.Hostname()); err != nil || ip == nil || !ip.IsLoopback() || u.Query().Get("token") == "" {
		t.Fatalf("printed %q", line)
	}
	res, err := http.Get(u.String()) // follows the redirect, keeping no cookie: 401 after it
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Request.URL.Query().Get("token") != "" {
		t.Errorf("the token stayed in the URL: %s", res.Request.URL)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after cancel: %v", err)
	}
}

type lineWriter struct{ lines chan string }

func (w *lineWriter) Write(p []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimSpace(string(p)), "\n") {
		select {
		case w.lines <- l:
		default:
		}
	}
	return len(p), nil
}

// mark never panics on any text and span, and cuts only on rune boundaries:
// a stored message is input, and a span may not fit it (a redacted message).
func FuzzMark(f *testing.F) {
	f.Add("alpha beta gamma délta epsilon", 11, 16, 4)
	f.Add("日本語のテキスト", 1, 5, 2)
	f.Add("", 0, 0, 0)
	f.Fuzz(func(t *testing.T, text string, start, end, width int) {
		if width < 0 || width > 1<<16 {
			return
		}
		m := mark(text, start, end, width)
		if !utf8.ValidString(text) {
			return
		}
		for _, part := range []string{m.Before, m.Span, m.After} {
			if !utf8.ValidString(part) {
				t.Fatalf("mark(%q, %d, %d, %d) cut a rune: %+v", text, start, end, width, m)
			}
		}
		if m.Found && m.Span != text[start:end] {
			t.Fatalf("span %q, want %q", m.Span, text[start:end])
		}
	})
}

// A store with nothing in it yet renders every list page, empty.
func TestEmptyStore(t *testing.T) {
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := New(db, testAddr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, s: s, db: db}
	for target, want := range map[string]string{"/": "Nothing recorded yet", "/memories": "No memories match", "/memories?q=anything": "No memories match",
		"/sessions": "No sessions yet", "/conflicts": "No open conflicts"} {
		code, body := f.get(target)
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("GET %s = %d, want 200 with %q", target, code, want)
		}
	}
}

// A memory quoted in every session shows its first and latest quotes and
// how many more it has, not one article per copy of the same words.
func TestMemoryManyQuotes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const n = pageQuotes + 30
	x := storetest.QuotedEntry(t, f.db, seedProject, "The settlement job runs at 02:00 UTC", n, func(i int) string {
		return fmt.Sprintf("the settlement job runs at 02:00 UTC, night %d", i)
	})
	// Shown on a prompt of each of its sessions, and more.
	for i := range n {
		ev := store.Event{Time: time.Date(2026, 10, 2, 0, i, 0, 0, time.UTC), Type: store.TypeMemoryInjected, SessionID: fmt.Sprintf("later-%03d", i),
			Project: seedProject, DedupeKey: fmt.Sprintf("inject:later-%03d:p", i), Payload: []byte(fmt.Sprintf(`{"memories":[%q],"prompt_id":"p"}`, x.CID))}
		if err := f.db.MarkInjected(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	code, body := f.get("/memory/" + x.CID)
	if code != http.StatusOK {
		t.Fatalf("memory page: %d", code)
	}
	if got := strings.Count(body, "injected into a prompt of session"); got != pageQuotes || !strings.Contains(body, "injected into 30 earlier prompts") ||
		!strings.Contains(body, fmt.Sprintf("later-%03d", n-1)) || strings.Contains(body, "later-000") {
		t.Errorf("the history lists %d injections, want the latest %d and the 30 earlier counted", got, pageQuotes)
	}
	if got := strings.Count(body, `<article class="quote">`); got != pageQuotes {
		t.Errorf("%d quotes on the page, want %d", got, pageQuotes)
	}
	for _, want := range []string{">Quote 1: ", fmt.Sprintf(">Quote %d: ", n), "30 more quotes not shown; shown: the first said and the 49 latest"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(body, ">Quote 2: ") {
		t.Error("the page shows the second quote, neither the first nor among the latest")
	}
}

// TestRunOpensBrowserWithoutToken: the browser opener's arguments (world
// readable in /proc) hold no token: it is given a file only this user can
// read, which redirects to the address with its token. On each desktop
// (macOS's open, Windows' rundll32, xdg-open) the opener's command line
// holds that file's URL and neither the token nor the dashboard's root,
// with the data directory where macOS keeps it ("Application Support").
func TestRunOpensBrowserWithoutToken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Library", "Application Support", "claude-memory-layer")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	sd := seed(t, dir, 5)
	db, err := store.Open(context.Background(), sd.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	out := &lineWriter{lines: make(chan string, 4)}
	opened := make(chan string, 1)
	var page []byte
	var mode os.FileMode
	open := func(_ context.Context, target string) error {
		u, err := url.Parse(target)
		if err == nil && u.Scheme == "file" {
			page, _ = os.ReadFile(u.Path)
			if fi, err := os.Stat(u.Path); err == nil {
				mode = fi.Mode().Perm()
			}
		}
		opened <- target
		return nil
	}
	done := make(chan error, 1)
	go func() { done <- Run(ctx, db, RunOptions{Out: out, Open: open}) }()
	printed := strings.Fields(<-out.lines)[1]
	target := <-opened
	u, _ := url.Parse(printed)
	token := u.Query().Get("token")
	if token == "" || strings.Contains(target, token) {
		t.Errorf("the opener was given %q (token %q)", target, token)
	}
	if mode != 0o600 || !strings.Contains(string(page), html.EscapeString(printed)) {
		t.Errorf("the page opened (mode %v) does not redirect to %s:\n%s", mode, printed, page)
	}
	root := strings.Trim(u.Path, "/")
	for _, goos := range []string{"darwin", "windows", "linux"} {
		argv := openCommand(goos, target)
		if argv[len(argv)-1] != target || !strings.HasPrefix(target, "file://") {
			t.Errorf("%s: opener %q, want it to open %s", goos, argv, target)
		}
		for _, a := range argv {
			if root == "" || strings.Contains(a, token) || strings.Contains(a, root) {
				t.Errorf("%s: the opener's command line %q holds the token or the root %q", goos, argv, root)
			}
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after cancel: %v", err)
	}
	if t2, _ := url.Parse(target); t2 != nil {
		if _, err := os.Stat(t2.Path); !os.IsNotExist(err) {
			t.Errorf("the page with the token is still there after the dashboard stopped: %v", err)
		}
	}
}

// TestCookieStaysOffOtherPorts: cookies ignore ports, so a dashboard on
// 127.0.0.1 handed its credential to every other local service the browser
// visited there (another user's too). A cookie jar that keeps RFC 6265's
// rules, given the dashboard's cookie, sends it to no other service: not on
// Linux, where the dashboard has a loopback address of its own (Run), and
// not where it shares 127.0.0.1 with them (macOS, which has no other), where
// the cookie's path, the dashboard's random root, is the only fence. Before,
// the cookie's path was "/" and the second case sent it to 127.0.0.1:8080.
func TestCookieStaysOffOtherPorts(t *testing.T) {
	sd := seed(t, t.TempDir(), 5)
	db, err := store.Open(context.Background(), sd.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var printed []string
	if runtime.GOOS == "linux" {
		out := &lineWriter{lines: make(chan string, 4)}
		go Run(ctx, db, RunOptions{NoOpen: true, Out: out})
		printed = append(printed, strings.Fields(<-out.lines)[1])
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(db, ln.Addr().String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ctx, ln)
	printed = append(printed, s.URL(ln.Addr().String()))
	for _, p := range printed {
		jar, _ := cookiejar.New(nil)
		client := &http.Client{Jar: jar}
		res, err := client.Get(p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		u, _ := url.Parse(p)
		if res.StatusCode != http.StatusOK || len(jar.Cookies(u)) != 1 {
			t.Fatalf("the dashboard did not open with its token: %d, cookies %v", res.StatusCode, jar.Cookies(u))
		}
		for _, other := range []string{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/memories", "http://" + u.Host + "/"} {
			o, _ := url.Parse(other)
			if c := jar.Cookies(o); len(c) != 0 {
				t.Errorf("the dashboard at %s left a cookie %s gets: %v", p, other, c)
			}
		}
	}
}

// TestLinksUnderRoot: every link, form and stylesheet of every page points
// under the dashboard's root, where its cookie goes; a page with a link
// to "/memories" would lead out of it, to a 401.
func TestLinksUnderRoot(t *testing.T) {
	f := newFixture(t)
	link := regexp.MustCompile(`(?:href|action|src)="(/[^"]*)"`)
	seen := 0
	for target := range f.pages() {
		_, body := f.get(target)
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			seen++
			if !strings.HasPrefix(m[1], f.s.root+"/") {
				t.Errorf("%s links to %s, outside the root %s", target, m[1], f.s.root)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no links found")
	}
	// Outside the root, even with the cookie, there is nothing, and nothing
	// that tells the root.
	r := httptest.NewRequest(http.MethodGet, "/memories", nil)
	r.Host = testAddr
	r.AddCookie(&http.Cookie{Name: f.s.cookie, Value: f.s.Token()})
	w := httptest.NewRecorder()
	f.s.Handler().ServeHTTP(w, r)
	if w.Code != http.StatusNotFound || strings.Contains(w.Body.String()+w.Header().Get("Location"), f.s.root) {
		t.Errorf("GET /memories outside the root = %d %q", w.Code, w.Body.String())
	}
}

// TestMemoryShowsQuestions: a memory's page lists the questions it
// answers.
func TestMemoryShowsQuestions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	x := storetest.QuotedEntry(t, f.db, seedProject, "The settlement job runs at 02:00 UTC", 1, func(int) string {
		return "the settlement job runs at 02:00 UTC"
	})
	again := x
	again.Questions = []string{"When does the settlement job run?"}
	again.Evidence = nil
	if _, _, err := f.db.PutEntry(context.Background(), again); err != nil {
		t.Fatal(err)
	}
	code, body := f.get("/memory/" + x.CID)
	if code != http.StatusOK || !strings.Contains(body, "Answers: When does the settlement job run?") {
		t.Errorf("memory page (%d) does not list the question it answers", code)
	}
}
