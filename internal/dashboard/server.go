// Package dashboard serves the local web dashboard over the store.
//
// Its pages show memories with their evidence, sessions and conflicts, and
// make the user's corrections and forget.
//
// Security model (docs/dashboard.md): the server listens on a loopback
// address only (see Listen), under a random path (its root). Every request
// must carry the random token the command prints, first in the URL, then in
// an HttpOnly SameSite=Strict cookie the server sets for that path only; a
// request without it is refused (401), for reading too, since other users
// of the machine can reach the loopback port while the store is 0600. The browser is opened on a 0600 file that
// redirects to the address, never with the token on a command line, which
// other users can read in /proc.
// The Host header must name the loopback address and port (DNS rebinding),
// a request with a foreign Origin or Sec-Fetch-Site is refused, every POST
// carries a CSRF token, and no CORS header is ever sent.
package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

//go:embed templates/*.html static/*
var assets embed.FS

// cookiePrefix and the port name the cookie that holds the access token
// once the first URL has been opened: cookies ignore ports, and two
// dashboards on one address would otherwise overwrite each other's.
const cookiePrefix = "cml_token_"

// Options tune a Server. Zero fields take defaults.
type Options struct {
	// Token is the access token; "" makes a random one.
	Token string
	// Now is the clock corrections are stamped with; nil is time.Now.
	Now func() time.Time
	// Log receives request errors; nil discards them.
	Log *slog.Logger
	// DataDir is the data directory, where team.json says whether this
	// machine is in a team (the team page); "" shows none.
	DataDir string
	// Budget is the LLM spend caps the overview shows spend against.
	Budget config.Budget
}

// Server is the dashboard over one store.
type Server struct {
	db    *store.DB
	token string
	csrf  string
	now   func() time.Time
	log   *slog.Logger
	caps  config.Budget
	tmpl  map[string]*template.Template
	css   []byte
	// hosts are the Host header values accepted, origins the Origin values.
	hosts, origins map[string]bool
	cookie         string // the cookie's name
	// root is the random path every page is under, and the cookie's path:
	// cookies ignore ports, so where the dashboard shares 127.0.0.1 with
	// other services (macOS) a cookie for "/" would go to each of them;
	// one for a path no one else knows goes to none.
	root    string
	dataDir string
}

// New returns a dashboard over db that accepts requests addressed to addr
// (the listener's "127.0.0.1:PORT"). Returns an error only when the
// embedded templates do not parse or no random token can be made.
func New(db *store.DB, addr string, opt Options) (*Server, error) {
	s := &Server{db: db, token: opt.Token, now: opt.Now, log: opt.Log, dataDir: opt.DataDir, caps: opt.Budget}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	var err error
	if s.token == "" {
		if s.token, err = randomHex(16); err != nil {
			return nil, err
		}
	}
	if s.csrf, err = randomHex(16); err != nil {
		return nil, err
	}
	if s.root, err = randomHex(8); err != nil {
		return nil, err
	}
	s.root = "/" + s.root
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard address %q: %w", addr, err)
	}
	s.cookie = cookiePrefix + port
	s.hosts, s.origins = map[string]bool{}, map[string]bool{}
	for _, h := range []string{host, "127.0.0.1", "localhost"} {
		s.hosts[h+":"+port] = true
		s.origins["http://"+h+":"+port] = true
	}
	if s.tmpl, err = parseTemplates(s.root); err != nil {
		return nil, err
	}
	if s.css, err = fs.ReadFile(assets, "static/style.css"); err != nil {
		return nil, err
	}
	return s, nil
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Token is the access token the URL carries.
func (s *Server) Token() string { return s.token }

// URL is the address to open: the dashboard at addr with the token.
func (s *Server) URL(addr string) string {
	return "http://" + addr + s.root + "/?token=" + url.QueryEscape(s.token)
}

// Listen binds a loopback address at port (0 picks a free one); never
// another interface. Cookies are scoped by host, not by port: on 127.0.0.1
// the dashboard's cookie would go to every other local service the browser
// visits there, any user's, were its path not the secret root. Where all of
// 127.0.0.0/8 is the loopback interface (Linux) it binds a random address
// in it, which nothing else the browser visits shares; elsewhere (macOS has
// only 127.0.0.1) 127.0.0.1, where the root path alone keeps the cookie home.
func Listen(port int) (net.Listener, error) {
	if runtime.GOOS == "linux" {
		if ip, err := randomLoopback(); err == nil {
			if ln, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port))); err == nil {
				return ln, nil
			}
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("listen on 127.0.0.1:%d: %w", port, err)
	}
	return ln, nil
}

// randomLoopback is a random address in 127.0.0.0/8 none of whose bytes
// is 0 or 255.
func randomLoopback() (string, error) {
	b := make([]byte, 3)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = 1 + b[i]%254 // 127.0.0.1 is never one: the second byte is not 0
	}
	return fmt.Sprintf("127.%d.%d.%d", b[0], b[1], b[2]), nil
}

// Serve answers requests on ln until ctx is done, then shuts down.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		err := hs.Shutdown(sctx)
		if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
		return err
	}
}

// Handler is the dashboard with its checks in front.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	// The stylesheet is the one thing served without the token: the 401
	// page uses it, and it holds nothing of the store.
	mux.HandleFunc("GET /static/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Write(s.css)
	})
	page := func(pattern string, h func(w http.ResponseWriter, r *http.Request) error) {
		mux.Handle(pattern, s.authed(h))
	}
	page("GET /{$}", s.overview)
	page("GET /memories", s.memories)
	page("GET /memory/{cid}", s.memory)
	page("GET /memory/{cid}/forget", s.forgetPreview)
	page("GET /message/{id}", s.message)
	page("GET /sessions", s.sessions)
	page("GET /session/{id}", s.session)
	page("GET /conflicts", s.conflicts)
	page("GET /tasks", s.tasks)
	page("GET /team", s.team)
	page("POST /memory/{cid}/stage", s.setStage)
	page("POST /memory/{cid}/pin", s.setPin)
	page("POST /memory/{cid}/edit", s.edit)
	page("POST /memory/{cid}/supersede", s.supersede)
	page("POST /memory/{cid}/forget", s.forget)
	page("POST /conflict/{id}/resolve", s.resolve)
	page("POST /task/{cid}/close", s.closeTask)
	// Nothing is served outside the root: a path there is a plain 404,
	// which does not tell the root.
	return s.guard(http.StripPrefix(s.root, mux))
}

// guard refuses, before any routing, requests addressed to another host
// (a DNS-rebinding page) or sent from another site, and sets the headers
// every answer carries.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if !s.hosts[r.Host] {
			http.Error(w, "unexpected Host header: open the address claude-memory-layer ui printed", http.StatusMisdirectedRequest)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.origins[o] {
			http.Error(w, "cross-origin request refused", http.StatusForbidden)
			return
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" && r.Method != http.MethodGet {
			http.Error(w, "cross-site request refused", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost && r.Header.Get("Origin") == "" {
			// Browsers send Origin with every POST; one without it is no
			// form of ours.
			http.Error(w, "a change needs an Origin header", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authed checks the access token, from the URL (then moved into a cookie,
// and the URL reloaded without it) or from the cookie, and the CSRF token
// of a POST; then runs h, turning its error into an error page.
func (s *Server) authed(h func(w http.ResponseWriter, r *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t := r.URL.Query().Get("token"); t != "" && r.Method == http.MethodGet {
			if !s.validToken(t) {
				s.fail(w, r, http.StatusUnauthorized, errUnauthorized)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.token, Path: s.root + "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			q := r.URL.Query()
			q.Del("token")
			u := *r.URL
			u.RawQuery = q.Encode()
			http.Redirect(w, r, s.root+u.RequestURI(), http.StatusSeeOther)
			return
		}
		c, err := r.Cookie(s.cookie)
		if err != nil || !s.validToken(c.Value) {
			s.fail(w, r, http.StatusUnauthorized, errUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
			if err := r.ParseForm(); err != nil {
				s.fail(w, r, http.StatusBadRequest, err)
				return
			}
			if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(s.csrf)) != 1 {
				s.fail(w, r, http.StatusForbidden, errCSRF)
				return
			}
		}
		if err := h(w, r); err != nil {
			var he httpError
			if errors.As(err, &he) {
				s.fail(w, r, he.code, he)
				return
			}
			s.log.Error("dashboard", "path", r.URL.Path, "err", err)
			s.fail(w, r, http.StatusInternalServerError, err)
		}
	})
}

func (s *Server) validToken(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

var (
	errUnauthorized = errors.New("this dashboard needs its token: open the address claude-memory-layer ui printed")
	errCSRF         = errors.New("the form's CSRF token is missing or stale: reload the page and try again")
)

// httpError is an error with the status code to answer it with.
type httpError struct {
	code int
	err  error
}

func (e httpError) Error() string { return e.err.Error() }
func (e httpError) Unwrap() error { return e.err }

func notFound(format string, args ...any) error {
	return httpError{http.StatusNotFound, fmt.Errorf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return httpError{http.StatusBadRequest, fmt.Errorf(format, args...)}
}

// fail answers with an error page.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, code int, err error) {
	if perr := s.page(w, code, "error", pageData{Title: http.StatusText(code), Error: err.Error(), Code: code}); perr != nil {
		s.log.Error("dashboard: error page", "err", perr)
	}
}
