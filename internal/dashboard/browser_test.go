package dashboard

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// chromiumBin is the headless Chromium the browser test drives. The test
// runs when CML_BROWSER is set (scripts/e2e.sh sets it, after
// scripts/setup-chromium.sh installed Chromium); then a missing browser
// fails it rather than skipping it.
func chromiumBin(t *testing.T) string {
	t.Helper()
	if os.Getenv("CML_BROWSER") == "" {
		t.Skip("set CML_BROWSER=1 (scripts/e2e.sh does) to run the real-browser test")
	}
	bin := os.Getenv("CML_CHROMIUM")
	if bin == "" {
		t.Fatal("CML_CHROMIUM is not set: run the test through scripts/e2e.sh, which installs Chromium with scripts/setup-chromium.sh")
	}
	if _, err := exec.LookPath(bin); err != nil {
		t.Fatalf("Chromium: %v (run scripts/setup-chromium.sh)", err)
	}
	return bin
}

// browser loads pages in headless Chromium, one process per page, with a
// profile of its own, and keeps a screenshot of each.
type browser struct {
	t       *testing.T
	bin     string
	profile string
	shots   string
	base    string // http://127.x.y.z:PORT/ROOT
	token   string
	n       int
}

// size is a window: a laptop's or a phone's.
type size struct{ w, h int }

var (
	laptop = size{1280, 900}
	phone  = size{390, 844}
)

// load opens path (with the token, which the server swaps for a cookie)
// at the window size, saves a screenshot named after name, and returns the
// page's DOM once loaded.
func (b *browser) load(name, path string, sz size) string {
	b.t.Helper()
	b.n++
	shot := filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.n, name))
	u := b.base + path
	if strings.Contains(path, "?") {
		u += "&token=" + b.token
	} else {
		u += "?token=" + b.token
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir="+b.profile, fmt.Sprintf("--window-size=%d,%d", sz.w, sz.h), "--screenshot="+shot, "--dump-dom", u)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		b.t.Fatalf("chromium %s: %v\n%s", path, err, stderr.String())
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
		b.t.Errorf("no screenshot of %s: %v", path, err)
	}
	return string(out)
}

// uiBinary builds the CLI into dir.
func uiBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "claude-memory-layer")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/claude-memory-layer")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startUI runs `claude-memory-layer ui --no-open` on the data directory and
// returns the address it printed; the process is interrupted at cleanup.
func startUI(t *testing.T, bin, data string) *url.URL {
	t.Helper()
	cmd := exec.Command(bin, "ui", "--no-open")
	cmd.Env = append(os.Environ(), "CLAUDE_MEMORY_DIR="+data)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		if err := cmd.Wait(); err != nil {
			t.Errorf("ui after Ctrl-C: %v\n%s", err, stderr.String())
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("ui printed no address: %v\n%s", err, stderr.String())
	}
	go io.Copy(io.Discard, stdout)
	f := strings.Fields(line)
	if len(f) < 2 {
		t.Fatalf("ui printed %q", line)
	}
	u, err := url.Parse(f[1])
	if ip := net.ParseIP(u.Hostname()); err != nil || ip == nil || !ip.IsLoopback() || u.Query().Get("token") == "" {
		t.Fatalf("ui printed %q", line)
	}
	return u
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// TestBrowser loads every page of a seeded store in a real browser through
// the real ui command, at laptop and phone sizes, then walks forget: the
// preview, the confirmation, and the memory gone from every page and from
// the bytes of memory.db and its WAL. Screenshots go to $CML_SCREENSHOTS
// (or a temporary directory named in the log).
func TestBrowser(t *testing.T) {
	bin := chromiumBin(t)
	shots := os.Getenv("CML_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", shots)
	data := t.TempDir()
	sd := seed(t, data, 600)
	u := startUI(t, uiBinary(t, t.TempDir()), data)
	b := &browser{t: t, bin: bin, profile: t.TempDir(), shots: shots, base: "http://" + u.Host + strings.TrimSuffix(u.Path, "/"), token: u.Query().Get("token")}

	pages := []struct {
		name, path, want string
		phone            bool
	}{
		{"overview", "/", "Memories over time", true},
		{"memories", "/memories", sd.postgres.CID, true},
		{"memories-filtered", "/memories?type=fact&status=contested", sd.mysql.CID, false},
		{"search", "/memories?q=vault+key", secretWords, true},
		{"memory", "/memory/" + sd.secret.CID, secretWords, true},
		{"message", "/message/" + store.EventCID(sd.quoted), "ops/vault.md", false},
		{"sessions", "/sessions", "sess-0001", false},
		{"session", "/session/" + sd.session, "How is the vault key handled", true},
		{"conflicts", "/conflicts", "Orders live in MySQL 8", true},
	}
	for _, p := range pages {
		sizes := []size{laptop}
		if p.phone {
			sizes = append(sizes, phone)
		}
		for _, sz := range sizes {
			name := p.name
			if sz == phone {
				name += "-phone"
			}
			dom := b.load(name, p.path, sz)
			if !strings.Contains(dom, p.want) {
				t.Errorf("%s (%dx%d) lacks %q", p.path, sz.w, sz.h, p.want)
			}
			if strings.Contains(dom, "needs its token") || strings.Contains(dom, "Internal Server Error") {
				t.Errorf("%s: an error page", p.path)
			}
		}
	}
	// The quote is marked inside its message.
	if dom := b.load("memory-again", "/memory/"+sd.secret.CID, laptop); !strings.Contains(dom, "<mark>"+secretWords+"</mark>") {
		t.Error("the quote is not marked in its message")
	}

	// Forget: the preview first, as the CLI shows it.
	dom := b.load("forget-preview", "/memory/"+sd.secret.CID+"/forget", laptop)
	b.load("forget-preview-phone", "/memory/"+sd.secret.CID+"/forget", phone)
	for _, want := range []string{"Preview: nothing has been changed yet", "1 entry", "1 message redacted", "Forget for good"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the forget preview lacks %q", want)
		}
	}
	m := csrfField.FindStringSubmatch(dom)
	if m == nil {
		t.Fatal("no CSRF token in the forget form")
	}
	if !holds(t, sd.path, "zanzibar") {
		t.Fatal("the store does not hold the words to forget before the forget")
	}
	// The confirmation is the form's POST, as the browser sends it: the
	// cookie the token became, the page's Origin and its CSRF token.
	req, _ := http.NewRequest(http.MethodPost, b.base+"/memory/"+sd.secret.CID+"/forget", strings.NewReader(url.Values{"csrf": {m[1]}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	base, _ := url.Parse(b.base)
	req.Header.Set("Origin", "http://"+base.Host)
	req.AddCookie(&http.Cookie{Name: cookiePrefix + base.Port(), Value: b.token})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != base.Path+"/memories?done=forgotten" {
		t.Fatalf("confirming forget = %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if dom := b.load("after-forget", "/memories?done=forgotten", laptop); !strings.Contains(dom, "Forgotten for good") {
		t.Error("no confirmation after forget")
	}
	for _, p := range pages {
		dom := b.load(p.name+"-after-forget", p.path, laptop)
		// A page at the memory's own address says it has none by that id.
		if strings.Contains(dom, "zanzibar") || !strings.Contains(p.path, sd.secret.CID) && strings.Contains(dom, sd.secret.CID) {
			t.Errorf("%s still shows the forgotten memory", p.path)
		}
	}
	if dom := b.load("memory-gone", "/memory/"+sd.secret.CID, laptop); !strings.Contains(dom, "404") {
		t.Error("the forgotten memory's page is not a 404")
	}
	assertGone(t, sd.path, "zanzibar")
}
