package dashboard

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// RunOptions are the ui command's choices.
type RunOptions struct {
	Port   int  // 0 picks a free port
	NoOpen bool // print the address only
	// Out receives the address to open and what happened; Options tune the server.
	Out     io.Writer
	Options Options
	// Open opens a URL in a browser without waiting for it; nil is the
	// desktop's opener (xdg-open, open, rundll32).
	Open func(ctx context.Context, target string) error
}

// Run serves the dashboard over db on the loopback address until ctx is
// done: it prints the address with its token and opens it in a browser
// when it can (a browser that cannot be started is only mentioned), by way
// of a page only this user can read.
// Returns an error when the port cannot be bound.
func Run(ctx context.Context, db *store.DB, o RunOptions) error {
	ln, err := Listen(o.Port)
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	s, err := New(db, addr, o.Options)
	if err != nil {
		ln.Close()
		return err
	}
	u := s.URL(addr)
	fmt.Fprintf(o.Out, "Dashboard: %s\n(only this address opens it; stop with Ctrl-C)\n", u)
	if !o.NoOpen {
		open := o.Open
		if open == nil {
			open = browse
		}
		// The opener's arguments are readable by every user in /proc: it
		// gets a file only this user can read, which redirects to the
		// address with its token (as Jupyter does).
		page, err := redirectPage(filepath.Dir(db.Path()), u)
		if err == nil {
			defer os.Remove(page)
			err = open(ctx, fileURL(page))
		}
		if err != nil {
			fmt.Fprintf(o.Out, "Could not open a browser (%v); open the address above.\n", err)
		}
	}
	return s.Serve(ctx, ln)
}

// redirectPage writes in dir (the data directory, 0700) a page only this
// user can read that sends the browser to u, and returns its path. Run
// removes it when the dashboard stops; its token is worthless then.
func redirectPage(dir, u string) (string, error) {
	f, err := os.CreateTemp(dir, "dashboard-*.html") // 0600
	if err != nil {
		return "", fmt.Errorf("write the page that opens the dashboard: %w", err)
	}
	a := html.EscapeString(u)
	_, err = fmt.Fprintf(f, `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=%s"><title>claude-memory-layer</title></head><body><p><a href="%s">Open the dashboard</a></p></body></html>`+"\n", a, a)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write the page that opens the dashboard: %w", err)
	}
	return f.Name(), nil
}

// openCommand is the command line that opens target on the desktop of goos.
// Every local user can read it (/proc, ps): Run gives it the redirect
// page's file: URL, never the address with its token.
func openCommand(goos, target string) []string {
	switch goos {
	case "darwin":
		return []string{"open", target}
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", target}
	default:
		return []string{"xdg-open", target}
	}
}

// fileURL is the file: URL of an absolute path.
func fileURL(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/... on Windows
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// browse asks the desktop to open u, without waiting for the browser.
func browse(ctx context.Context, u string) error {
	argv := openCommand(runtime.GOOS, u)
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait() // reap it; its exit status says nothing about the page
	return nil
}
