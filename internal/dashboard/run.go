package dashboard

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"runtime"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// RunOptions are the ui command's choices.
type RunOptions struct {
	Port   int  // 0 picks a free port
	NoOpen bool // print the address only
	// Out receives the address to open and what happened; Options tune the server.
	Out     io.Writer
	Options Options
}

// Run serves the dashboard over db on the loopback address until ctx is
// done: it prints the address with its token and opens it in a browser
// when it can (a browser that cannot be started is only mentioned).
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
		if err := browse(ctx, u); err != nil {
			fmt.Fprintf(o.Out, "Could not open a browser (%v); open the address above.\n", err)
		}
	}
	return s.Serve(ctx, ln)
}

// browse asks the desktop to open u, without waiting for the browser.
func browse(ctx context.Context, u string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.CommandContext(ctx, "open", u)
	case "windows":
		c = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", u)
	default:
		c = exec.CommandContext(ctx, "xdg-open", u)
	}
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait() // reap it; its exit status says nothing about the page
	return nil
}
