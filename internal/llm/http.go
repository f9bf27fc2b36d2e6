package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// StatusError is returned when an API answers with a status other than 2xx.
type StatusError struct {
	StatusCode int
	// Body is a short excerpt of the response body, with the API key
	// redacted.
	Body string
}

func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("status %d", e.StatusCode)
	}
	return fmt.Sprintf("status %d: %s", e.StatusCode, e.Body)
}

// newClient returns an HTTP client with an overall timeout that refuses
// redirects: an API key header must not follow a redirect to another host,
// and a redirect is a misconfigured base URL anyway.
func newClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// baseURL checks a configured base URL (or def when it is empty) and returns
// it without a trailing slash.
func baseURL(s, def string) (string, error) {
	if s == "" {
		s = def
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("base url: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("base url %q: want http(s)://host[/path]", u.Redacted())
	}
	return strings.TrimRight(s, "/"), nil
}

// postJSON sends in as JSON to endpoint and decodes a 2xx reply into out. The
// reply is read up to maxResponseBytes; secret (the API key) is redacted from
// any body excerpt in an error.
func postJSON(ctx context.Context, c *http.Client, endpoint string, hdr http.Header, secret string, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("new request: %w", err)
	}
	req.Header = hdr.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		// A context error is returned as such, so callers can tell a
		// timeout from a refused connection with errors.Is.
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			return fmt.Errorf("%w: %v", ctxErr, err)
		}
		return err // *url.Error: method, URL (password redacted) and cause
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		head, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		return &StatusError{StatusCode: resp.StatusCode, Body: excerpt(string(head), secret)}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return fmt.Errorf("read response: %w", err)
	}
	if len(data) > maxResponseBytes {
		return fmt.Errorf("%w: response body over %d bytes", ErrTooLarge, maxResponseBytes)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}
